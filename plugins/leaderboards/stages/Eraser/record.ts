import { CONTRACT, ErasureIndex, ErasureRecord, ErasureReport } from "../../contracts";
import { MANIFEST_VERSION, recordOf } from "../../core";

// The erasure's records as docs/manifest.md lays them out: erasure:<key> and the erasures index.

export const INDEX_KEY = CONTRACT.Names.Keys.Erasures;

/** The record's key in the manifest. */
export function recordKey(key: string): string {
	return CONTRACT.Names.Keys.Erasure + key;
}

/** The record read back, or undefined when there is none (or it is not an erasure record). */
export function erasureOf(value: unknown): ErasureRecord | undefined {
	return recordOf<ErasureRecord>(value, "State");
}

/** A new request: every store in `remaining` still to do. */
export function requested(key: string, now: number, remaining: string[]): ErasureRecord {
	return { Version: MANIFEST_VERSION, Key: key, Requested: now, State: "pending", Removed: [], Remaining: remaining };
}

/** A request whose stores are not listed yet (written by a tool, or lost with its server): its first holder lists them. */
export function unplanned(key: string, now: number): ErasureRecord {
	return { Version: MANIFEST_VERSION, Key: key, Requested: now, State: "pending" } as ErasureRecord;
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

/**
 * A request whose record could not be written: "failed" when not even the index holds it (nothing was done),
 * "pending" when the index does (the server that takes it lists the stores).
 */
export function unrecordedReport(key: string, indexed: boolean, problem: unknown): ErasureReport {
	const why = tostring(problem);
	return table.freeze({
		Key: key,
		State: indexed ? "pending" : "failed",
		Removed: table.freeze([]),
		Remaining: table.freeze([]),
		Error: indexed
			? `indexed, but its record could not be written (${why}): a server lists the stores when it takes it`
			: `the erasure could not be recorded (${why}); nothing was removed: call erase() again`,
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
