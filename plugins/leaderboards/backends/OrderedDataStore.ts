import { Backend, BackendRange, BackendRow } from "../types";

/** DataStore keys and store names: 50 characters at most. */
export const MAX_KEY_LENGTH = 50;
/** GetSortedAsync pages hold at most 100 rows; BatchGetAsync takes at most 100 keys. */
export const PAGE_SIZE = 100;

/** OrderedList requests around() spends (two value-bounded GetSortedAsync pages)... */
export const AROUND_COST = 2;
/** ...and leaves for the top page: around() is refused below AROUND_COST + AROUND_RESERVE. */
export const AROUND_RESERVE = 1;

type SortedRow = { key: string; value: number };

/** What the default backend needs of DataStoreService (a spec may hand it another). */
export interface OrderedStores {
	GetOrderedDataStore(name: string): OrderedDataStore;
	GetRequestBudgetForRequestType(requestType: Enum.DataStoreRequestType): number;
}

// BatchGetAsync (added 2026-07) is not in @rbxts/types yet.
type BatchGet = (this: OrderedDataStore, keys: string[]) => Map<string, { value: number }>;

// Up to `count` rows, best first, paging GetSortedAsync; undefined when a page read failed.
function sortedRows(store: OrderedDataStore, ascending: boolean, count: number): BackendRow[] | undefined {
	const [ok, rows] = pcall(() => {
		const result = new Array<BackendRow>();
		const pages = store.GetSortedAsync(ascending, math.min(count, PAGE_SIZE));
		for (;;) {
			for (const row of pages.GetCurrentPage() as unknown as SortedRow[]) {
				if (result.size() < count) result.push({ Key: row.key, Value: row.value });
			}
			if (result.size() >= count || pages.IsFinished) return result;
			pages.AdvanceToNextPageAsync();
		}
	});
	return ok ? rows : undefined;
}

// Stored values of keys with BatchGetAsync; undefined when a chunk failed.
function batchScores(store: OrderedDataStore, keys: string[], readBudget: () => number) {
	const batched = store as unknown as { BatchGetAsync: BatchGet } & OrderedDataStore;
	const result = new Map<string, number>();
	for (let start = 0; start < keys.size();) {
		// A chunk of N keys spends N OrderedRead requests at once: never more than the budget holds now,
		// or it waits in the throttle queue for a refill it may never get (the budget holds one minute).
		const size = math.clamp(readBudget(), 1, PAGE_SIZE);
		const chunk = new Array<string>();
		for (let i = start; i < math.min(start + size, keys.size()); i++) chunk.push(keys[i]);
		start += size;
		const [ok, found] = pcall(() => batched.BatchGetAsync(chunk));
		if (!ok) return undefined;
		for (const [key, entry] of found) result.set(key, entry.value);
	}
	return result;
}

// The rows nearest a value on each side, by GetSortedAsync's value bounds; undefined when a read failed.
function rowsAround(store: OrderedDataStore, ascending: boolean, value: number, count: number) {
	const [ok, range] = pcall((): BackendRange => {
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
	});
	return ok ? range : undefined;
}

/**
 * The default backend: one OrderedDataStore per storage name, named StorePrefix
 * .. store ("CKBoard_Kills", "CKBoard_Kills@2026-12-06" for a Reset board's day).
 * set is UpdateAsync (which spends both the OrderedRead and the OrderedWrite
 * budget), sorted pages GetSortedAsync, scores is BatchGetAsync in chunks of
 * 100 (fewer when the OrderedRead budget holds fewer now), readBudget is the
 * OrderedRead budget, and budget is the smaller of the two ordered request
 * budgets. remove is RemoveAsync (OrderedRemove); around reads the rows nearest
 * a value with GetSortedAsync's value bounds (OrderedList, the scarcest budget:
 * 5 + 2 x players a minute), and is refused rather than throttled when it is short.
 *
 * Sum boards add in UpdateAsync, atomically, at least once: an ordered store
 * holds a bare integer (no version, no metadata), so a write that failed but
 * landed cannot be told from one that did not, and its retry adds again.
 * Keep-best and keep-newest retries are harmless (they write the same value).
 */
export function orderedDataStoreBackend(storePrefix: string, stores: OrderedStores): Backend {
	const opened = new Map<string, OrderedDataStore>();
	const storeOf = (name: string) => {
		let store = opened.get(name);
		if (!store) {
			store = stores.GetOrderedDataStore(storePrefix + name);
			opened.set(name, store);
		}
		return store;
	};
	const budgetOf = (kind: Enum.DataStoreRequestType) => stores.GetRequestBudgetForRequestType(kind);
	const readBudget = () => budgetOf(Enum.DataStoreRequestType.OrderedRead);

	return {
		// Every OrderedDataStore backend spends the server's one set of ordered budgets.
		kind: "OrderedDataStore",
		integers: true,
		maxKeyLength: MAX_KEY_LENGTH,
		// Store names are keys too: StorePrefix .. store within 50 characters.
		refuseName: (name) => {
			const full = storePrefix + name;
			if (full.size() > MAX_KEY_LENGTH)
				return `makes a store name over ${MAX_KEY_LENGTH} characters (got "${full}")`;
			return undefined;
		},
		set: (name, key, updater) => {
			storeOf(name).UpdateAsync(key, updater);
			return true;
		},
		sorted: (name, ascending, count) => {
			// Refused, not queued behind the throttle for a refill: the Reader serves its page (or {}) at once.
			if (budgetOf(Enum.DataStoreRequestType.OrderedList) < math.ceil(count / PAGE_SIZE)) return undefined;
			return sortedRows(storeOf(name), ascending, count);
		},
		scores: (name, keys) => batchScores(storeOf(name), keys, readBudget),
		readBudget,
		remove: (name, key) => {
			// Refused, not queued behind the throttle: the Flusher retries it next window.
			if (budgetOf(Enum.DataStoreRequestType.OrderedRemove) < 1) return false;
			storeOf(name).RemoveAsync(key);
			return true;
		},
		around: (name, ascending, value, count) => {
			if (budgetOf(Enum.DataStoreRequestType.OrderedList) < AROUND_COST + AROUND_RESERVE) return undefined;
			return rowsAround(storeOf(name), ascending, value, count);
		},
		budget: () => math.min(readBudget(), budgetOf(Enum.DataStoreRequestType.OrderedWrite)),
	};
}
