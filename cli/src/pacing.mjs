// The tool's own rate limit: a share of the experience's budgets, paced with a
// leaky bucket per budget, as the data store limits page recommends for Open
// Cloud ("Control rate limits": "Implement a local rate limiter using the leaky
// bucket strategy"). Game servers and Open Cloud spend one budget a minute per
// request type (300 + per-user x concurrent users; MemoryStore: 1,000 + 120 x
// users request units), so the tool takes `share` of it and leaves the rest to
// the live servers.

import { CONTRACT } from "./contract.mjs";

/**
 * The experience's budgets a minute: [base, per concurrent user] (the contract's). MemoryStore's are
 * request units: a sorted map range read costs one a row returned (one when empty).
 */
export const BUDGETS = CONTRACT.Budgets;

/** @typedef {keyof typeof BUDGETS} Budget */
/** @typedef {{ clock?: () => number, wait?: (ms: number) => Promise<unknown> }} Timing a clock in ms and a wait (the tests') */

/**
 * What the tool may spend of a budget a minute: share x (base + perUser x players).
 * @param {Budget} budget
 * @param {number} share
 * @param {number} players
 */
export function shareOf(budget, share, players) {
	const [base, perUser] = BUDGETS[budget];
	return share * (base + perUser * players);
}

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A leaky bucket: `capacity` units at most in it (a sixth of a minute's share, 10 at
 * most: a short command runs at once), draining `perMinute - capacity` units a
 * minute, so that no window of a minute ever holds more than `perMinute` units: a
 * burst of `capacity`, then the steady rate. A request waits until the bucket has
 * room for it; one dearer than the bucket waits for it to be empty, and a cost
 * charged after the fact may leave it in debt. Callers are served in order.
 */
export class LeakyBucket {
	/**
	 * @param {number} perMinute
	 * @param {Timing} [timing]
	 */
	constructor(perMinute, { clock = () => performance.now(), wait = sleep } = {}) {
		this.capacity = Math.max(1, Math.min(10, Math.floor(perMinute / 6)));
		this.full = Math.max(perMinute - this.capacity, perMinute / 2) / 60_000; // units a millisecond
		this.rate = this.full;
		this.level = 0;
		this.clock = clock;
		this.wait = wait;
		this.last = clock();
		/** @type {Promise<void>} */
		this.tail = Promise.resolve();
	}

	leak() {
		const now = this.clock();
		this.level = Math.max(0, this.level - (now - this.last) * this.rate);
		this.last = now;
	}

	/**
	 * Resolves when `cost` units may be sent.
	 * @param {number} [cost]
	 */
	acquire(cost = 1) {
		const turn = this.tail.then(async () => {
			for (this.leak(); this.level > 0 && this.level + cost > this.capacity; this.leak()) {
				const over = Math.min(this.level, this.level + cost - this.capacity);
				await this.wait(Math.max(1, Math.ceil(over / this.rate)));
			}
			this.level += cost;
		});
		this.tail = turn.catch(() => {});
		return turn;
	}

	/**
	 * Units spent after the fact (a range read costs what it returned): the bucket may go into debt.
	 * @param {number} units
	 */
	charge(units) {
		this.leak();
		this.level += units;
	}

	/** The experience refused a request (429): drain at half the rate (an eighth at least) for a while. */
	slowDown() {
		this.leak();
		this.rate = Math.max(this.full / 8, this.rate / 2);
	}

	/** A request went through: the rate grows back towards the share. */
	recover() {
		this.leak();
		this.rate = Math.min(this.full, this.rate * 1.1);
	}
}

/** One bucket per budget, each sized by the tool's share. */
export class Pacer {
	/** @param {{ share: number, players: number } & Timing} options */
	constructor({ share, players, clock, wait }) {
		/** @type {Map<Budget, LeakyBucket>} */
		this.buckets = new Map();
		for (const budget of /** @type {Budget[]} */ (Object.keys(BUDGETS)))
			this.buckets.set(budget, new LeakyBucket(shareOf(budget, share, players), { clock, wait }));
	}

	/**
	 * @param {Budget} budget
	 * @returns {LeakyBucket}
	 */
	bucket(budget) {
		const bucket = this.buckets.get(budget);
		if (!bucket) throw new Error(`no budget ${budget}`);
		return bucket;
	}

	/**
	 * @param {Budget} budget
	 * @param {number} [cost]
	 */
	acquire(budget, cost = 1) {
		return this.bucket(budget).acquire(cost);
	}

	/**
	 * @param {Budget} budget
	 * @param {number} units
	 */
	charge(budget, units) {
		if (units > 0) this.bucket(budget).charge(units);
	}

	/** @param {Budget} budget */
	slowDown(budget) {
		this.bucket(budget).slowDown();
	}

	/** @param {Budget} budget */
	recover(budget) {
		this.bucket(budget).recover();
	}
}
