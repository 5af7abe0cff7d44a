import { BackendRow, Board } from "../../contracts";

/**
 * A page's key in the map: the store's backend and prefix (docs/manifest.md's layout) with the storage
 * name, so boards of one name on two stores (two backends, or another MapPrefix) keep a page each.
 */
export function pageKey(board: Board, store: string): string {
	const layout = board.Store.backend.layout;
	return `${layout?.Backend ?? "Custom"}:${layout?.Prefix ?? ""}${store}`;
}

/**
 * A shared page as the hash map item holds it (JSON-able): when its rows were
 * read from the store (Unix seconds), how many were asked for, the rows, and
 * the lease of the server refreshing it now.
 */
export interface PageItem {
	at: number;
	size: number;
	rows: Array<[key: string, value: number]>;
	/** [server id, Unix seconds the lease runs out]. */
	lease?: [string, number];
}

/** The item read back, or undefined when it is not a page (expired, never written, or junk). */
export function itemOf(value: unknown): PageItem | undefined {
	if (!typeIs(value, "table")) return undefined;
	const item = value as Partial<PageItem>;
	if (!typeIs(item.at, "number") || !typeIs(item.size, "number") || !typeIs(item.rows, "table")) return undefined;
	return item as PageItem;
}

/** The item's rows (ranked when written), cut to `count`. */
export function rowsOf(item: PageItem, count: number): BackendRow[] {
	const rows = new Array<BackendRow>();
	for (const [key, value] of item.rows) if (rows.size() < count) rows.push({ Key: key, Value: value });
	return rows;
}

/** The item after a refresh read at `at`: the store's rows, the lease gone. */
export function refreshed(at: number, size: number, rows: BackendRow[]): PageItem {
	return { at, size, rows: rows.map((row) => [row.Key, row.Value]) };
}
