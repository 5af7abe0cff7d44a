import { PageItem, itemOf } from "./item";

type Listed = { key: string; value: unknown };

// The item's rows hold the key.
function holds(item: PageItem, key: string): boolean {
	return item.rows.some(([row]) => row === key);
}

// The item without the key.
function without(item: PageItem, key: string): PageItem {
	return { ...item, rows: item.rows.filter(([row]) => row !== key) };
}

// The shared pages that hold the key: one listing of the map (every board's and period's pages,
// a few items: units are partitions scanned plus items returned).
function pagesHolding(map: MemoryStoreHashMap, key: string): string[] {
	const found = new Array<string>();
	const pages = map.ListItemsAsync(200);
	for (;;) {
		for (const entry of pages.GetCurrentPage() as unknown as Listed[]) {
			const item = itemOf(entry.value);
			if (item && holds(item, key)) found.push(entry.key);
		}
		if (pages.IsFinished) return found;
		pages.AdvanceToNextPageAsync();
	}
}

/**
 * Yields. Drops an erased key from every shared page of the map, each rewritten with UpdateAsync (a
 * refresh meanwhile read the store, which no longer holds it). false when MemoryStore failed.
 */
export function eraseFromPages(map: MemoryStoreHashMap, key: string, lifetime: number): boolean {
	const [listed, stores] = pcall(() => pagesHolding(map, key));
	if (!listed) return false;
	for (const store of stores) {
		const [ok] = pcall(() =>
			map.UpdateAsync(
				store,
				(old: unknown) => {
					const item = itemOf(old);
					return item && holds(item, key) ? without(item, key) : undefined;
				},
				lifetime,
			),
		);
		if (!ok) return false;
	}
	return true;
}
