import type { Kernel } from "../../kernel";
import { Entry, Topics } from "../../plugins/leaderboards";
import { HeadlessGate } from "../../spec/gate/control";
import { FreshnessWatch } from "../../spec/gate/freshness";
import type { Totals } from "./simulation";

/** The board whose records the demo times (all-time, keep-best, descending). */
const BOARD = "Kills";
/** Samples (one a second) in the window the budgets' use is measured over. */
const MINUTE = 60;
/** Kills' visible top (VisibleTop, the default): a record is a value that entered it. */
const VISIBLE_TOP = 10;
/** The experience-level throttle errors, by request type (spec/gate/engine/datastore.luau). */
const KINDS = [
	"OrderedRead",
	"OrderedWrite",
	"OrderedList",
	"OrderedRemove",
	"StandardRead",
	"StandardWrite",
	"StandardList",
	"StandardRemove",
];

/**
 * Watches the experience from outside, changing nothing the game does: every
 * server's Leaderboard.Record (a Kills value that entered the visible top and
 * landed) and Leaderboard.Updated (a page read or patched), the shared pages'
 * hash map, the requests every server made, MessagingService's counts. It costs no
 * request, draws no random number and refills no budget, so a seed's run prints
 * the same figures with or without it.
 */
export class Tracker {
	// Records and every server's page, by the rule the demo and the bench share (spec/gate/freshness.ts).
	private readonly freshness: FreshnessWatch;
	private readonly servers = new Array<number>();
	private refreshes = 0;
	private readonly refreshedAt = new Map<string, number>();
	private readonly peak = { read: 0, write: 0, list: 0, memory: 0 };
	// The Luau heap's peak (kilobytes, garbage not yet collected included).
	private heap = 0;
	// The request counts of the last minute's samples (one a second), oldest first.
	private readonly window = new Array<{ read: number; write: number; list: number; memory: number }>();

	constructor(
		private readonly gate: HeadlessGate,
		private readonly pagesMap: string,
		/** When a user's kill count `value` was submitted (virtual seconds), if known. */
		private readonly submittedAt: (key: string, value: number) => number | undefined,
	) {
		this.freshness = new FreshnessWatch(VISIBLE_TOP, () => gate.now());
	}

	/** Follows one server's boards: its records and what its pages show. */
	watch(index: number, kernel: Kernel) {
		this.servers.push(index);
		kernel.Bus.subscribe(Topics.Record, (_, board, key, value, period) => {
			if (board !== BOARD || period !== undefined) return;
			// A record is timed from its submit until every server's page shows it.
			const submitted = this.submittedAt(key, value);
			if (submitted !== undefined) this.freshness.record(key, value, submitted, this.servers);
		});
		kernel.Bus.subscribe(Topics.Updated, (_, board, entries, period) => {
			if (board !== BOARD || period !== undefined) return;
			const rows = new Array<{ Key: string; Value: number }>();
			for (const entry of entries as Entry[]) if (entry.Value !== undefined) rows.push(entry);
			this.freshness.page(index, rows);
		});
	}

	/**
	 * Once a virtual second while the game runs (`online` players): the shared pages' refreshes, the
	 * requests of the last minute against the experience's limits (their peak).
	 */
	sample(online: number) {
		this.heap = math.max(this.heap, this.gate.heapKilobytes());
		// The pages' refresh times alone: copying whole pages each second was a fifth of the demo's run.
		for (const [store, at] of this.gate.memoryStore.hashSnapshot(this.pagesMap, "at")) {
			if (!typeIs(at, "number")) continue;
			if (this.refreshedAt.get(store) !== at) this.refreshes += 1;
			this.refreshedAt.set(store, at);
		}
		// Requests of each type in the last minute, against the experience's limit a minute now.
		const { dataStore, memoryStore } = this.gate;
		const calls = (...methods: string[]) => {
			let total = 0;
			for (const method of methods) total += dataStore.calls(method);
			return total;
		};
		const sample = {
			read: calls("GetAsync", "BatchGetAsync", "UpdateAsync"),
			write: calls("UpdateAsync", "SetAsync", "IncrementAsync"),
			list: calls("GetSortedAsync", "AdvanceToNextPageAsync"),
			memory: memoryStore.calls(),
		};
		this.window.push(sample);
		const first = this.window.size() > MINUTE ? this.window.remove(0)! : undefined;
		const share = (now: number, before: number, limit: number) => (limit > 0 ? (now - before) / limit : 0);
		const peak = this.peak;
		peak.read = math.max(peak.read, share(sample.read, first?.read ?? 0, dataStore.experienceLimit("OrderedRead")));
		peak.write = math.max(
			peak.write,
			share(sample.write, first?.write ?? 0, dataStore.experienceLimit("OrderedWrite")),
		);
		peak.list = math.max(peak.list, share(sample.list, first?.list ?? 0, dataStore.experienceLimit("OrderedList")));
		// MemoryStore's request units a minute, 1,000 + 120 x users (memoryStore.quota() would refill its bucket:
		// watching must not change the run).
		peak.memory = math.max(peak.memory, share(sample.memory, first?.memory ?? 0, 1000 + 120 * online));
	}

	/** Play stopped (before the close): a record no server's page showed yet is never seen, at its age now. */
	stop() {
		this.freshness.stop();
	}

	/** The totals now. */
	totals(): Totals {
		const { gate } = this;
		const messages = gate.messaging.counts();
		let experience = 0;
		for (const kind of KINDS) experience += gate.dataStore.dropped(`${kind}ExperienceThrottled`);
		return {
			servers: this.servers.size(),
			lists: gate.dataStore.calls("GetSortedAsync") + gate.dataStore.calls("AdvanceToNextPageAsync"),
			reads: gate.dataStore.calls("GetAsync") + gate.dataStore.calls("BatchGetAsync"),
			memoryCalls: gate.memoryStore.calls(),
			memoryRefused: gate.memoryStore.refused(),
			pageRefreshes: this.refreshes,
			pages: this.refreshedAt.size(),
			messages: {
				published: messages.published,
				delivered: messages.delivered,
				lost: messages.lost,
				refused: messages.overTopic + messages.overExperience,
			},
			queued: gate.dataStore.throttled(),
			droppedServer: gate.dataStore.dropped() - experience,
			droppedExperience: experience,
			peakUse: { ...this.peak },
			heapMegabytes: math.max(this.heap, gate.heapKilobytes()) / 1024,
			records: this.freshness.figures(),
		};
	}
}
