import { Backend, BackendRow } from "../types";

/** DataStore keys and store names: 50 characters at most. */
export const MAX_KEY_LENGTH = 50;
/** GetSortedAsync pages hold at most 100 rows; BatchGetAsync takes at most 100 keys. */
export const PAGE_SIZE = 100;

/** What the default backend needs of DataStoreService (a spec may hand it another). */
export interface OrderedStores {
	GetOrderedDataStore(name: string): OrderedDataStore;
	GetRequestBudgetForRequestType(requestType: Enum.DataStoreRequestType): number;
}

// BatchGetAsync (added 2026-07) is not in @rbxts/types yet.
type BatchGet = (this: OrderedDataStore, keys: string[]) => Map<string, { value: number }>;

/**
 * The default backend: one OrderedDataStore per storage name, named StorePrefix
 * .. store ("CKBoard_Kills", "CKBoard_Kills@2026-12-06" for a Reset board's day).
 * set is UpdateAsync (which spends both the OrderedRead and the OrderedWrite
 * budget), sorted pages GetSortedAsync, scores is BatchGetAsync in chunks of
 * 100 (fewer when the OrderedRead budget holds fewer now), readBudget is the
 * OrderedRead budget, and budget is the smaller of the two ordered request budgets.
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

	const readBudget = () => stores.GetRequestBudgetForRequestType(Enum.DataStoreRequestType.OrderedRead);

	return {
		integers: true,
		maxKeyLength: MAX_KEY_LENGTH,

		set: (name, key, updater) => {
			storeOf(name).UpdateAsync(key, updater);
			return true;
		},

		sorted: (name, ascending, count) => {
			const [ok, rows] = pcall(() => {
				const result = new Array<BackendRow>();
				const pages = storeOf(name).GetSortedAsync(ascending, math.min(count, PAGE_SIZE));
				for (;;) {
					for (const row of pages.GetCurrentPage() as unknown as { key: string; value: number }[]) {
						if (result.size() < count) result.push({ Key: row.key, Value: row.value });
					}
					if (result.size() >= count || pages.IsFinished) return result;
					pages.AdvanceToNextPageAsync();
				}
			});
			return ok ? rows : undefined;
		},

		scores: (name, keys) => {
			const store = storeOf(name) as unknown as { BatchGetAsync: BatchGet } & OrderedDataStore;
			const result = new Map<string, number>();
			for (let start = 0; start < keys.size();) {
				// A chunk of N keys spends N OrderedRead requests at once: never more than the budget holds now,
				// or it waits in the throttle queue for a refill it may never get (the budget holds one minute).
				const size = math.clamp(readBudget(), 1, PAGE_SIZE);
				const chunk = new Array<string>();
				for (let i = start; i < math.min(start + size, keys.size()); i++) chunk.push(keys[i]);
				start += size;
				const [ok, found] = pcall(() => store.BatchGetAsync(chunk));
				if (!ok) return undefined;
				for (const [key, entry] of found) result.set(key, entry.value);
			}
			return result;
		},

		readBudget,

		budget: () =>
			math.min(readBudget(), stores.GetRequestBudgetForRequestType(Enum.DataStoreRequestType.OrderedWrite)),
	};
}
