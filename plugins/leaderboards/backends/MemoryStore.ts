import { HttpService, MemoryStoreService, Players } from "@rbxts/services";
import { Backend, BackendRange, BackendRow, sumOf, updaterFor } from "../types";

// Engine facts, from the Roblox creator documentation (cloud-services/memory-stores
// "Limits and quotas", memory-stores/sorted-map, memory-stores/per-partition-limits,
// memory-stores/best-practices "Sharding", and the MemoryStoreSortedMap reference).

/** Sorted map keys: 128 characters at most. */
export const MAX_KEY_LENGTH = 128;
/** The longest an item may live, and the default: 3,888,000 s (45 days). */
export const MAX_EXPIRATION = 3_888_000;
/** GetRangeAsync returns at most 200 items a call. */
export const RANGE_SIZE = 200;
/** What each user adds to the experience's request-unit quota a minute (1000 + 120 x users). */
export const UNITS_PER_USER = 120;
/**
 * The part of this server's share kept for reads (top, scores, around); writes have the rest.
 * Writes also take the read bucket's units above half of it, so a server that reads little writes
 * at its whole share, and one whose reads cost more than their part never starves its writes.
 */
export const READ_SHARE = 0.5;
/** The longest a shard that answered over its partition's limit is left alone. */
export const MAX_SHARD_PAUSE = 60;
/** Servers a sum item remembers the last write of (newest first): the exactly-once ledger's bound. */
export const WRITERS_KEPT = 32;

/** A Sum board's item: the total (also the sort key) and the last write id of each recent server. */
interface SumItem {
	Total: number;
	Writers: Array<[server: string, write: string]>;
}

/**
 * A sum write's transform, pure: adds delta to the stored total, minus what an
 * earlier attempt of the same value already added. `doubted` holds this
 * server's attempts whose outcome is unknown (failed, perhaps landed), oldest
 * first, each carrying all before it (a failed sum goes back merged into the
 * next); the item says which of them landed last, so only the rest is added.
 * Write ids grow on each server: an attempt that lands after a later one of the
 * same server (it outlived its RequestSeconds) is already in that later one, so
 * it writes nothing (undefined).
 */
export function sumItem(
	old: unknown,
	delta: number,
	doubted: ReadonlyArray<[write: string, delta: number]>,
	server: string,
	write: string,
): SumItem | undefined {
	const item = typeIs(old, "table") ? (old as SumItem) : undefined;
	const total = item ? item.Total : typeIs(old, "number") ? old : 0;
	const writers = item?.Writers ?? [];
	let last: string | undefined;
	for (const [who, id] of writers) if (who === server) last = id;
	if (last !== undefined && (tonumber(last) ?? 0) > (tonumber(write) ?? 0)) return undefined;
	let counted = 0;
	for (const [id, carried] of doubted) if (id === last) counted = carried;
	const kept: Array<[string, string]> = [[server, write]];
	for (const entry of writers) if (entry[0] !== server && kept.size() < WRITERS_KEPT) kept.push(entry);
	return { Total: sumOf(total, delta - counted), Writers: kept };
}

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
type Bound = { key?: string; sortKey?: number | string };
type Item = { key: string; value: unknown; sortKey?: number | string };

// A stable string hash (djb2), the same on every server: which shard a key lives on.
function shardOf(key: string, shards: number): number {
	let hash = 5381;
	for (let i = 1; i <= key.size(); i++) hash = (hash * 33 + string.byte(key, i)[0]) % 4_294_967_296;
	return hash % shards;
}

function fail(field: string, problem: string, value: unknown): never {
	error(`MemoryStore.backend: ${field} ${problem} (got ${tostring(value)})`, 3);
}

// The engine's order on a board: by score, ties by key; descending reverses both.
function ranksBefore(a: Item, b: Item, ascending: boolean): boolean {
	return scoreOf(a) !== scoreOf(b) ? ascending === scoreOf(a) < scoreOf(b) : ascending === a.key < b.key;
}

function scoreOf(item: { value: unknown; sortKey?: number | string }): number {
	return typeIs(item.sortKey, "number") ? item.sortKey : (item.value as number);
}

function statusOf(message: unknown): string | undefined {
	return typeIs(message, "string") ? (message.match("^(%w+):")[0] as string | undefined) : undefined;
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
	if (!typeIs(options, "table")) fail("options", "must be a table", options);
	const prefix = options.MapPrefix ?? "CKBoard_";
	if (!typeIs(prefix, "string")) fail("MapPrefix", "must be a string", prefix);
	const expiration = options.Expiration ?? MAX_EXPIRATION;
	if (!typeIs(expiration, "number") || !(expiration > 0 && expiration <= MAX_EXPIRATION))
		fail("Expiration", `must be a number of seconds above 0, at most ${MAX_EXPIRATION}`, expiration);
	const shards = options.Shards ?? 1;
	if (!typeIs(shards, "number") || shards < 1 || shards % 1 !== 0)
		fail("Shards", "must be a positive integer", shards);
	const service = options.MemoryStoreService ?? MemoryStoreService;
	const players = options.Players ?? Players;

	// This backend's name in sum items' ledgers, its write counter, and its sum
	// attempts in doubt per map and key (from their start; cleared by a success
	// the Flusher did not give up on, or a fresh value).
	const server = HttpService.GenerateGUID(false);
	let writes = 0;
	const doubts = new Map<string, Map<string, Array<[string, number]>>>();

	const maps = new Map<string, MemoryStoreSortedMap[]>();
	const mapsOf = (board: string) => {
		let list = maps.get(board);
		if (!list) {
			list = [];
			for (let i = 1; i <= shards; i++)
				list.push(service.GetSortedMap(shards === 1 ? prefix + board : `${prefix}${board}.${i}/${shards}`));
			maps.set(board, list);
		}
		return list;
	};

	// This server's share of the quota a minute, as two buckets of a minute each (reads and
	// writes), and the shards paused after a partition refusal.
	const share = () => UNITS_PER_USER * math.max(1, players.GetPlayers().size());
	type Bucket = { tokens?: number; updated: number; part: number };
	const readUnits: Bucket = { updated: os.clock(), part: READ_SHARE };
	const writeUnits: Bucket = { updated: os.clock(), part: 1 - READ_SHARE };
	const level = (bucket: Bucket, whole = share()) => {
		const size = whole * bucket.part;
		const now = os.clock();
		bucket.tokens = math.min(size, (bucket.tokens ?? size) + ((now - bucket.updated) * size) / 60);
		bucket.updated = now;
		return bucket.tokens;
	};
	// Writes spend their own bucket, then the read bucket's units above half of it.
	const writable = () => {
		const whole = share();
		return math.max(0, level(writeUnits, whole)) + math.max(0, level(readUnits, whole) - (whole * READ_SHARE) / 2);
	};
	const spendWrite = () => {
		if (level(writeUnits) >= 1) writeUnits.tokens! -= 1;
		else readUnits.tokens = level(readUnits) - 1;
	};
	// Reads spend after the fact (a range read costs what it returns): the read bucket may go into
	// debt, which only delays later reads, so a page dearer than the whole bucket is still read.
	const spendRead = (units: number) => {
		readUnits.tokens = level(readUnits) - units;
	};
	const pausedUntil = new Array<number>(shards, 0);
	const pauseOf = new Array<number>(shards, 0);
	let paused = 0;
	// Every call's outcome on a shard: refusals pause it or empty the buckets, success reopens it.
	const outcome = (shard: number, ok: boolean, message?: unknown) => {
		const status = ok ? undefined : statusOf(message);
		if (status === "PartitionRequestsOverLimit" || status === "DataStructureRequestsOverLimit") {
			pauseOf[shard] = math.min(MAX_SHARD_PAUSE, pauseOf[shard] === 0 ? 1 : pauseOf[shard] * 2);
			if (pausedUntil[shard] <= os.clock()) paused += 1;
			pausedUntil[shard] = os.clock() + pauseOf[shard];
		} else if (status === "TotalRequestsOverLimit" || status === "RequestThrottled") {
			writeUnits.tokens = math.min(level(writeUnits), 0);
			readUnits.tokens = math.min(level(readUnits), 0);
		} else if (ok) {
			pauseOf[shard] = 0;
		}
	};
	const openShards = () => {
		if (paused === 0) return shards;
		const now = os.clock();
		paused = 0;
		for (const resumes of pausedUntil) if (resumes > now) paused += 1;
		return shards - paused;
	};

	// One shard's items in board order, a page at a time.
	const cursor = (map: MemoryStoreSortedMap, shard: number, ascending: boolean, page: number) => {
		const direction = ascending ? Enum.SortDirection.Ascending : Enum.SortDirection.Descending;
		let buffer = new Array<{ key: string; value: unknown; sortKey?: number | string }>();
		let position = 0;
		let finished = false;
		let bound: Bound | undefined;
		return {
			/** The head item, reading the next page when needed; undefined when the shard is done. */
			head() {
				if (position < buffer.size()) return buffer[position];
				if (finished) return undefined;
				const [ok, items] = pcall(() =>
					ascending
						? map.GetRangeAsync(direction, page, bound)
						: map.GetRangeAsync(direction, page, undefined, bound),
				);
				outcome(shard, ok, items);
				if (!ok) error(items, 0);
				spendRead(math.max(1, items.size()));
				buffer = items;
				position = 0;
				finished = items.size() < page;
				if (items.size() > 0) {
					const last = items[items.size() - 1];
					bound = { key: last.key, sortKey: last.sortKey };
				}
				return position < buffer.size() ? buffer[position] : undefined;
			},
			advance() {
				position += 1;
			},
		};
	};

	return {
		maxKeyLength: MAX_KEY_LENGTH,
		sums: true,

		submit: (board, key, value, keepBest, ascending, sum, write) => {
			const shard = shardOf(key, shards);
			// A paused shard is not asked: the value waits in the queue for a later window.
			if (pausedUntil[shard] > os.clock()) return false;
			const map = mapsOf(board)[shard] as unknown as Updatable & MemoryStoreSortedMap;
			// A period's items live until the period ends plus the board's Retention (45 days at most).
			const lifetime =
				write?.Lifetime !== undefined ? math.clamp(math.ceil(write.Lifetime), 1, MAX_EXPIRATION) : expiration;
			let transform: Transform;
			let attempt: [string, number] | undefined;
			let inDoubt: Map<string, Array<[string, number]>> | undefined;
			if (sum) {
				inDoubt = doubts.get(board) ?? new Map();
				doubts.set(board, inDoubt);
				// No earlier attempt is part of a fresh value (one a failure never went back into).
				if (write === undefined || write.Failures === 0) inDoubt.delete(key);
				const doubted = inDoubt.get(key) ?? [];
				writes += 1;
				attempt = [`${writes}`, value];
				const id = attempt[0];
				// In doubt from the start: one the Flusher gives up on may land after a later attempt began.
				inDoubt.set(key, [...doubted, attempt]);
				transform = (old) => {
					const item = sumItem(old, value, doubted, server, id);
					if (!item) return undefined;
					return $tuple(item as unknown as number, item.Total);
				};
			} else {
				const updater = updaterFor(value, keepBest, ascending, false, write);
				transform = (old) => {
					const better = updater(typeIs(old, "number") ? old : undefined);
					if (better === undefined) return undefined;
					return $tuple(better, better);
				};
			}
			spendWrite();
			const [ok, result] = pcall(() => map.UpdateAsync(key, transform, lifetime));
			outcome(shard, ok, result);
			// Settled, unless the Flusher gave up on it (its value is retried): it
			// carried every earlier attempt; later ones stay in doubt.
			if (inDoubt && ok && write?.Superseded !== true) {
				const mine = tonumber(attempt![0])!;
				const later = (inDoubt.get(key) ?? []).filter(([id]) => tonumber(id)! > mine);
				if (later.isEmpty()) inDoubt.delete(key);
				else inDoubt.set(key, later);
				if (inDoubt.isEmpty()) doubts.delete(board);
			}
			if (!ok) error(result, 0);
			return true;
		},

		sorted: (board, ascending, count) => {
			if (count < 1) return [];
			// Refused while the read bucket is in debt: the Reader keeps its page and asks a window later.
			if (level(readUnits) <= 0) return undefined;
			const list = mapsOf(board);
			// Each shard holds about count / shards of the head: read a little more than that a page.
			const page = math.min(RANGE_SIZE, count, math.max(10, math.ceil((2 * count) / shards)));
			const [ok, rows] = pcall(() => {
				const cursors = list.map((map, shard) => cursor(map, shard, ascending, page));
				const result = new Array<BackendRow>();
				while (result.size() < count) {
					let best: Item | undefined;
					let from: ReturnType<typeof cursor> | undefined;
					for (const c of cursors) {
						const item = c.head();
						if (!item) continue;
						if (!best || ranksBefore(item, best, ascending)) {
							best = item;
							from = c;
						}
					}
					if (!best) break;
					from!.advance();
					result.push({ Key: best.key, Value: scoreOf(best) });
				}
				return result;
			});
			return ok ? rows : undefined;
		},

		scores: (board, keys) => {
			const list = mapsOf(board);
			const result = new Map<string, number>();
			let pending = keys.size();
			let failed = false;
			spendRead(keys.size());
			for (const key of keys) {
				task.spawn(() => {
					const shard = shardOf(key, shards);
					const [ok, message] = pcall(() => {
						const [value, sortKey] = list[shard].GetAsync(key);
						if (value !== undefined)
							result.set(key, typeIs(sortKey, "number") ? sortKey : (value as number));
					});
					outcome(shard, ok, message);
					if (!ok) failed = true;
					pending -= 1;
				});
			}
			while (pending > 0) task.wait();
			return failed ? undefined : result;
		},

		remove: (board, key) => {
			const shard = shardOf(key, shards);
			if (pausedUntil[shard] > os.clock()) return false;
			spendWrite();
			const [ok, message] = pcall(() => mapsOf(board)[shard].RemoveAsync(key));
			outcome(shard, ok, message);
			if (!ok) error(message, 0);
			return true;
		},

		// Range bounds at the subject's place (its score, then its key): each shard's rows nearest
		// it on each side, merged, so ties rank as in sorted() and none is skipped or repeated.
		around: (board, ascending, value, count, key) => {
			const list = mapsOf(board);
			const size = math.clamp(count, 1, RANGE_SIZE);
			// A unit per item returned, at most 2 x size a shard: refused, not sent, while the read
			// bucket holds less (or less than half of it, for a dearer call: it then goes into debt,
			// and top() goes first, needing only a bucket out of debt).
			const cost = 2 * size * list.size();
			const whole = share();
			if (level(readUnits, whole) < math.min(cost, (whole * READ_SHARE) / 2)) return undefined;
			const place = { key, sortKey: value };
			const [ok, range] = pcall((): BackendRange => {
				const ahead = new Array<Item>();
				const behind = new Array<Item>();
				// The board's direction reads past the place (behind); the other reads before it (ahead).
				const forward = ascending ? Enum.SortDirection.Ascending : Enum.SortDirection.Descending;
				const backward = ascending ? Enum.SortDirection.Descending : Enum.SortDirection.Ascending;
				list.forEach((map, shard) => {
					const read = (direction: Enum.SortDirection, into: Item[]) => {
						const up = direction === Enum.SortDirection.Ascending;
						const [done, items] = pcall(() =>
							up
								? map.GetRangeAsync(direction, size, place)
								: map.GetRangeAsync(direction, size, undefined, place),
						);
						outcome(shard, done, items);
						if (!done) error(items, 0);
						spendRead(math.max(1, items.size()));
						for (const item of items as Item[]) into.push(item);
					};
					read(backward, ahead);
					read(forward, behind);
				});
				ahead.sort((a, b) => ranksBefore(b, a, ascending));
				behind.sort((a, b) => ranksBefore(a, b, ascending));
				const rowsOf = (items: Item[]) => {
					const rows = new Array<BackendRow>();
					for (const item of items)
						if (rows.size() < size) rows.push({ Key: item.key, Value: scoreOf(item) });
					return rows;
				};
				return { Ahead: rowsOf(ahead), Behind: rowsOf(behind) };
			});
			return ok ? range : undefined;
		},

		budget: () => (math.floor(writable()) * openShards()) / shards,

		readBudget: () => math.max(0, math.floor(level(readUnits))),
	};
}

/** Luau and TypeScript users reach the backend as Leaderboards.MemoryStore.backend(options). */
export const MemoryStore = { backend: memoryStoreBackend } as const;
