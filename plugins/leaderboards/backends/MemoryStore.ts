import { MemoryStoreService, Players } from "@rbxts/services";
import { Backend } from "../contracts";
import { DEFAULT_PREFIX } from "../core";
import { Ledger } from "./memory/ledger";
import { MAX_EXPIRATION, MemoryParts } from "./memory/parts";
import { Quota } from "./memory/quota";
import { Ranges } from "./memory/range";
import { memoryReads } from "./memory/reads";
import { Shards } from "./memory/shards";
import { memoryWrites } from "./memory/writes";

export { MAX_EXPIRATION } from "./memory/parts";

// Engine facts, from the Roblox creator documentation (cloud-services/memory-stores
// "Limits and quotas", memory-stores/sorted-map, memory-stores/per-partition-limits,
// memory-stores/best-practices "Sharding", and the MemoryStoreSortedMap reference).

/** Sorted map keys: 128 characters at most. */
export const MAX_KEY_LENGTH = 128;

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

function fail(field: string, problem: string, value: unknown): never {
	error(`MemoryStore.backend: ${field} ${problem} (got ${tostring(value)})`, 4);
}

// The options checked, with their defaults.
function optionsOf(options: MemoryStoreOptions) {
	if (!typeIs(options, "table")) fail("options", "must be a table", options);
	const prefix = options.MapPrefix ?? DEFAULT_PREFIX;
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
 *   The share is the backend table's: give every MemoryStore board the same one
 *   (a second backend claims the share again).
 */
export function memoryStoreBackend(options: MemoryStoreOptions = {}): Backend {
	const { prefix, expiration, shards: count } = optionsOf(options);
	const quota = new Quota(options.Players ?? Players, os.clock);
	const shards = new Shards(options.MemoryStoreService ?? MemoryStoreService, prefix, count, quota);
	const parts: MemoryParts = { quota, shards, ranges: new Ranges(shards, quota), ledger: new Ledger(), expiration };
	return {
		maxKeyLength: MAX_KEY_LENGTH,
		sums: true,
		sharePages: true,
		layout: { Backend: "MemoryStore", Prefix: prefix, Shards: count },
		...memoryWrites(parts),
		...memoryReads(parts),
	};
}

/** Luau and TypeScript users reach the backend as Leaderboards.MemoryStore.backend(options). */
export const MemoryStore = { backend: memoryStoreBackend } as const;
