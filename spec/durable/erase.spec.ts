import { afterEach, describe, expect, it } from "@rbxts/jest-globals";
import { ErasureReport, Topics } from "../../plugins/leaderboards";
import { headlessGate } from "../gate/control";
import { backendOn, boardsAt, closeServers, newServer, dayOf, waitFor } from "./servers";

// boards:erase(subject) (issue 29): a key out of every board and every period ever written, on both
// backends, durably and within the remove budget. Virtual time 0 is Sunday 2026-12-06 00:00 UTC.
const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

const DAY = 86400;
const NOW = 1_796_515_200; // 2026-12-06 00:00 UTC
const MINUTES = 60_000;

// The manifest's periods:<Storage> as written before the run: `days` days before today, and today.
function seedDaily(storage: string, days: number, values: Map<string, number>): string[] {
	const ids = new Array<string>();
	for (let back = days; back >= 0; back--) {
		const id = dayOf(NOW - back * DAY);
		ids.push(id);
		gate!.dataStore.seed(`CKBoard_${storage}@${id}`, values);
	}
	gate!.dataStore.standard.seed(
		"CKBoard_Manifest",
		new Map([[`periods:${storage}`, { Version: 1, Ids: ids }]]) as Map<string, unknown>,
	);
	return ids;
}

// The all-time board holding 42 (to erase) and 7.
function seedKills() {
	gate!.dataStore.seed(
		"CKBoard_Kills",
		new Map([
			["42", 10],
			["7", 5],
		]),
	);
}

// Every stored key of a MemoryStore board's period over its shards.
function mapKeys(name: string, shards: number): Set<string> {
	const keys = new Set<string>();
	for (let i = 1; i <= shards; i++)
		for (const item of gate!.memoryStore.snapshot(`${name}.${i}/${shards}`)) keys.add(item.key);
	return keys;
}

describeGate("boards:erase(subject)", () => {
	afterEach(() => {
		closeServers();
		gate!.reset();
	});

	it(
		"leaves no trace on an all-time board, a daily board of 30 written periods and a MemoryStore board of 4 shards",
		() => {
			gate!.calendar.set(NOW + 3600);
			seedKills();
			const days = seedDaily(
				"DailyKills",
				30,
				new Map([
					["42", 3],
					["7", 4],
				]),
			);
			const live = backendOn("MemoryStore", undefined, 4);
			const { boards, kernel } = boardsAt(undefined, {
				Kills: {},
				DailyKills: { Reset: "Daily" },
				Live: { Reset: "Daily", Sum: true, Backend: live },
			});
			// Two periods of the MemoryStore board, written by the library (which lists them in the manifest).
			for (const key of ["42", "7", "npc"]) boards.submit("Live", key, 5);
			boards.flushNow();
			gate!.calendar.set(NOW + DAY + 3600);
			for (const key of ["42", "7"]) boards.submit("Live", key, 2);
			boards.flushNow();
			expect(boards.top("Kills").map((entry) => entry.Key)).toEqual(["42", "7"]);
			const ended = new Array<ErasureReport>();
			kernel.Bus.subscribe(Topics.Erased, (_, _key, report) => ended.push(report));

			const report = boards.erase(42);
			expect(report.State).toBe("pending");
			// Every store the manifest knows: the all-time board, 31 days, two MemoryStore periods.
			expect(report.Remaining.size()).toBe(1 + 31 + 2);
			expect(report.Remaining).toContain(`CKBoard_DailyKills@${days[0]}`);
			expect(report.Remaining).toContain(`CKBoard_Live@${dayOf(NOW + DAY)}`);
			// Hidden from every read at once, refused from now on.
			expect(boards.top("Kills").map((entry) => entry.Key)).toEqual(["7"]);
			expect(boards.submit("Kills", 42, 99)).toBe(false);

			expect(waitFor(() => ended.size() > 0, 300)).toBe(true);
			expect(ended[0].State).toBe("done");
			expect(ended[0].Remaining).toEqual([]);
			expect(ended[0].Removed.size()).toBe(1 + 31 + 2);
			expect(gate!.dataStore.snapshot("CKBoard_Kills")).toEqual(new Map([["7", 5]]));
			for (const id of days)
				expect(gate!.dataStore.snapshot(`CKBoard_DailyKills@${id}`)).toEqual(new Map([["7", 4]]));
			for (const at of [NOW, NOW + DAY]) {
				const keys = mapKeys(`CKBoard_Live@${dayOf(at)}`, 4);
				expect(keys.has("42")).toBe(false);
				expect(keys.has("7")).toBe(true);
			}
			expect(boards.erasure("42")?.State).toBe("done");
			// The index holds no pending erasure.
			const index = gate!.dataStore.standard.snapshot("CKBoard_Manifest").get("erasures") as {
				Pending: string[];
			};
			expect(index.Pending).toEqual([]);
			// Done: the key may score again (a new player under an old id, a game's own choice).
			expect(boards.submit("Kills", 42, 1)).toBe(true);
			boards.destroy();
		},
		10 * MINUTES,
	);

	it(
		"an erasure interrupted by a server close is finished by another server, from where it stopped",
		() => {
			gate!.calendar.set(NOW + 3600);
			const days = seedDaily("DailyKills", 99, new Map([["42", 3]]));
			const config = { DailyKills: { Reset: "Daily" as const } };
			const a = newServer(gate!);
			const b = newServer(gate!);
			const first = boardsAt(a, config, { Backend: backendOn("OrderedDataStore", a) });
			first.boards.erase("42");
			// A empty server's remove budget: its startup burst and 30 a minute, so 100 stores take minutes.
			task.wait(20);
			// Hands the erasure back before it returns: a real server ends when its close handlers return, so a
			// write-back after destroy() would never be made (issue 47).
			first.boards.destroy();
			// Handed back: no holder, so the next server need not wait for a lease to run out.
			const stored = gate!.dataStore.standard.snapshot("CKBoard_Manifest").get("erasure:42") as {
				Holder?: string;
			};
			expect(stored.Holder).toBeUndefined();
			const record = first.boards.erasure("42")!;
			expect(record.State).toBe("pending");
			expect(record.Removed.size()).toBeGreaterThan(20);
			expect(record.Removed.size() + record.Remaining.size()).toBe(100);
			const removedByA = gate!.dataStore.calls("RemoveAsync");
			expect(removedByA).toBe(record.Removed.size());
			const second = boardsAt(b, config, { Backend: backendOn("OrderedDataStore", b) });
			expect(waitFor(() => second.boards.erasure("42")?.State === "done", 600, 5)).toBe(true);
			for (const id of days) expect(gate!.dataStore.snapshot(`CKBoard_DailyKills@${id}`).has("42")).toBe(false);
			// B did only what was left, then swept the store a late write could reach (today's: yesterday's
			// ended over SWEEP_BACK_SECONDS before the request).
			expect(gate!.dataStore.calls("RemoveAsync")).toBe(100 + 1);
			second.boards.destroy();
		},
		20 * MINUTES,
	);

	it(
		"a write in flight during the erasure does not put the key back",
		() => {
			gate!.calendar.set(NOW + 3600);
			const a = newServer(gate!);
			const b = newServer(gate!);
			const config = { Kills: {} };
			const eraser = boardsAt(a, config, { Backend: backendOn("OrderedDataStore", a), SkipLoop: true });
			// B's write of 42 is out 8 s before its UpdateAsync runs: the erasure's removal lands before it.
			const slow = backendOn("OrderedDataStore", b);
			const set = slow.set!;
			slow.set = (...args) => {
				task.wait(8);
				return set(...args);
			};
			const writer = boardsAt(b, config, { Backend: slow, SkipLoop: true });
			task.wait(1); // both read the (empty) erasures index at start
			writer.boards.submit("Kills", "42", 100);
			task.spawn(() => writer.boards._flush());
			task.wait(1);
			eraser.boards.erase("42");
			task.wait(1);
			expect(gate!.dataStore.snapshot("CKBoard_Kills").has("42")).toBe(false);
			task.wait(8);
			// Landed after the removal: back in the store until the sweep.
			expect(gate!.dataStore.snapshot("CKBoard_Kills").get("42")).toBe(100);
			expect(waitFor(() => eraser.boards.erasure("42")?.State === "done", 300)).toBe(true);
			expect(gate!.dataStore.snapshot("CKBoard_Kills").has("42")).toBe(false);
			// B learned of it at its next poll: its submits of the key were refused until the erasure was done.
			task.wait(60);
			expect(gate!.dataStore.snapshot("CKBoard_Kills").has("42")).toBe(false);
			eraser.boards.destroy();
			writer.boards.destroy();
		},
		10 * MINUTES,
	);

	it(
		"spends only the remove budget's share, leaving some for remove()",
		() => {
			gate!.calendar.set(NOW + 3600);
			seedDaily("DailyKills", 199, new Map([["42", 3]]));
			gate!.dataStore.seed("CKBoard_Kills", new Map([["cheater", 1e6]]));
			const server = newServer(gate!);
			const { boards } = boardsAt(
				server,
				{ Kills: {}, DailyKills: { Reset: "Daily" } },
				{
					Backend: backendOn("OrderedDataStore", server),
				},
			);
			boards.erase("42");
			const perMinute = new Array<number>();
			let before = 0;
			for (let minute = 1; minute <= 8; minute++) {
				if (minute === 3) boards.remove("Kills", "cheater"); // a moderator's removal meanwhile
				task.wait(60);
				const calls = gate!.dataStore.calls("RemoveAsync");
				perMinute.push(calls - before);
				before = calls;
			}
			// Its share of the experience's 40 removes a minute a player (90%, one player's worth on an empty
			// server): a full bucket and its refill the first minute, 36 a minute after (the server's own level,
			// 30 a minute and a startup burst of 30, holds more). Never throttled.
			expect(perMinute[0]).toBeLessThanOrEqual(36 + 36);
			for (const count of perMinute.filter((_, i) => i > 0)) expect(count).toBeLessThanOrEqual(36 + 1);
			expect(gate!.dataStore.throttled()).toBe(0);
			expect(gate!.dataStore.dropped()).toBe(0);
			// The moderator's removal did not wait for the erasure.
			expect(gate!.dataStore.snapshot("CKBoard_Kills").has("cheater")).toBe(false);
			expect(boards.erasure("42")?.State).toBe("done");
			boards.destroy();
		},
		20 * MINUTES,
	);

	it(
		"a request written from outside the game (the manifest's records alone) is carried out by a server",
		() => {
			gate!.calendar.set(NOW + 3600);
			seedDaily(
				"DailyKills",
				2,
				new Map([
					["42", 3],
					["7", 1],
				]),
			);
			gate!.dataStore.standard.seed(
				"CKBoard_Manifest",
				new Map<string, unknown>([
					["erasure:42", { Version: 1, Key: "42", Requested: NOW + 3600, State: "pending" }],
					["erasures", { Version: 1, Pending: ["42"] }],
				]),
			);
			const server = newServer(gate!);
			const { boards } = boardsAt(
				server,
				{ DailyKills: { Reset: "Daily" } },
				{
					Backend: backendOn("OrderedDataStore", server),
				},
			);
			task.wait(1); // the first poll, at start
			expect(boards.submit("DailyKills", "42", 9)).toBe(false);
			expect(waitFor(() => boards.erasure("42")?.State === "done", 300, 5)).toBe(true);
			expect(boards.erasure("42")!.Removed.size()).toBe(3);
			for (const back of [0, 1, 2])
				expect(gate!.dataStore.snapshot(`CKBoard_DailyKills@${dayOf(NOW - back * DAY)}`)).toEqual(
					new Map([["7", 1]]),
				);
		},
		10 * MINUTES,
	);

	it(
		"hides the key from scores() at once, and records it for the reads docs/reference.md's cost table says",
		() => {
			gate!.calendar.set(NOW + 3600);
			seedKills();
			seedDaily("DailyKills", 2, new Map([["42", 3]]));
			const { boards } = boardsAt(undefined, { Kills: {}, DailyKills: { Reset: "Daily" } });
			task.wait(1); // the start: the layout and the erasures index read
			const reads = gate!.dataStore.standard.calls("GetAsync");
			const updates = gate!.dataStore.standard.calls("UpdateAsync");
			// The first erase() on the server: 1 read per Reset board (its periods), 2 UpdateAsync (index, record).
			boards.erase("42");
			expect(gate!.dataStore.standard.calls("GetAsync") - reads).toBe(1);
			expect(gate!.dataStore.standard.calls("UpdateAsync") - updates).toBe(2);
			// Hidden from scores() as from every read (issue 47), while the stores still hold it.
			expect(boards.scores("Kills", ["42", "7"])).toEqual(new Map([["7", 5]]));
			expect(boards.scores("DailyKills", [42])).toEqual(new Map());
			expect(waitFor(() => boards.erasure("42")?.State === "done", 300, 5)).toBe(true);
			boards.destroy();
		},
		10 * MINUTES,
	);

	it(
		"erasing a key no board holds is a report, not an error",
		() => {
			gate!.calendar.set(NOW);
			const { boards } = boardsAt(undefined, { Kills: {} });
			const report = boards.erase("nobody");
			expect(report.State).toBe("pending");
			expect(report.Remaining).toEqual(["CKBoard_Kills"]);
			expect(waitFor(() => boards.erasure("nobody")?.State === "done", 300, 5)).toBe(true);
			expect(boards.erasure("somebody else")).toBeUndefined();
			boards.destroy();
		},
		10 * MINUTES,
	);
});
