import { Quota } from "./quota";

/** The longest a shard that answered over its partition's limit is left alone. */
export const MAX_SHARD_PAUSE = 60;

// A stable string hash (djb2), the same on every server: which shard a key lives on.
export function shardOf(key: string, shards: number): number {
	let hash = 5381;
	for (let i = 1; i <= key.size(); i++) hash = (hash * 33 + string.byte(key, i)[0]) % 4_294_967_296;
	return hash % shards;
}

function statusOf(message: unknown): string | undefined {
	return typeIs(message, "string") ? (message.match("^(%w+):")[0] as string | undefined) : undefined;
}

/**
 * A board's sorted maps (one per shard, MapPrefix .. board, or
 * MapPrefix .. board .. ".i/n" over n shards) and the breaker over them: a
 * shard that answered PartitionRequestsOverLimit is left alone for a pause that
 * doubles up to MAX_SHARD_PAUSE (writes to it fail without a request and stay
 * queued), and TotalRequestsOverLimit empties the quota's buckets.
 */
export class Shards {
	private readonly maps = new Map<string, MemoryStoreSortedMap[]>();
	private readonly pausedUntil: number[];
	private readonly pauseOf: number[];
	private paused = 0;

	constructor(
		private readonly service: MemoryStoreService,
		private readonly prefix: string,
		readonly count: number,
		private readonly quota: Quota,
	) {
		this.pausedUntil = new Array<number>(count, 0);
		this.pauseOf = new Array<number>(count, 0);
	}

	/** The board's maps, by shard. */
	of(board: string): MemoryStoreSortedMap[] {
		let list = this.maps.get(board);
		if (!list) {
			list = [];
			const { count, prefix } = this;
			for (let i = 1; i <= count; i++)
				list.push(this.service.GetSortedMap(count === 1 ? prefix + board : `${prefix}${board}.${i}/${count}`));
			this.maps.set(board, list);
		}
		return list;
	}

	/** The shard a key lives on. */
	shardOf(key: string): number {
		return shardOf(key, this.count);
	}

	/** The shard is paused: a call to it is not sent. */
	isPaused(shard: number): boolean {
		return this.pausedUntil[shard] > this.quota.clock();
	}

	/** A call's outcome on a shard: refusals pause it or empty the quota, success reopens it. */
	outcome(shard: number, ok: boolean, message?: unknown) {
		const status = ok ? undefined : statusOf(message);
		if (status === "PartitionRequestsOverLimit" || status === "DataStructureRequestsOverLimit") {
			const now = this.quota.clock();
			this.pauseOf[shard] = math.min(MAX_SHARD_PAUSE, this.pauseOf[shard] === 0 ? 1 : this.pauseOf[shard] * 2);
			if (this.pausedUntil[shard] <= now) this.paused += 1;
			this.pausedUntil[shard] = now + this.pauseOf[shard];
		} else if (status === "TotalRequestsOverLimit" || status === "RequestThrottled") {
			this.quota.empty();
		} else if (ok) {
			this.pauseOf[shard] = 0;
		}
	}

	/** Shards open now. O(shards) only while one is paused. */
	open(): number {
		if (this.paused === 0) return this.count;
		const now = this.quota.clock();
		this.paused = 0;
		for (const resumes of this.pausedUntil) if (resumes > now) this.paused += 1;
		return this.count - this.paused;
	}
}
