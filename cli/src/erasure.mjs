// The erasure's records as docs/manifest.md lays them out, and as the game's own
// erasure writes them (plugins/leaderboards/stages/Eraser/record.ts):
//
//   erasure:<key>  { Version, Key, Requested, State = "pending" | "done", Removed, Remaining,
//                    Holder, Until (the lease of whoever works on it), Finished (with "done") }
//   erasures       { Version, Pending = { keys } }
//
// A store is named without a MemoryStore shard's ".i/N" suffix, so either side resumes
// what the other left. The tool takes the lease as a game server does: a record a live
// holder has (Until still to come) is not touched.

import { randomUUID } from "node:crypto";
import { CONTRACT, missingFields } from "./contract.mjs";
import { ManifestError, listOf } from "./manifest.mjs";

export const INDEX_KEY = CONTRACT.Names.Keys.Erasures;
const VERSION = CONTRACT.Version;
/** Seconds a lease lasts unrenewed: a holder that died is replaced this long after its last write. */
export const LEASE_SECONDS = CONTRACT.Leases.Seconds;
/** The holder writes its progress, renewing the lease, at least this often. */
export const PROGRESS_SECONDS = CONTRACT.Leases.ProgressSeconds;

/** @typedef {import("./contract.mjs").ErasureRecord} ErasureRecord */
/** @typedef {import("./contract.mjs").ErasureIndex} ErasureIndex */

/**
 * The record's key in the manifest.
 * @param {string} user
 */
export const recordKey = (user) => CONTRACT.Names.Keys.Erasure + user;

/** This run of the tool, as a lease names its holder. */
export const TOOL_HOLDER = `leaderboards-cli ${randomUUID()}`;

/**
 * @param {string[]} a
 * @param {string[]} b
 */
const union = (a, b) => [...new Set([...a, ...b])];
/** @param {unknown} list */
const names = (list) => listOf(list).map(String);

/**
 * Whether another holder's lease on a record still runs at `now`.
 * @param {ErasureRecord | undefined} record
 * @param {number} now
 */
export function heldElsewhere(record, now) {
	return record?.Holder !== undefined && record.Holder !== TOOL_HOLDER && (record.Until ?? 0) > now;
}

/**
 * A record as the tool writes it, checked against the contract's shape first.
 * @param {ErasureRecord} record
 */
function shaped(record) {
	const missing = missingFields("ErasureRecord", record);
	if (missing.length > 0)
		throw new ManifestError(
			`the tool would write an erasure record without ${missing.join(", ")}: a bug in the tool`,
		);
	return record;
}

/**
 * The record pending and leased to this tool, with `stores` added to what is still to do.
 * @param {Partial<ErasureRecord> | undefined} record
 * @param {string} user
 * @param {number} now
 * @param {string[]} stores
 * @returns {ErasureRecord}
 */
export function leased(record, user, now, stores) {
	const removed = names(record?.Removed);
	return shaped({
		...(record ?? {}),
		Version: VERSION,
		Key: user,
		Requested: record?.Requested ?? Math.floor(now),
		State: "pending",
		Removed: removed,
		Remaining: union(names(record?.Remaining), stores).filter((name) => !removed.includes(name)),
		Holder: TOOL_HOLDER,
		Until: Math.floor(now) + LEASE_SECONDS,
	});
}

/**
 * The record with `done` moved from Remaining to Removed and the lease renewed.
 * @param {ErasureRecord} record
 * @param {string[]} done
 * @param {number} now
 * @returns {ErasureRecord}
 */
export function progressed(record, done, now) {
	return shaped({
		...record,
		Removed: union(names(record.Removed), done),
		Remaining: names(record.Remaining).filter((name) => !done.includes(name)),
		Until: Math.floor(now) + LEASE_SECONDS,
	});
}

/**
 * The record with its lease let go, its progress kept: any server (or the tool again) resumes it.
 * @param {ErasureRecord} record
 * @returns {ErasureRecord}
 */
export function handedBack(record) {
	const { Holder: _holder, Until: _until, ...rest } = record;
	return rest;
}

/**
 * The record done: Finished set, nothing remaining, no lease.
 * @param {ErasureRecord} record
 * @param {number} now
 * @returns {ErasureRecord}
 */
export function finished(record, now) {
	return shaped({ ...handedBack(record), State: "done", Remaining: [], Finished: Math.floor(now) });
}

/**
 * The index with `user` added or taken out; undefined when it already says so (no write).
 * @param {ErasureIndex | undefined} index
 * @param {string} user
 * @param {boolean} add
 * @returns {ErasureIndex | undefined}
 */
export function indexWith(index, user, add) {
	const pending = names(index?.Pending);
	if (pending.includes(user) === add) return undefined;
	return {
		...(index ?? {}),
		Version: VERSION,
		Pending: add ? [...pending, user] : pending.filter((other) => other !== user),
	};
}

/**
 * Whether the tool holds the record's lease.
 * @param {ErasureRecord} record
 */
export const mine = (record) => record?.State === "pending" && record.Holder === TOOL_HOLDER;
