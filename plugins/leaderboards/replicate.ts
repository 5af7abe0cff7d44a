import { ReplicateConfig } from "./contracts";
import { checkKeys, fail, keysOf, positiveInteger } from "./checks";

/** Rows a replicated board sends unless told (BoardConfig.Replicate.Rows). */
export const DEFAULT_REPLICATED_ROWS = 10;

const REPLICATE_KEYS = keysOf<ReplicateConfig>({ Rows: true });

/** BoardConfig.Replicate checked: absent, or { Rows } within the board's page (maxEntries). */
export function replicateOf(field: string, value: unknown, maxEntries: unknown): { Rows: number } | undefined {
	if (value === undefined) return undefined;
	if (!typeIs(value, "table")) fail(field, "must be a table { Rows }", value);
	checkKeys(field, value, REPLICATE_KEYS);
	const rows = positiveInteger(`${field}.Rows`, (value as ReplicateConfig).Rows, DEFAULT_REPLICATED_ROWS);
	if (typeIs(maxEntries, "number") && rows > maxEntries)
		fail(`${field}.Rows`, `must be at most the board's MaxEntries (${maxEntries})`, rows);
	return { Rows: rows };
}
