import { BackendRow, Board, isBetter } from "../../types";

/** Records a page keeps for servers that read it before its next refresh. */
export const PATCHES_KEPT = 20;

/**
 * A shared page as the hash map item holds it (JSON-able): when its rows were
 * read from the store (Unix seconds), how many were asked for, the rows, the
 * lease of the server refreshing it now, and records that landed since.
 */
export interface PageItem {
	at: number;
	size: number;
	rows: Array<[key: string, value: number]>;
	/** [server id, Unix seconds the lease runs out]. */
	lease?: [string, number];
	/** [key, value, Unix seconds it landed]. */
	patches?: Array<[string, number, number]>;
	/** Announcements of records left (a bucket refilling at the board's share of ANNOUNCEMENTS), and when counted. */
	tokens?: number;
	tokensAt?: number;
}

/**
 * Record announcements a minute for the whole experience, across its boards: a message reaches every
 * server, and a topic receives at most 40 + 80 x servers a minute (MessagingService reference).
 */
export const ANNOUNCEMENTS = 60;

/** The item read back, or undefined when it is not a page (expired, never written, or junk). */
export function itemOf(value: unknown): PageItem | undefined {
	if (!typeIs(value, "table")) return undefined;
	const item = value as Partial<PageItem>;
	if (!typeIs(item.at, "number") || !typeIs(item.size, "number") || !typeIs(item.rows, "table")) return undefined;
	return item as PageItem;
}

/** A row whose value a record changed: the better on a keep-best board, else the record's. */
function patched(board: Board, stored: number | undefined, value: number): number {
	if (stored === undefined || board.Rule.Kind !== "KeepBest") return value;
	return isBetter(value, stored, board.Ascending) ? value : stored;
}

/** The item's rows, with the records that landed after they were read, ranked and cut to `count`. */
export function rowsOf(board: Board, item: PageItem, count: number): BackendRow[] {
	const values = new Map<string, number>();
	for (const [key, value] of item.rows) values.set(key, value);
	for (const [key, value, at] of item.patches ?? [])
		if (at >= item.at) values.set(key, patched(board, values.get(key), value));
	const rows = new Array<BackendRow>();
	for (const [key, value] of values) rows.push({ Key: key, Value: value });
	rows.sort((a, b) => (a.Value !== b.Value ? isBetter(a.Value, b.Value, board.Ascending) : a.Key < b.Key));
	const kept = new Array<BackendRow>();
	for (const row of rows) if (kept.size() < count) kept.push(row);
	return kept;
}

/** The item after a refresh read at `at`: the store's rows, the records that landed since kept, the lease gone. */
export function refreshed(old: PageItem | undefined, at: number, size: number, rows: BackendRow[]): PageItem {
	const patches = (old?.patches ?? []).filter(([, , landed]) => landed >= at);
	return { at, size, rows: rows.map((row) => [row.Key, row.Value]), patches };
}

/**
 * The item with one more record (the oldest dropped past PATCHES_KEPT, and those the rows already
 * hold), and whether it grants an announcement: one of the board's `perMinute` tokens.
 */
export function withPatch(
	item: PageItem,
	key: string,
	value: number,
	at: number,
	perMinute: number,
): LuaTuple<[PageItem, boolean]> {
	const patches = (item.patches ?? []).filter(([, , landed]) => landed >= item.at);
	patches.push([key, value, at]);
	while (patches.size() > PATCHES_KEPT) patches.remove(0);
	const since = math.max(0, at - (item.tokensAt ?? at));
	const tokens = math.min(perMinute, (item.tokens ?? perMinute) + (since * perMinute) / 60);
	const granted = tokens >= 1;
	return $tuple({ ...item, patches, tokens: granted ? tokens - 1 : tokens, tokensAt: at }, granted);
}
