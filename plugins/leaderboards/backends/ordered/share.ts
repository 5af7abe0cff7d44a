import { refilled } from "../../core";
// This server's share of the experience's ordered data store budgets.
//
// Since 2026 Roblox enforces data store budgets per experience (shared by every
// server and by Open Cloud) as well as per server: ordered Read 300 + 40 x CCU,
// Write 300 + 20 x CCU, List 300 + 2 x CCU, Remove 300 + 40 x CCU a minute
// (creator docs, "Data store error codes and limits", Access limits). No server
// sees the experience's spend, so each keeps to a share it can prove: SHARE of
// the per-user rate for each player of its own (one player's worth at least, so
// a server whose players left can still drain). The shares of any number of
// servers of any size then add up to at most SHARE x (per-user rate x CCU): an
// Open Cloud tool may spend 10% of the experience's whole budget (base
// included) beside them, and the base's rest pays the shared pages' refreshes
// (a page's one lease holder lists from REFRESH_LISTS, below), never over.

/** The part of the experience's per-user rate a server claims for each of its players. */
export const SHARE = 0.9;

/** A bucket holds a minute of its rate, or this many requests when that is less (one around(): two lists). */
export const MIN_BURST = 2;

/** Each ordered request type's per-user rate a minute at the experience level. */
export const PER_USER = { Read: 40, Write: 20, List: 2, Remove: 40 } as const;

/**
 * Lists a minute a server may spend refreshing the shared pages it holds the
 * lease of, from the experience's base (300 a minute): one server holds a
 * board's lease at a time, so all of them together list at most one page per
 * board per refresh.
 */
export const REFRESH_LISTS = 6;

/** After an experience-throttled error the share drops to this part of itself... */
export const BACKOFF = 0.5;
/** ...and grows back by this part of the whole a minute. */
export const RECOVERY = 0.25;

export type RequestKind = keyof typeof PER_USER | "Refresh";

interface Bucket {
	tokens?: number;
	updated: number;
}

/**
 * Buckets of a minute per request type, refilling at this server's share (and a
 * REFRESH_LISTS bucket for lease holders). Spent when a request is sent;
 * a request the bucket cannot pay is refused by the backend, never queued.
 */
export class ExperienceShare {
	private readonly buckets = new Map<RequestKind, Bucket>();
	// The part of the share in use: 1, or less after an experience-throttled error, growing back.
	private scale = 1;
	private scaled = 0;

	constructor(
		/** Players in this server now. */
		readonly players: () => number,
		/** The time source (the attach's Clock, from each call's context). */
		public clock: () => number,
	) {}

	/** Requests of a kind this server may send a minute now. */
	rate(kind: RequestKind): number {
		if (kind === "Refresh") return REFRESH_LISTS;
		return SHARE * PER_USER[kind] * math.max(1, this.players()) * this.recovered();
	}

	/** Whole requests of a kind the share holds now. */
	available(kind: RequestKind): number {
		return math.floor(this.level(kind) + 1e-9);
	}

	spend(kind: RequestKind, count: number) {
		const tokens = this.level(kind);
		this.buckets.get(kind)!.tokens = tokens - count;
	}

	/** A request's error: an experience-throttled one means others spend the budget too (Open Cloud). */
	observe(problem: unknown) {
		if (!typeIs(problem, "string") || problem.find("ExperienceThrottled")[0] === undefined) return;
		this.scale = this.recovered() * BACKOFF;
		this.scaled = this.clock();
		for (const [, bucket] of this.buckets) bucket.tokens = math.min(bucket.tokens ?? 0, 0);
	}

	private recovered(): number {
		if (this.scale >= 1) return 1;
		return math.min(1, this.scale + ((this.clock() - this.scaled) * RECOVERY) / 60);
	}

	private level(kind: RequestKind): number {
		const now = this.clock();
		let bucket = this.buckets.get(kind);
		if (!bucket) {
			bucket = { updated: now };
			this.buckets.set(kind, bucket);
		}
		const perMinute = this.rate(kind);
		const capacity = math.max(perMinute, MIN_BURST);
		bucket.tokens = refilled(bucket.tokens, now - bucket.updated, perMinute, capacity);
		bucket.updated = now;
		return bucket.tokens;
	}
}
