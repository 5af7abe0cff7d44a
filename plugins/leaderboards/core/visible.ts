import { BackendRow, Board, Entry, Visible } from "../contracts";
import { isBetter } from "./merge/rule";

/** The visible top of a page's entries (computed once a page changes, then O(1) a submit). */
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

/** A value and key ranks before a row: by value, ties by key. */
export function ranksBefore(value: number, key: string, row: BackendRow, ascending: boolean): boolean {
	return value !== row.Value ? isBetter(value, row.Value, ascending) : key < row.Key;
}
