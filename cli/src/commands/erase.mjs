// leaderboards erase <user> [--yes] [--dry-run]
//
// The same erasure as the game's (docs/manifest.md): the record erasure:<user> in
// the manifest first ({ State = "pending", Removed = {}, Remaining = every store
// that may hold the user }) and the user in the erasures index's Pending, then
// each store in turn, the record updated every PROGRESS stores (Remaining ->
// Removed; removing is idempotent, so a run that stops between two updates only
// removes again on resuming), then State = "done" and the user out of Pending.
// Every write is a read-modify-write
// guarded by the entry's etag, so a game server erasing the same user meanwhile
// (UpdateAsync on the same record) loses nothing: Removed only grows, and a store
// either side removed leaves Remaining. Run again, it resumes from the record:
// what Remaining still lists, plus stores that appeared since (a new period).

import { boardsOf, resolveStore } from "../boards.mjs";
import { listOf } from "../manifest.mjs";
import { confirm, count } from "../output.mjs";

const union = (a, b) => [...new Set([...a, ...b])];
/** Stores removed between two updates of the record. */
const PROGRESS = 10;

export async function erase({ cloud, manifest, args, values, print, say, warn, stdin, stderr }) {
	const key = args.user;
	const boards = boardsOf(await manifest.layout(), cloud);
	const recordKey = `erasure:${key}`;
	const existing = (await manifest.read(recordKey))?.value;
	if (existing?.State === "done") {
		print.json({
			user: key,
			state: "done",
			requested: existing.Requested ?? null,
			removed: listOf(existing.Removed),
			remaining: [],
		});
		say(`${key} was already erased (${count(listOf(existing.Removed).length, "store")}); nothing to do`);
		return 0;
	}
	// Every store that may hold the key: each readable board's every period, the key's shard on MemoryStore.
	const targets = [];
	for (const board of boards.values()) {
		if (!board.readable) {
			warn(`${board.name} is on a ${board.backend} backend: the game's own erasure must remove ${key} from it`);
			continue;
		}
		for (const period of await board.allPeriods(manifest)) targets.push(board.placeOf(period.store, key));
	}
	const removedBefore = listOf(existing?.Removed).map(String);
	const remaining = union(listOf(existing?.Remaining).map(String), targets).filter(
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

	// 1. The record and the index, before any store is touched.
	const now = Math.floor(cloud.now());
	await manifest.update(recordKey, (record) => {
		const removed = listOf(record?.Removed).map(String);
		const next = {
			Version: 1,
			Key: key,
			Requested: record?.Requested ?? now,
			State: "pending",
			Removed: removed,
			Remaining: union(listOf(record?.Remaining).map(String), remaining).filter(
				(name) => !removed.includes(name),
			),
		};
		return record && JSON.stringify(record) === JSON.stringify(next) ? undefined : next;
	});
	await manifest.update("erasures", (index) => {
		const pending = listOf(index?.Pending).map(String);
		return pending.includes(key) ? undefined : { Version: 1, ...(index ?? {}), Pending: [...pending, key] };
	});

	// 2. Each store, the record every PROGRESS stores and after the last.
	const removedNow = [];
	const unknown = [];
	let unrecorded = [];
	const record = async () => {
		const done = unrecorded;
		unrecorded = [];
		if (done.length === 0) return;
		await manifest.update(recordKey, (value) => ({
			...value,
			Removed: union(listOf(value?.Removed).map(String), done),
			Remaining: listOf(value?.Remaining)
				.map(String)
				.filter((other) => !done.includes(other)),
		}));
	};
	for (const name of remaining) {
		const place = resolveStore(boards, name);
		if (!place) {
			unknown.push(name);
			continue;
		}
		await place.board.remove(place.store, key);
		removedNow.push(name);
		unrecorded.push(name);
		if (unrecorded.length >= PROGRESS) await record();
	}
	await record();
	if (unknown.length > 0) {
		warn(
			`${count(unknown.length, "store")} of the record match no board of the manifest and stay in Remaining: ${unknown.join(", ")}`,
		);
		print.json({ ...plan, state: "pending", removed: removedNow, unknown });
		return 1;
	}

	// 3. Done: the record's state, then the index.
	const final = await manifest.update(recordKey, (record) =>
		listOf(record?.Remaining).length === 0 ? { ...record, State: "done", Remaining: [] } : undefined,
	);
	if (final?.State !== "done") {
		warn(`the record still lists stores to do (${listOf(final?.Remaining).join(", ")}): run erase again`);
		print.json({ ...plan, state: "pending", removed: removedNow });
		return 1;
	}
	await manifest.update("erasures", (index) => {
		const pending = listOf(index?.Pending).map(String);
		return pending.includes(key)
			? { Version: 1, ...index, Pending: pending.filter((other) => other !== key) }
			: undefined;
	});
	print.json({ ...plan, state: "done", removed: removedNow });
	say(`erased ${key} from ${count(removedNow.length, "store")}; erasure:${key} is done`);
	return 0;
}
