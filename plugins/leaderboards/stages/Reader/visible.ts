import { BackendRow, Board, Entry } from "../../contracts";
import { isBetter } from "../../core";

/** What a page shows first: its VisibleTop keys and values, every value on it, and the value a newcomer must beat. */
export interface Visible {
	readonly top: ReadonlyMap<string, number>;
	readonly values: ReadonlyMap<string, number>;
	/** The last visible row; undefined while the page holds fewer rows than VisibleTop. */
	readonly last?: BackendRow;
}

/** The visible top of a page's entries (computed once a page, then O(1) a submit). */
export function visibleOf(config: Board, entries: ReadonlyArray<Entry>): Visible {
	const top = new Map<string, number>();
	const values = new Map<string, number>();
	for (const entry of entries) {
		values.set(entry.Key, entry.Value);
		if (top.size() < config.VisibleTop) top.set(entry.Key, entry.Value);
	}
	const full = entries.size() >= config.VisibleTop;
	return { top, values, last: full ? entries[config.VisibleTop - 1] : undefined };
}

/**
 * A submitted value (a Sum board's added to the key's value on the page) enters the visible top, or
 * on a keep-best board betters a visible key's value: this page may be older than another
 * server's, on which the key left the top and now enters it again. A sum's or the newest value's
 * change of a visible key shows within FlushSeconds + CacheSeconds (leaders' totals climb every submit).
 */
export function enters(config: Board, visible: Visible, key: string, value: number): boolean {
	const shown = visible.top.get(key);
	if (shown !== undefined) return config.Rule.Kind === "KeepBest" && isBetter(value, shown, config.Ascending);
	const candidate = config.Sum ? (visible.values.get(key) ?? 0) + value : value;
	const last = visible.last;
	// Ties rank by key, as patched pages rank them (patchedRows).
	return last === undefined || ranksBefore(candidate, key, last, config.Ascending);
}

// A value and key ranks before a row: by value, ties by key.
function ranksBefore(value: number, key: string, row: BackendRow, ascending: boolean): boolean {
	return value !== row.Value ? isBetter(value, row.Value, ascending) : key < row.Key;
}

/** The page's rows with a record patched in: the better on a keep-best board, else the record; ranked, cut to `size`. */
export function patchedRows(
	config: Board,
	entries: ReadonlyArray<BackendRow>,
	key: string,
	value: number,
	size: number,
): BackendRow[] {
	const rows = new Array<BackendRow>();
	let found = false;
	for (const entry of entries) {
		if (entry.Key !== key) rows.push({ Key: entry.Key, Value: entry.Value });
		else {
			found = true;
			const kept = config.Rule.Kind === "KeepBest" && !isBetter(value, entry.Value, config.Ascending);
			rows.push({ Key: key, Value: kept ? entry.Value : value });
		}
	}
	if (!found) rows.push({ Key: key, Value: value });
	rows.sort((a, b) => ranksBefore(a.Value, a.Key, b, config.Ascending));
	while (rows.size() > size) rows.pop();
	return rows;
}
