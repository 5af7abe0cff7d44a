// leaderboards erase <user> [--yes] [--dry-run]
//
// The same erasure as the game's (docs/manifest.md), through the records of
// cli/src/erasure.mjs: the record erasure:<user> leased to the tool (Holder, Until)
// with every store that may hold the user in Remaining, and the user in the erasures
// index's Pending; then each store in turn, the record updated every PROGRESS stores
// and at least every PROGRESS_SECONDS (Remaining -> Removed, the lease renewed;
// removing is idempotent, so a run that stops between two updates only removes again
// on resuming); then State = "done", Finished, and the user out of Pending. Every
// write is a read-modify-write guarded by the entry's etag. A record another holder
// leases is left alone; a store of a Custom-backend board stays in Remaining for a
// game server, which finishes the erasure. A run that fails hands the lease back.

import { boardsOf, resolveStore } from "../boards.mjs";
import {
	INDEX_KEY,
	PROGRESS_SECONDS,
	finished,
	handedBack,
	heldElsewhere,
	indexWith,
	leased,
	mine,
	progressed,
	recordKey,
} from "../erasure.mjs";
import { listOf } from "../manifest.mjs";
import { confirm, count } from "../output.mjs";

/** Stores removed between two updates of the record. */
const PROGRESS = 10;

/** @typedef {import("../main.mjs").Context} Context */
/** @typedef {import("../contract.mjs").ErasureRecord} ErasureRecord */
/** @typedef {import("../contract.mjs").ErasureIndex} ErasureIndex */
/**
 * What removeAll did: the stores removed, those left to a game server (Custom boards), those no board
 * of the manifest names, and the holder that took the lease over, if one did.
 * @typedef {{ removed: string[], left: string[], unknown: string[], lost: string | undefined }} Run
 */
/** @typedef {{ user: string, resuming: boolean, dryRun: boolean, remaining: string[] }} Plan */

/**
 * @param {string[]} a
 * @param {string[]} b
 */
const union = (a, b) => [...new Set([...a, ...b])];

/** @param {import("../main.mjs").Context} context */
export async function erase(context) {
	const { cloud, manifest, args, values, print, say, warn, stdin, stderr } = context;
	const key = args.user;
	const boards = boardsOf(await manifest.layout(), cloud);
	// A store as the manifest names it: a name an older tool wrote with a shard's suffix, without it.
	/** @param {string} name */
	const canonical = (name) => resolveStore(boards, name)?.store ?? name;
	/** @type {ErasureRecord | undefined} */
	const existing = (await manifest.read(recordKey(key)))?.value;
	if (existing?.State === "done") {
		const removed = listOf(existing.Removed);
		print.json({ user: key, state: "done", requested: existing.Requested ?? null, removed, remaining: [] });
		say(`${key} was already erased (${count(removed.length, "store")}); nothing to do`);
		return 0;
	}
	if (heldElsewhere(existing, cloud.now())) return held(context, existing);
	// Every store that may hold the key: each board's every period.
	const targets = [];
	for (const board of boards.values()) {
		if (!board.readable)
			warn(`${board.name} is on a ${board.backend} backend: a game server removes ${key} from it`);
		for (const period of await board.allPeriods(manifest)) targets.push(period.store);
	}
	const removedBefore = listOf(existing?.Removed).map(String).map(canonical);
	const remaining = union(listOf(existing?.Remaining).map(String).map(canonical), targets).filter(
		(name) => !removedBefore.includes(name),
	);
	const plan = { user: key, resuming: existing !== undefined, dryRun: values["dry-run"] === true, remaining };
	say(
		`${values["dry-run"] ? "Would erase" : existing ? "Resuming the erasure of" : "Will erase"} ${key} from ${count(remaining.length, "store")}` +
			(removedBefore.length > 0 ? ` (${count(removedBefore.length, "store")} already done)` : "") +
			(remaining.length > 0 ? `:\n${remaining.map((name) => `  ${name}`).join("\n")}` : ""),
	);
	if (!(await confirm("Erase?", { yes: values.yes, dryRun: values["dry-run"], input: stdin, output: stderr }))) {
		print.json({ ...plan, state: existing ? "pending" : null, removed: [] });
		if (values["dry-run"]) {
			say("dry run: nothing erased");
			return 0;
		}
		warn("nothing erased");
		return 1;
	}

	// 1. The record, leased to the tool, and the index, before any store is touched.
	/** @type {ErasureRecord | undefined} */
	let busy;
	const record = await manifest.update(recordKey(key), (/** @type {ErasureRecord | undefined} */ stored) => {
		busy = heldElsewhere(stored, cloud.now()) ? stored : undefined;
		// Held, or finished by a game server since the read: left as it is.
		if (busy || stored?.State === "done") return undefined;
		const known = stored && {
			...stored,
			Removed: listOf(stored.Removed).map(String).map(canonical),
			Remaining: listOf(stored.Remaining).map(String).map(canonical),
		};
		return leased(known, key, cloud.now(), remaining);
	});
	if (record?.State === "done") {
		print.json({ ...plan, state: "done", removed: [] });
		say(`${key} was erased meanwhile (erasure:${key} is done); nothing to do`);
		return 0;
	}
	if (busy || !record) return held(context, busy);
	await manifest.update(INDEX_KEY, (/** @type {ErasureIndex | undefined} */ index) => indexWith(index, key, true));

	// 2. Each store the tool reaches.
	const run = await removeAll(context, boards, record);
	if (run.lost) {
		warn(`another holder took erasure:${key} over (${run.lost}); it finishes the erasure`);
		print.json({ ...plan, state: "pending", removed: run.removed });
		return 1;
	}
	if (run.unknown.length > 0 || run.left.length > 0) return handBack(context, plan, run);

	// 3. Done: the record's state, then the index.
	const final = await manifest.update(recordKey(key), (/** @type {ErasureRecord | undefined} */ stored) =>
		stored && mine(stored) && listOf(stored.Remaining).length === 0 ? finished(stored, cloud.now()) : undefined,
	);
	if (final?.State !== "done") {
		warn(`the record still lists stores to do (${listOf(final?.Remaining).join(", ")}): run erase again`);
		print.json({ ...plan, state: "pending", removed: run.removed });
		return 1;
	}
	await manifest.update(INDEX_KEY, (/** @type {ErasureIndex | undefined} */ index) => indexWith(index, key, false));
	print.json({ ...plan, state: "done", removed: run.removed });
	say(`erased ${key} from ${count(run.removed.length, "store")}; erasure:${key} is done`);
	return 0;
}

/**
 * A record another holder (a game server, another run of the tool) leases: left alone.
 * @param {Context} context
 * @param {Partial<ErasureRecord> | undefined} record
 */
function held({ args, print, warn }, record) {
	const until = new Date((record?.Until ?? 0) * 1000).toISOString();
	warn(
		`erasure:${args.user} is held by ${record?.Holder} until ${until} (Until), which is erasing ${args.user} now: nothing done; it finishes the erasure, or run erase again after its lease ends`,
	);
	print.json({ user: args.user, state: "held", holder: record?.Holder, until: record?.Until ?? null });
	return 1;
}

/**
 * Removes the key from each store of the record's Remaining the tool reaches, writing progress every PROGRESS
 * stores and every PROGRESS_SECONDS. Returns { removed, left (Custom boards' stores), unknown (no board of the
 * manifest), lost (the holder that took the lease over) }. A failure writes the progress and hands the lease back.
 * @param {Context} context
 * @param {Map<string, import("../boards.mjs").Board>} boards
 * @param {ErasureRecord} record
 * @returns {Promise<Run>}
 */
async function removeAll({ cloud, manifest, args }, boards, record) {
	/** @type {Run} */
	const run = { removed: [], left: [], unknown: [], lost: undefined };
	/** @type {string[]} */
	let unrecorded = [];
	let written = cloud.now();
	/** @param {(record: ErasureRecord) => ErasureRecord} change */
	const write = async (change) => {
		const done = unrecorded;
		unrecorded = [];
		written = cloud.now();
		await manifest.update(recordKey(args.user), (/** @type {ErasureRecord | undefined} */ stored) => {
			if (stored && mine(stored)) return change(progressed(stored, done, cloud.now()));
			run.lost = stored?.Holder ?? `State ${stored?.State}`;
			return undefined;
		});
	};
	try {
		for (const name of listOf(record.Remaining).map(String)) {
			const place = resolveStore(boards, name);
			if (!place || !place.board.readable) {
				(place ? run.left : run.unknown).push(name);
				continue;
			}
			await place.board.remove(place.store, args.user);
			run.removed.push(name);
			unrecorded.push(name);
			if (unrecorded.length >= PROGRESS || cloud.now() - written >= PROGRESS_SECONDS) await write((next) => next);
			if (run.lost) return run;
		}
		await write((next) => next);
	} catch (error) {
		await write(handedBack).catch(() => {});
		throw error;
	}
	return run;
}

/**
 * Stores the tool cannot finish stay in Remaining, the lease let go: a game server with their boards finishes.
 * @param {Context} context
 * @param {Plan} plan
 * @param {Run} run
 */
async function handBack({ manifest, args, print, say, warn }, plan, run) {
	await manifest.update(recordKey(args.user), (/** @type {ErasureRecord | undefined} */ stored) =>
		stored && mine(stored) ? handedBack(stored) : undefined,
	);
	if (run.unknown.length > 0) {
		warn(
			`${count(run.unknown.length, "store")} of the record match no board of the manifest and stay in Remaining: ${run.unknown.join(", ")}`,
		);
		print.json({ ...plan, state: "pending", removed: run.removed, unknown: run.unknown, leftToGame: run.left });
		return 1;
	}
	print.json({ ...plan, state: "pending", removed: run.removed, leftToGame: run.left });
	say(
		`erased ${args.user} from ${count(run.removed.length, "store")}; ${count(run.left.length, "store")} of Custom-backend boards left to a game server (${run.left.join(", ")}): erasure:${args.user} stays pending until one finishes it`,
	);
	return 0;
}
