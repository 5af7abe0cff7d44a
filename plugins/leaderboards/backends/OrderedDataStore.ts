import { Players as PlayersService } from "@rbxts/services";
import { Backend, BackendCall, BackendRange, BackendRow, CONTRACT } from "../contracts";
import { OrderedBudgets, OrderedStores } from "./ordered/budgets";
import { ExperienceShare, RequestKind } from "./ordered/share";

export { OrderedStores } from "./ordered/budgets";

/** DataStore keys and store names: 50 characters at most. */
export const MAX_KEY_LENGTH = 50;
/** GetSortedAsync pages hold at most 100 rows; BatchGetAsync takes at most 100 keys. */
export const PAGE_SIZE = CONTRACT.PageSize;

/** OrderedList requests around() spends (two value-bounded GetSortedAsync pages)... */
export const AROUND_COST = 2;
/** ...and leaves for the top page: around() is refused below AROUND_COST + AROUND_RESERVE. */
export const AROUND_RESERVE = 1;

type SortedRow = { key: string; value: number };

// BatchGetAsync (added 2026-07) is not in @rbxts/types yet.
type BatchGet = (this: OrderedDataStore, keys: string[]) => Map<string, { value: number }>;

// Up to `count` rows, best first, paging GetSortedAsync (a list request a page, paid before it
// is sent); undefined when a page read failed.
function sortedRows(
	budgets: OrderedBudgets,
	store: OrderedDataStore,
	ascending: boolean,
	count: number,
	lists: RequestKind,
) {
	const [ok, rows] = pcall(() => {
		const result = new Array<BackendRow>();
		budgets.spend(lists);
		const pages = budgets.send(() => store.GetSortedAsync(ascending, math.min(count, PAGE_SIZE)));
		for (;;) {
			for (const row of pages.GetCurrentPage() as unknown as SortedRow[]) {
				if (result.size() < count) result.push({ Key: row.key, Value: row.value });
			}
			if (result.size() >= count || pages.IsFinished) return result;
			budgets.spend(lists);
			budgets.send(() => pages.AdvanceToNextPageAsync());
		}
	});
	return ok ? rows : undefined;
}

// Stored values of keys with BatchGetAsync; undefined when a chunk failed.
function batchScores(budgets: OrderedBudgets, store: OrderedDataStore, keys: string[]) {
	const batched = store as unknown as { BatchGetAsync: BatchGet } & OrderedDataStore;
	const result = new Map<string, number>();
	for (let start = 0; start < keys.size();) {
		// A chunk of N keys spends N OrderedRead requests at once: never more than both levels hold now,
		// or it waits in the throttle queue for a refill it may never get (the budget holds one minute).
		const size = math.clamp(budgets.available("Read"), 1, PAGE_SIZE);
		const chunk = new Array<string>();
		for (let i = start; i < math.min(start + size, keys.size()); i++) chunk.push(keys[i]);
		start += size;
		budgets.spend("Read", chunk.size());
		const [ok, found] = pcall(() => budgets.send(() => batched.BatchGetAsync(chunk)));
		if (!ok) return undefined;
		for (const [key, entry] of found) result.set(key, entry.value);
	}
	return result;
}

// The rows nearest a value on each side, by GetSortedAsync's value bounds; undefined when a read failed.
function rowsAround(
	budgets: OrderedBudgets,
	store: OrderedDataStore,
	ascending: boolean,
	value: number,
	count: number,
) {
	budgets.spend("List", AROUND_COST);
	const [ok, range] = pcall((): BackendRange =>
		budgets.send(() => {
			const size = math.min(count, PAGE_SIZE - 1);
			// Values are integers: "strictly better" is one step past the value.
			const ahead = ascending
				? store.GetSortedAsync(false, size, undefined, value - 1)
				: store.GetSortedAsync(true, size, value + 1);
			const behind = ascending
				? store.GetSortedAsync(true, size + 1, value)
				: store.GetSortedAsync(false, size + 1, undefined, value);
			const rowsOf = (pages: DataStorePages, limit: number) => {
				const rows = new Array<BackendRow>();
				for (const row of pages.GetCurrentPage() as unknown as SortedRow[])
					if (rows.size() < limit) rows.push({ Key: row.key, Value: row.value });
				return rows;
			};
			return { Ahead: rowsOf(ahead, size), Behind: rowsOf(behind, size + 1) };
		}),
	);
	return ok ? range : undefined;
}

// Each store opened once, by its name without the prefix.
function opener(stores: OrderedStores, storePrefix: string) {
	const opened = new Map<string, OrderedDataStore>();
	return (name: string) => {
		let store = opened.get(name);
		if (!store) {
			store = stores.GetOrderedDataStore(storePrefix + name);
			opened.set(name, store);
		}
		return store;
	};
}

// Store names are keys too: StorePrefix .. store within 50 characters.
function refuseStoreName(full: string): string | undefined {
	if (full.size() > MAX_KEY_LENGTH) return `makes a store name over ${MAX_KEY_LENGTH} characters (got "${full}")`;
	return undefined;
}

/**
 * The default backend: one OrderedDataStore per storage name, named StorePrefix
 * .. store ("CKBoard_Kills", "CKBoard_Kills@2026-12-06" for a Reset board's day).
 * set is UpdateAsync (which spends both an OrderedRead and an OrderedWrite
 * request), sorted pages GetSortedAsync (OrderedList), scores is BatchGetAsync
 * in chunks of 100 (fewer when fewer reads are left: N keys spend N reads),
 * remove is RemoveAsync (OrderedRemove), and around reads the rows nearest a
 * value with two value-bounded GetSortedAsync pages.
 *
 * Every request fits two budgets (ordered/budgets.ts): the server's own
 * (GetRequestBudgetForRequestType) and this server's share of the experience's
 * (ordered/share.ts: 90% of the experience's per-user rate for each of its
 * players), so any number of servers of any size stay within the experience's
 * budget together. budget() and readBudget() report what both allow; a read
 * or a removal neither allows is refused, never queued behind the throttle; an
 * experience-throttled error (an Open Cloud tool spending the same budget)
 * halves the share, which grows back over minutes. A shared page's refresh
 * (call.Shared) lists from the share's base part instead of the players'.
 *
 * Sum boards add in UpdateAsync, atomically, at least once: an ordered store
 * holds a bare integer (no version, no metadata), so a write that failed but
 * landed cannot be told from one that did not, and its retry adds again.
 * Keep-best and keep-newest retries are harmless (they write the same value).
 */
export function orderedDataStoreBackend(
	storePrefix: string,
	stores: OrderedStores,
	players: Players = PlayersService,
): Backend {
	const storeOf = opener(stores, storePrefix);
	const share = new ExperienceShare(() => players.GetPlayers().size(), os.clock);
	const budgets = new OrderedBudgets(stores, share);
	// Time is the attach's Clock, from each call's context (os.clock for a call made without one).
	const clocked = (call?: BackendCall) => {
		if (call) share.clock = call.Clock;
	};

	return {
		// Every OrderedDataStore backend spends the server's one set of ordered budgets.
		kind: "OrderedDataStore",
		sharePages: true,
		layout: { Backend: "OrderedDataStore", Prefix: storePrefix },
		integers: true,
		maxKeyLength: MAX_KEY_LENGTH,
		refuseName: (name) => refuseStoreName(storePrefix + name),
		set: (name, key, updater, write) => {
			clocked(write);
			budgets.spend("Read");
			budgets.spend("Write");
			budgets.send(() => storeOf(name).UpdateAsync(key, updater));
			return true;
		},
		sorted: (name, ascending, count, call) => {
			clocked(call);
			// Refused, not queued behind the throttle for a refill: the Reader serves its page (or {}) at once.
			const lists = call?.Shared ? "Refresh" : "List";
			if (!budgets.allows(lists, math.ceil(count / PAGE_SIZE))) return undefined;
			return sortedRows(budgets, storeOf(name), ascending, count, lists);
		},
		scores: (name, keys, call) => {
			clocked(call);
			return batchScores(budgets, storeOf(name), keys);
		},
		readBudget: (call) => {
			clocked(call);
			return budgets.available("Read");
		},
		remove: (name, key, call) => {
			clocked(call);
			// Refused, not queued behind the throttle: the Flusher retries it next window.
			if (!budgets.allows("Remove", 1)) return false;
			budgets.spend("Remove");
			budgets.send(() => storeOf(name).RemoveAsync(key));
			return true;
		},
		removeBudget: (call) => {
			clocked(call);
			return budgets.available("Remove");
		},
		around: (name, ascending, value, count, _, call) => {
			clocked(call);
			if (!budgets.allows("List", AROUND_COST, AROUND_RESERVE)) return undefined;
			return rowsAround(budgets, storeOf(name), ascending, value, count);
		},
		budget: (call) => {
			clocked(call);
			return math.min(budgets.available("Read"), budgets.available("Write"));
		},
		budgetRate: (call) => {
			clocked(call);
			return math.min(budgets.rate("Read"), budgets.rate("Write"));
		},
	};
}
