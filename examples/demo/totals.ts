import type { Kernel } from "../../kernel";
import { Entry, Topics } from "../../plugins/leaderboards";
import { HeadlessGate } from "../../spec/gate/control";
import type { Freshness, Totals } from "./simulation";

/** The board whose records the demo times (all-time, keep-best, descending). */
const BOARD = "Kills";
/** A record not on every server's page this long after its submit counts as late. */
export const RECORD_WAIT = 120;
/** Samples (one a second) in the window the budgets' use is measured over. */
const MINUTE = 60;
/** Rows of each server's last Kills page kept, to know what a server shows when a record lands: the visible top. */
const KEPT = 10;
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

interface Timed {
	readonly key: string;
	readonly value: number;
	readonly submitted: number;
	/** Servers whose page has shown it. */
	readonly seen: Set<number>;
}

function percentile(sorted: ReadonlyArray<number>, share: number): number | undefined {
	if (sorted.isEmpty()) return undefined;
	return sorted[math.clamp(math.ceil(share * sorted.size()), 1, sorted.size()) - 1];
}

/**
 * Watches the experience from outside, changing nothing the game does: every
 * server's Leaderboard.Record (a Kills value that entered the visible top and
 * landed) and Leaderboard.Updated (a page read or patched), the shared pages'
 * hash map, the requests every server made, MessagingService's counts. It costs no
 * request, draws no random number and refills no budget, so a seed's run prints
 * the same figures with or without it.
 */
export class Tracker {
	private readonly pending = new Array<Timed>();
	private readonly times = new Array<number>();
	private readonly shown = new Array<ReadonlyArray<Entry>>();
	private landed = 0;
	private superseded = 0;
	private late = 0;
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
	) {}

	/** Follows one server's boards: its records and what its pages show. */
	watch(index: number, kernel: Kernel) {
		this.shown[index] = [];
		kernel.Bus.subscribe(Topics.Record, (_, board, key, value, period) => {
			if (board === BOARD && period === undefined) this.record(key, value);
		});
		kernel.Bus.subscribe(Topics.Updated, (_, board, entries, period) => {
			if (board !== BOARD || period !== undefined) return;
			const top = new Array<Entry>();
			for (const entry of entries) if (top.size() < KEPT) top.push(entry);
			this.shown[index] = top;
			if (!this.pending.isEmpty()) this.show(index, entries);
		});
	}

	/**
	 * Once a virtual second while the game runs (`online` players): the shared pages' refreshes, the
	 * requests of the last minute against the experience's limits (their peak), records gone late.
	 */
	sample(online: number) {
		const now = this.gate.now();
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
		for (let i = this.pending.size() - 1; i >= 0; i--)
			if (now - this.pending[i].submitted > RECORD_WAIT) {
				this.pending.remove(i);
				this.late += 1;
			}
	}

	/** The totals now. */
	totals(): Totals {
		const { gate } = this;
		const messages = gate.messaging.counts();
		let experience = 0;
		for (const kind of KINDS) experience += gate.dataStore.dropped(`${kind}ExperienceThrottled`);
		return {
			servers: this.shown.size(),
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
			records: this.freshness(),
		};
	}

	private freshness(): Freshness {
		const sorted = [...this.times];
		sorted.sort((a, b) => a < b);
		return {
			landed: this.landed,
			superseded: this.superseded,
			seen: sorted.size(),
			late: this.late,
			pending: this.pending.size(),
			p50: percentile(sorted, 0.5),
			p99: percentile(sorted, 0.99),
			max: sorted.isEmpty() ? undefined : sorted[sorted.size() - 1],
		};
	}

	// A record landed on some server: time it from its submit until every server's page shows it.
	private record(key: string, value: number) {
		const submitted = this.submittedAt(key, value);
		if (submitted === undefined) return;
		// A newer record of the same key replaces the older (whose servers may never show it).
		const index = this.pending.findIndex((record) => record.key === key);
		if (index >= 0) {
			if (this.pending[index].value >= value) return;
			this.pending.remove(index);
			this.superseded += 1;
		}
		this.landed += 1;
		const record: Timed = { key, value, submitted, seen: new Set() };
		// Servers whose page already shows it (a refresh read the store before the record was announced).
		this.shown.forEach((entries, server) => {
			if (entries.some((entry) => entry.Key === key && entry.Value !== undefined && entry.Value >= value))
				record.seen.add(server);
		});
		this.pending.push(record);
		this.settle();
	}

	private show(server: number, entries: ReadonlyArray<Entry>) {
		const values = new Map<string, number>();
		for (const entry of entries) if (entry.Value !== undefined) values.set(entry.Key, entry.Value);
		for (const record of this.pending) {
			const value = values.get(record.key);
			if (value !== undefined && value >= record.value) record.seen.add(server);
		}
		this.settle();
	}

	// Records every server has shown leave the pending list with their time.
	private settle() {
		const now = this.gate.now();
		for (let i = this.pending.size() - 1; i >= 0; i--) {
			const record = this.pending[i];
			if (record.seen.size() < this.shown.size()) continue;
			this.times.push(now - record.submitted);
			this.pending.remove(i);
		}
	}
}
