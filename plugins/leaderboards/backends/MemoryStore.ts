import { MemoryStoreService, Players } from "@rbxts/services";
import { Backend, BackendCall, PendingWrite, ruleOf, updaterFor } from "../types";
import { Ledger } from "./memory/ledger";
import { Quota, READ_SHARE } from "./memory/quota";
import { RANGE_SIZE, Ranges } from "./memory/range";
import { Shards } from "./memory/shards";

// Engine facts, from the Roblox creator documentation (cloud-services/memory-stores
// "Limits and quotas", memory-stores/sorted-map, memory-stores/per-partition-limits,
// memory-stores/best-practices "Sharding", and the MemoryStoreSortedMap reference).

/** Sorted map keys: 128 characters at most. */
export const MAX_KEY_LENGTH = 128;
/** The longest an item may live, and the default: 3,888,000 s (45 days). */
export const MAX_EXPIRATION = 3_888_000;

/** MemoryStore.backend(options). Every field is optional. */
export interface MemoryStoreOptions {
	/** Sorted map name prefix: a board's map is MapPrefix .. board. Default "CKBoard_". */
	MapPrefix?: string;
	/** Seconds an item lives after its last write (a Reset board's: until its period ends plus Retention). Default and maximum 3,888,000 (45 days). */
	Expiration?: number;
	/**
	 * Maps a board spreads over, by a stable hash of the key (default 1). Each map is its own
	 * partition with its own request limit. The count is part of the map names, so changing it
	 * starts fresh maps: scores return as players submit, and the old maps expire.
	 */
	Shards?: number;
	/** The service (a spec may hand it another server's). */
	MemoryStoreService?: MemoryStoreService;
	/** Whose players count toward this server's share of the quota. */
	Players?: Players;
}

type Transform = (old: unknown) => LuaTuple<[number, number]> | undefined;
type Updatable = {
	UpdateAsync(this: MemoryStoreSortedMap, key: string, transform: Transform, expiration: number): unknown;
};

function fail(field: string, problem: string, value: unknown): never {
	error(`MemoryStore.backend: ${field} ${problem} (got ${tostring(value)})`, 4);
}

// The options checked, with their defaults.
function optionsOf(options: MemoryStoreOptions) {
	if (!typeIs(options, "table")) fail("options", "must be a table", options);
	const prefix = options.MapPrefix ?? "CKBoard_";
	if (!typeIs(prefix, "string")) fail("MapPrefix", "must be a string", prefix);
	const expiration = options.Expiration ?? MAX_EXPIRATION;
	if (!typeIs(expiration, "number") || !(expiration > 0 && expiration <= MAX_EXPIRATION))
		fail("Expiration", `must be a number of seconds above 0, at most ${MAX_EXPIRATION}`, expiration);
	const shards = options.Shards ?? 1;
	if (!typeIs(shards, "number") || shards < 1 || shards % 1 !== 0)
		fail("Shards", "must be a positive integer", shards);
	return { prefix, expiration, shards };
}

/**
 * A backend on MemoryStoreService sorted maps, shared live by every server.
 *
 * - submit is one UpdateAsync whose transform applies the keep-best rule; the
 *   score is both the value and the sort key, so the map orders itself
 *   (descending boards read it Descending). A Reset board's period is its own
 *   map (MapPrefix .. "Kills@2026-12-06"), and its items live until the period
 *   ends plus the board's Retention (the write's Lifetime, 45 days at most).
 * - Sum boards add exactly once: the item's value is { Total, Writers }, the
 *   total also being the sort key, and Writers holds each recent server's last
 *   write id (WRITERS_KEPT of them). A write is in doubt from its start until
 *   it succeeds (one the Flusher gave up on stays in doubt); its retry (the
 *   sum merged with newer ones) subtracts what the item says already landed. The one gap: more than WRITERS_KEPT other servers writing
 *   the same key between a failed-but-landed write and its retry.
 * - sorted reads each shard's head with GetRangeAsync (200 a call at most,
 *   paging with exclusive bounds) and merges them into one ranked page.
 * - scores reads the chosen keys on their shards, in parallel.
 * - remove is RemoveAsync on the key's shard; around reads, on each shard, the
 *   rows on each side of the subject's place ({ key, sortKey = value }, an
 *   exclusive bound, so its ties rank as in sorted()), merged.
 * - budget: the experience quota is 1000 + 120 x all servers' users a minute,
 *   and no server can see the others, so this server claims the per-user term
 *   for its own players (120 x players, one player's worth at least, so a server
 *   whose players left can still drain); the base 1000 is left as the
 *   experience's headroom. The share is two buckets of one minute: reads get
 *   READ_SHARE of it (readBudget is what that bucket holds), writes the rest
 *   plus the read bucket's units above half of it. A range read costs what it
 *   returns, so reads spend after the fact and may leave their bucket in debt:
 *   sorted() is refused only while it is in debt, so a page dearer than the
 *   bucket (MaxEntries 200 on a one-player server) is still read, less often,
 *   and never from the writes' part; around() is refused while the bucket holds
 *   less than its cost (or half the bucket). A shard that answered
 *   PartitionRequestsOverLimit is left alone for a pause that doubles up to 60 s
 *   (writes to it fail without a request and stay queued), and the budget
 *   counts only the shards open now; TotalRequestsOverLimit empties both buckets.
 */
export function memoryStoreBackend(options: MemoryStoreOptions = {}): Backend {
	const { prefix, expiration, shards: shardCount } = optionsOf(options);
	const quota = new Quota(options.Players ?? Players, os.clock);
	const shards = new Shards(options.MemoryStoreService ?? MemoryStoreService, prefix, shardCount, quota);
	const ranges = new Ranges(shards, quota);
	const ledger = new Ledger();
	// Time is the attach's Clock, from each call's context (os.clock for a call made without one).
	const clocked = (call?: BackendCall) => {
		if (call) quota.clock = call.Clock;
	};

	// One UpdateAsync on the key's shard; a paused shard is not asked (the value waits in the queue).
	const update = (board: string, key: string, transform: Transform, lifetime: number): boolean => {
		const shard = shards.shardOf(key);
		if (shards.isPaused(shard)) return false;
		const map = shards.of(board)[shard] as unknown as Updatable & MemoryStoreSortedMap;
		quota.spendWrite();
		const [ok, result] = pcall(() => map.UpdateAsync(key, transform, lifetime));
		shards.outcome(shard, ok, result);
		if (!ok) error(result, 0);
		return true;
	};

	const sum = (board: string, key: string, value: number, lifetime: number, write?: PendingWrite) => {
		const [item, attempt] = ledger.begin(board, key, value, write);
		const sent = update(
			board,
			key,
			(old) => {
				const summed = item(old);
				if (!summed) return undefined;
				return $tuple(summed as unknown as number, summed.Total);
			},
			lifetime,
		);
		// Settled unless the Flusher gave up on it (its value is retried); later attempts stay in doubt.
		if (sent && write?.Superseded !== true) ledger.settle(board, key, attempt);
		return sent;
	};

	return {
		maxKeyLength: MAX_KEY_LENGTH,
		sums: true,

		submit: (board, key, value, keepBest, ascending, isSum, write) => {
			clocked(write);
			// A period's items live until the period ends plus the board's Retention (45 days at most).
			const lifetime =
				write?.Lifetime !== undefined ? math.clamp(math.ceil(write.Lifetime), 1, MAX_EXPIRATION) : expiration;
			// The rule as data on the write record; a call made the design document's way names it by its flags.
			const rule = write?.Rule ?? ruleOf(keepBest, ascending, isSum);
			if (rule.Kind === "Sum") return sum(board, key, value, lifetime, write);
			const updater = updaterFor(value, rule, write);
			return update(
				board,
				key,
				(old) => {
					const better = updater(typeIs(old, "number") ? old : undefined);
					if (better === undefined) return undefined;
					return $tuple(better, better);
				},
				lifetime,
			);
		},

		sorted: (board, ascending, count, call) => {
			clocked(call);
			if (count < 1) return [];
			// Refused while the read bucket is in debt: the Reader keeps its page and asks a window later.
			if (quota.readable() <= 0) return undefined;
			const [ok, rows] = pcall(() => ranges.top(board, ascending, count));
			return ok ? rows : undefined;
		},

		scores: (board, keys, call) => {
			clocked(call);
			const list = shards.of(board);
			const result = new Map<string, number>();
			let pending = keys.size();
			let failed = false;
			quota.spendRead(keys.size());
			for (const key of keys) {
				task.spawn(() => {
					const shard = shards.shardOf(key);
					const [ok, message] = pcall(() => {
						const [value, sortKey] = list[shard].GetAsync(key);
						if (value !== undefined)
							result.set(key, typeIs(sortKey, "number") ? sortKey : (value as number));
					});
					shards.outcome(shard, ok, message);
					if (!ok) failed = true;
					pending -= 1;
				});
			}
			while (pending > 0) task.wait();
			return failed ? undefined : result;
		},

		remove: (board, key, call) => {
			clocked(call);
			const shard = shards.shardOf(key);
			if (shards.isPaused(shard)) return false;
			quota.spendWrite();
			const [ok, message] = pcall(() => shards.of(board)[shard].RemoveAsync(key));
			shards.outcome(shard, ok, message);
			if (!ok) error(message, 0);
			return true;
		},

		around: (board, ascending, value, count, key, call) => {
			clocked(call);
			const size = math.clamp(count, 1, RANGE_SIZE);
			// A unit per item returned, at most 2 x size a shard: refused, not sent, while the read
			// bucket holds less (or less than half of it, for a dearer call: it then goes into debt,
			// and top() goes first, needing only a bucket out of debt).
			const cost = 2 * size * shardCount;
			const whole = quota.share();
			if (quota.readable(whole) < math.min(cost, (whole * READ_SHARE) / 2)) return undefined;
			const [ok, range] = pcall(() => ranges.around(board, ascending, value, size, key));
			return ok ? range : undefined;
		},

		budget: (call) => {
			clocked(call);
			return (math.floor(quota.writable()) * shards.open()) / shardCount;
		},

		readBudget: (call) => {
			clocked(call);
			return math.max(0, math.floor(quota.readable()));
		},
	};
}

/** Luau and TypeScript users reach the backend as Leaderboards.MemoryStore.backend(options). */
export const MemoryStore = { backend: memoryStoreBackend } as const;
