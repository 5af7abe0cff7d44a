// How fresh records are, by one rule for the demo and the bench (docs/demo.md, "Records"): a record is a
// value that entered a board's visible top (bigger values first), watched until every server that must
// show it has shown it on its page. Each ends one way:
// - seen: every such server's page showed the key at that value or better; timed from its submit;
// - superseded: a better value of the same key became a record first (that one is watched instead);
// - displaced: each server that had not shown it shows `visibleTop` other keys above its value (a
//   keep-best board's values only rise, so it can no longer enter that visible top, whatever the order
//   of ties);
// - never seen: none of these when play stopped; timed at its age then.
// The percentiles count every seen and never-seen record.

/** A record's outcomes and times. */
export interface FreshnessFigures {
	/** Records watched (superseded ones included). */
	readonly records: number;
	readonly seen: number;
	readonly superseded: number;
	readonly displaced: number;
	readonly neverSeen: number;
	/** Seconds from the submit until every server showed it (a never-seen one: its age when play stopped). */
	readonly p50?: number;
	readonly p99?: number;
	readonly max?: number;
}

interface Watched {
	readonly key: string;
	readonly value: number;
	readonly submitted: number;
	/** Servers still to show it, and those whose visible top it can no longer enter. */
	readonly unseen: Set<number>;
	readonly displacedOn: Set<number>;
}

type Row = { readonly Key: string; readonly Value: number };

/** The value at `share` of a sorted list: the smallest with at least that share at or below it. */
export function percentile(sorted: ReadonlyArray<number>, share: number): number | undefined {
	if (sorted.isEmpty()) return undefined;
	return sorted[math.clamp(math.ceil(share * sorted.size()), 1, sorted.size()) - 1];
}

export class FreshnessWatch {
	private readonly watched = new Map<string, Watched>();
	// Each server's last page: its rows by key, and the value of its visible top's last row when full.
	private readonly pages = new Map<number, { values: Map<string, number>; floor?: number; top: Set<string> }>();
	private readonly times = new Array<number>();
	private records = 0;
	private seen = 0;
	private superseded = 0;
	private displaced = 0;
	private neverSeen = 0;
	private stoppedAt?: number;

	constructor(
		private readonly visibleTop: number,
		private readonly now: () => number,
	) {}

	/** A record of `key` at `value`, submitted at `submitted`, for `servers` to show. */
	record(key: string, value: number, submitted: number, servers: ReadonlyArray<number>) {
		if (this.stoppedAt !== undefined) return;
		const before = this.watched.get(key);
		if (before) {
			if (before.value >= value) return;
			this.superseded += 1;
		}
		this.records += 1;
		const watched: Watched = { key, value, submitted, unseen: new Set(servers), displacedOn: new Set() };
		this.watched.set(key, watched);
		for (const server of servers) this.check(watched, server);
		this.settle(watched);
	}

	/** Server `server`'s page now, best first. */
	page(server: number, rows: ReadonlyArray<Row>) {
		if (this.stoppedAt !== undefined) return;
		const values = new Map<string, number>();
		const top = new Set<string>();
		for (const row of rows) {
			values.set(row.Key, row.Value);
			if (top.size() < this.visibleTop) top.add(row.Key);
		}
		const full = rows.size() >= this.visibleTop && this.visibleTop > 0;
		this.pages.set(server, { values, top, floor: full ? rows[this.visibleTop - 1].Value : undefined });
		for (const [, watched] of this.watched)
			if (watched.unseen.has(server)) {
				this.check(watched, server);
				this.settle(watched);
			}
	}

	/** Play stopped: records not seen by now are never seen, timed at their age. */
	stop() {
		if (this.stoppedAt !== undefined) return;
		this.stoppedAt = this.now();
		for (const [, watched] of this.watched) this.times.push(this.stoppedAt - watched.submitted);
		this.neverSeen = this.watched.size();
		this.watched.clear();
	}

	/** The figures now; while play goes on, a record still watched counts at its age so far. */
	figures(): FreshnessFigures {
		const sorted = [...this.times];
		for (const [, watched] of this.watched) sorted.push(this.now() - watched.submitted);
		sorted.sort((a, b) => a < b);
		return {
			records: this.records,
			seen: this.seen,
			superseded: this.superseded,
			displaced: this.displaced,
			neverSeen: this.neverSeen,
			p50: percentile(sorted, 0.5),
			p99: percentile(sorted, 0.99),
			max: sorted.isEmpty() ? undefined : sorted[sorted.size() - 1],
		};
	}

	// Whether the server's page shows the record, or its visible top is full of others above it.
	private check(watched: Watched, server: number) {
		const page = this.pages.get(server);
		if (!page) return;
		const value = page.values.get(watched.key);
		if (value !== undefined && value >= watched.value) {
			watched.unseen.delete(server);
			watched.displacedOn.delete(server);
		} else if (page.floor !== undefined && page.floor > watched.value && !page.top.has(watched.key)) {
			watched.displacedOn.add(server);
		}
	}

	// Every server showed it (seen), or the rest can no longer show it in their visible top (displaced).
	private settle(watched: Watched) {
		if (this.watched.get(watched.key) !== watched) return;
		if (watched.unseen.isEmpty()) {
			this.times.push(this.now() - watched.submitted);
			this.seen += 1;
			this.watched.delete(watched.key);
		} else if (watched.displacedOn.size() === watched.unseen.size()) {
			this.displaced += 1;
			this.watched.delete(watched.key);
		}
	}
}
