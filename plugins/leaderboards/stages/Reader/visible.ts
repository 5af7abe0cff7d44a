import { BackendRow, Board, Entry, isBetter } from "../../types";

/** What a page shows first: its VisibleTop keys and values, every value on it, and the value a newcomer must beat. */
export interface Visible {
	readonly top: ReadonlyMap<string, number>;
	readonly values: ReadonlyMap<string, number>;
	/** The last visible row's value; undefined while the page holds fewer rows than VisibleTop. */
	readonly threshold?: number;
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
	return { top, values, threshold: full ? entries[config.VisibleTop - 1].Value : undefined };
}

/**
 * A submitted value (a Sum board's added to the key's value on the page) enters the visible top, or
 * on a keep-best board betters a visible key's value (a record players watch); other changes of
 * visible keys (a sum's, the newest) show within FlushSeconds + CacheSeconds.
 */
export function enters(config: Board, visible: Visible, key: string, value: number): boolean {
	const shown = visible.top.get(key);
	if (shown !== undefined) return config.Rule.Kind === "KeepBest" && isBetter(value, shown, config.Ascending);
	const candidate = config.Sum ? (visible.values.get(key) ?? 0) + value : value;
	return visible.threshold === undefined || isBetter(candidate, visible.threshold, config.Ascending);
}

/** The page's rows with a record patched in: the better on a keep-best board, else the record; ranked, cut to `size`. */
export function patchedRows(config: Board, entries: ReadonlyArray<Entry>, key: string, value: number, size: number) {
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
	rows.sort((a, b) => (a.Value !== b.Value ? isBetter(a.Value, b.Value, config.Ascending) : a.Key < b.Key));
	while (rows.size() > size) rows.pop();
	return rows;
}
