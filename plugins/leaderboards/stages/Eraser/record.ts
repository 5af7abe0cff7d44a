import { ErasureIndex, ErasureRecord, ErasureReport, MANIFEST_VERSION, recordOf } from "../../types";

// The erasure's records as docs/manifest.md lays them out: erasure:<key> and the erasures index.

export const INDEX_KEY = "erasures";

/** The record's key in the manifest. */
export function recordKey(key: string): string {
	return `erasure:${key}`;
}

/** The record read back, or undefined when there is none (or it is not an erasure record). */
export function erasureOf(value: unknown): ErasureRecord | undefined {
	return recordOf<ErasureRecord>(value, "State");
}

/** A new request: every store in `remaining` still to do. */
export function requested(key: string, now: number, remaining: string[]): ErasureRecord {
	return { Version: MANIFEST_VERSION, Key: key, Requested: now, State: "pending", Removed: [], Remaining: remaining };
}

/** What a game sees of a record. */
export function reportOf(record: ErasureRecord): ErasureReport {
	return table.freeze({
		Key: record.Key,
		State: record.State,
		Requested: record.Requested,
		Finished: record.Finished,
		Removed: table.freeze([...(record.Removed ?? [])]),
		Remaining: table.freeze([...(record.Remaining ?? [])]),
	});
}

/** A request that could not be recorded: nothing was done. */
export function failedReport(key: string, problem: unknown): ErasureReport {
	return table.freeze({
		Key: key,
		State: "failed",
		Removed: table.freeze([]),
		Remaining: table.freeze([]),
		Error: `the erasure could not be recorded (${tostring(problem)}); nothing was removed: call erase() again`,
	});
}

/** The index's pending keys as read (an empty list when there is no index). */
export function pendingOf(value: unknown): string[] {
	return recordOf<ErasureIndex>(value, "Pending")?.Pending ?? [];
}

/** The index with `key` added (add) or taken out; undefined when it already says so (no write). */
export function indexWith(old: unknown, key: string, add: boolean): ErasureIndex | undefined {
	const pending = pendingOf(old);
	if (pending.includes(key) === add) return undefined;
	return { Version: MANIFEST_VERSION, Pending: add ? [...pending, key] : pending.filter((other) => other !== key) };
}
