import { afterEach, describe, expect, it } from "@rbxts/jest-globals";
import { DataStoreService } from "@rbxts/services";
import { Kernel } from "../../kernel";
import {
	Backend,
	BoardConfig,
	Entry,
	LeaderboardOptions,
	OrderedStores,
	Topics,
	attach,
	memoryStoreBackend,
	orderedDataStoreBackend,
} from "../../plugins/leaderboards";
import { WRITERS_KEPT, periodAt, sumItem } from "../../plugins/leaderboards/internal";
import { GateServer, headlessGate } from "../gate/control";
import { captureLogs } from "../kernel/doubles";
import { MemoryBackend, boardsWith } from "./doubles";

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

const SUNDAY = 1796515200; // 2026-12-06 00:00 UTC
const HOUR = 3600;
const DAY = 86400;

// Boards on a hand-moved calendar: `clock.now` is the Unix time submits and reads see.
function periodic(
	boards: Record<string, BoardConfig>,
	options: Partial<LeaderboardOptions> & { backend?: MemoryBackend } = {},
) {
	const clock = { now: SUNDAY - 1, calls: 0 };
	const made = boardsWith({
		Boards: boards,
		UnixTime: () => {
			clock.calls += 1;
			return clock.now;
		},
		...options,
	});
	return { ...made, clock };
}

describe("periodic boards", () => {
	describe("a value belongs to the period it was submitted in", () => {
		it("a value submitted a second before midnight and written after it goes to the day it came from", () => {
			const { boards, backend, clock } = periodic({ Daily: { Reset: "Daily" } });
			boards.submit("Daily", "a", 10);
			clock.now = SUNDAY + 1;
			boards.submit("Daily", "a", 3);
			boards.submit("Daily", "b", 4);
			expect(boards._flush().Written).toBe(3);
			expect(backend.get("Daily@2026-12-05", "a")).toBe(10);
			expect(backend.get("Daily@2026-12-06", "a")).toBe(3);
			expect(backend.get("Daily@2026-12-06", "b")).toBe(4);
			expect(backend.get("Daily", "a")).toBe(undefined);
		});

		it("keep-best merges within a period, never across one", () => {
			const { boards, backend, clock } = periodic({ Daily: { Reset: "Daily" } });
			boards.submit("Daily", "a", 10);
			boards.submit("Daily", "a", 8);
			clock.now = SUNDAY;
			boards.submit("Daily", "a", 2);
			boards.submit("Daily", "a", 5);
			boards._flush();
			expect(backend.get("Daily@2026-12-05", "a")).toBe(10);
			expect(backend.get("Daily@2026-12-06", "a")).toBe(5);
		});

		it("a failed write goes back to its own period, even after the roll", () => {
			const backend = new MemoryBackend();
			backend.failWrites = 1;
			const { boards, clock } = periodic({ Daily: { Reset: "Daily" } }, { backend });
			boards.submit("Daily", "a", 10);
			expect(boards._flush().Failed).toBe(1);
			clock.now = SUNDAY + HOUR;
			boards.submit("Daily", "a", 1);
			boards._flush();
			expect(backend.get("Daily@2026-12-05", "a")).toBe(10);
			expect(backend.get("Daily@2026-12-06", "a")).toBe(1);
		});

		it("hour, week, month and year boards roll at their own boundaries", () => {
			const { boards, backend, clock } = periodic({
				H: { Reset: "Hourly" },
				W: { Reset: "Weekly", WeekStart: "Sunday" },
				M: { Reset: "Monthly" },
				Y: { Reset: "Yearly", ResetOffset: -9 * HOUR },
			});
			clock.now = SUNDAY + 26 * DAY - 1; // 2026-12-31 23:59:59
			for (const board of ["H", "W", "M", "Y"]) boards.submit(board, "a", 1);
			clock.now = SUNDAY + 26 * DAY; // 2027-01-01 00:00
			for (const board of ["H", "W", "M", "Y"]) boards.submit(board, "a", 2);
			while (boards._flush().Attempted > 0);
			expect(backend.get("H@2026-12-31T23", "a")).toBe(1);
			expect(backend.get("H@2027-01-01T00", "a")).toBe(2);
			expect(backend.get("W@2026-12-27", "a")).toBe(2); // one week, best of both
			expect(backend.get("M@2026-12", "a")).toBe(1);
			expect(backend.get("M@2027-01", "a")).toBe(2);
			expect(backend.get("Y@2027", "a")).toBe(2); // 09:00 in UTC+9: the new year began at 15:00 UTC
		});

		it("a board with nothing pending at the roll costs nothing: no clock read, no backend call, no timer", () => {
			const { boards, backend, clock, kernel } = periodic({ Daily: { Reset: "Daily" } }, { SkipLoop: false });
			boards.submit("Daily", "a", 1);
			task.wait(30);
			expect(backend.writes.size()).toBe(1);
			const reads = clock.calls;
			clock.now = SUNDAY + DAY * 3;
			task.wait(60);
			expect(clock.calls).toBe(reads);
			expect(backend.writes.size()).toBe(1);
			expect(kernel.Scheduler.pending()).toBe(0);
		});

		it("an all-time board never reads the calendar", () => {
			const { boards, clock, backend } = periodic({ Kills: {} });
			boards.submit("Kills", "a", 1);
			boards._flush();
			boards.top("Kills");
			expect(clock.calls).toBe(0);
			expect(backend.get("Kills", "a")).toBe(1);
		});
	});

	describe("reads", () => {
		const seeded = () => {
			const backend = new MemoryBackend();
			backend.storeOf("Daily@2026-12-05").set("old", 5);
			backend.storeOf("Daily@2026-12-06").set("new", 7);
			backend.storeOf("Daily@2026-11-30").set("older", 9);
			return periodic({ Daily: { Reset: "Daily" }, Kills: {} }, { backend });
		};

		it("top reads the current period by default, the previous one or a period id on request", () => {
			const { boards, clock } = seeded();
			clock.now = SUNDAY + 10;
			expect(boards.top("Daily")).toEqual([{ Key: "new", Value: 7, Rank: 1 }]);
			expect(boards.top("Daily", 10, "current")).toEqual([{ Key: "new", Value: 7, Rank: 1 }]);
			expect(boards.top("Daily", 10, "previous")).toEqual([{ Key: "old", Value: 5, Rank: 1 }]);
			expect(boards.top("Daily", 10, "2026-11-30")).toEqual([{ Key: "older", Value: 9, Rank: 1 }]);
		});

		it("each period has its own cache; the roll moves the default read to the new period", () => {
			const { boards, clock, backend } = seeded();
			boards.top("Daily");
			boards.top("Daily", undefined, "previous");
			boards.top("Daily");
			expect(backend.sortedCalls).toBe(2);
			clock.now = SUNDAY;
			// Yesterday's "current" page is today's "previous": already cached.
			expect(boards.top("Daily", undefined, "previous")).toEqual([{ Key: "old", Value: 5, Rank: 1 }]);
			expect(backend.sortedCalls).toBe(2);
			expect(boards.top("Daily")).toEqual([{ Key: "new", Value: 7, Rank: 1 }]);
			expect(backend.sortedCalls).toBe(3);
		});

		it("Leaderboard.Updated carries the period id (nil on an all-time board)", () => {
			const { boards, kernel, clock } = seeded();
			clock.now = SUNDAY;
			const updates = new Array<[string, Entry[], string | undefined]>();
			kernel.Bus.subscribe(Topics.Updated, (_, name, entries, period) =>
				updates.push([name as string, entries as Entry[], period as string | undefined]),
			);
			boards.top("Daily", undefined, "previous");
			boards.top("Kills");
			expect(updates.size()).toBe(2);
			expect(updates[0]).toEqual(["Daily", [{ Key: "old", Value: 5, Rank: 1 }], "2026-12-05"]);
			expect(updates[1]).toEqual(["Kills", [], undefined]);
		});

		it("scores reads a period too", () => {
			const { boards, clock } = seeded();
			clock.now = SUNDAY;
			expect(boards.scores("Daily", ["new", "old"])).toEqual(new Map([["new", 7]]));
			expect(boards.scores("Daily", ["new", "old"], "previous")).toEqual(new Map([["old", 5]]));
		});

		it("an id that names no period, or a period of an all-time board, is an error naming it", () => {
			const { boards } = seeded();
			expect(() => boards.top("Daily", 10, "2026-02-30")).toThrow(
				'Leaderboards: Daily has no period "2026-02-30" (a Daily id looks like "1970-01-01")',
			);
			expect(() => boards.top("Daily", 10, "yesterday")).toThrow('Daily has no period "yesterday"');
			expect(() => boards.top("Kills", 10, "previous")).toThrow(
				'Leaderboards: Kills is an all-time board; it has no period "previous"',
			);
			expect(() => boards.scores("Daily", ["a"], 5 as unknown as string)).toThrow(
				'a period is "current", "previous" or a period id (got 5)',
			);
		});

		it("period() and secondsUntilRoll() for a UI countdown and yesterday's winners", () => {
			const { boards, clock } = periodic({ Daily: { Reset: "Daily", ResetOffset: 4 * HOUR }, Kills: {} });
			clock.now = SUNDAY + HOUR;
			expect(boards.secondsUntilRoll("Daily")).toBe(3 * HOUR);
			expect(boards.period("Daily")).toEqual({
				Id: "2026-12-05",
				Start: SUNDAY - DAY + 4 * HOUR,
				Finish: SUNDAY + 4 * HOUR,
			});
			expect(boards.period("Daily", "previous")?.Id).toBe("2026-12-04");
			expect(boards.period("Daily", "nope")).toBe(undefined);
			expect(boards.secondsUntilRoll("Kills")).toBe(undefined);
			expect(boards.period("Kills")).toBe(undefined);
			expect(boards.secondsUntilRoll("Nope")).toBe(undefined);
		});

		it("keeps a few pages per board: reading many past periods does not grow the cache forever", () => {
			const { boards, backend, clock } = seeded();
			clock.now = SUNDAY;
			for (let day = 1; day <= 6; day++) boards.top("Daily", 10, string.format("2026-11-%02d", day));
			const before = backend.sortedCalls;
			boards.top("Daily", 10, "2026-11-06"); // recent: cached
			expect(backend.sortedCalls).toBe(before);
			boards.top("Daily", 10, "2026-11-01"); // pushed out: read again
			expect(backend.sortedCalls).toBe(before + 1);
		});
	});

	describe("attach checks the new fields, naming them", () => {
		const attachWith =
			(config: object, options: Partial<LeaderboardOptions> = {}) =>
			() =>
				attach(new Kernel({ bindToClose: false }), {
					Boards: { B: config as BoardConfig },
					Backend: new MemoryBackend().asSetBackend(),
					...options,
				} as LeaderboardOptions);

		it("Reset, ResetOffset and WeekStart", () => {
			expect(attachWith({ Reset: "daily" })).toThrow(
				'options.Boards.B.Reset must be one of "Hourly", "Daily", "Weekly", "Monthly", "Yearly" (got "daily")',
			);
			expect(attachWith({ ResetOffset: 60 })).toThrow("options.Boards.B.ResetOffset needs Reset (got 60)");
			expect(attachWith({ Reset: "Daily", ResetOffset: 86400 })).toThrow(
				"options.Boards.B.ResetOffset must be whole seconds from -86399 to 86399 on a Daily board (got 86400)",
			);
			expect(attachWith({ Reset: "Hourly", ResetOffset: -60 })).toThrow(
				"options.Boards.B.ResetOffset must be whole seconds from 0 to 3599 on a Hourly board (got -60)",
			);
			expect(attachWith({ Reset: "Daily", ResetOffset: 0.5 })).toThrow("ResetOffset must be whole seconds");
			expect(attachWith({ Reset: "Daily", WeekStart: "Monday" })).toThrow(
				'options.Boards.B.WeekStart needs Reset = "Weekly" (got "Monday")',
			);
			expect(attachWith({ Reset: "Weekly", WeekStart: "Mon" })).toThrow(
				'options.Boards.B.WeekStart must be one of "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday" (got "Mon")',
			);
			expect(attachWith({ Reset: "Weekly", WeekStart: "Sunday", ResetOffset: -3600 })).never.toThrow();
			expect(attachWith({ Retention: 60 })).toThrow("options.Boards.B.Retention needs Reset (got 60)");
			expect(attachWith({ Reset: "Daily", Retention: 0 })).toThrow(
				"options.Boards.B.Retention must be a positive number (got 0)",
			);
		});

		it("Sum and NegativeDeltas", () => {
			expect(attachWith({ Sum: "yes" })).toThrow('options.Boards.B.Sum must be a boolean (got "yes")');
			expect(attachWith({ Sum: true, KeepBest: false })).toThrow(
				"options.Boards.B.KeepBest does not apply to a Sum board (got false)",
			);
			expect(attachWith({ NegativeDeltas: true })).toThrow(
				"options.Boards.B.NegativeDeltas applies only to a Sum board (got true)",
			);
			const submitOnly = { submit: () => true, sorted: () => [] } as unknown as Backend;
			expect(attachWith({ Sum: true }, { Backend: submitOnly })).toThrow(
				"options.Boards.B.Sum needs a backend with set() or sums = true (got true)",
			);
			expect(attachWith({ Sum: true }, { Backend: { ...submitOnly, sums: true } })).never.toThrow();
		});

		it("UnixTime, and store names within 50 characters with the longest period id", () => {
			expect(attachWith({}, { UnixTime: 5 as unknown as () => number })).toThrow(
				"options.UnixTime must be a function (got 5)",
			);
			const name = string.rep("B", 27); // CKBoard_ (8) + 27 + @ + 13 = 49 ... 28 is over
			expect(() =>
				attach(new Kernel({ bindToClose: false }), { Boards: { [name]: { Reset: "Hourly" } } }),
			).never.toThrow();
			const long = name + "BB";
			expect(() =>
				attach(new Kernel({ bindToClose: false }), { Boards: { [long]: { Reset: "Daily" } } }),
			).toThrow(
				`options.Boards.${long} makes a store name over 50 characters (got "CKBoard_${long}@0000000000000")`,
			);
		});
	});
});

describe("sum boards", () => {
	it("a burst of 1,000 kills is one pending sum and one write; the write adds to the stored total", () => {
		const { boards, backend } = boardsWith({ Boards: { Kills: { Sum: true } } });
		backend.storeOf("Kills").set("a", 50);
		for (let i = 0; i < 1000; i++) boards.submit("Kills", "a", 1);
		expect(boards.Stats.Submitted).toBe(1000);
		const window = boards._flush();
		expect(window.Attempted).toBe(1);
		expect(backend.get("Kills", "a")).toBe(1050);
		boards.submit("Kills", "a", 5);
		boards._flush();
		expect(backend.get("Kills", "a")).toBe(1055);
	});

	it("a failed write puts its sum back, added to anything newer", () => {
		const backend = new MemoryBackend();
		backend.writeSeconds = 1;
		backend.failWrites = 1;
		const { boards } = boardsWith({ backend, Boards: { Coins: { Sum: true } } });
		boards.submit("Coins", "a", 10);
		task.delay(0.5, () => boards.submit("Coins", "a", 7));
		expect(boards._flush().Failed).toBe(1);
		boards._flush();
		expect(backend.get("Coins", "a")).toBe(17);
	});

	it("negative values are refused with one warning, unless NegativeDeltas allows them", () => {
		const logs = captureLogs();
		const { boards, backend } = boardsWith({
			Boards: { Coins: { Sum: true }, Balance: { Sum: true, NegativeDeltas: true } },
		});
		expect(boards.submit("Coins", "a", -3)).toBe(false);
		expect(boards.submit("Coins", "a", -3)).toBe(false);
		expect(boards.submit("Balance", "a", 10)).toBe(true);
		expect(boards.submit("Balance", "a", -13)).toBe(true);
		logs.restore();
		boards._flush();
		expect(backend.get("Balance", "a")).toBe(-3);
		expect(backend.get("Coins", "a")).toBe(undefined);
		expect(logs.messages("warn")).toEqual([
			"[Leaderboards] Coins: submit refused, negative value (a Sum board adds values: NegativeDeltas = true lets them subtract); this warning shows once per board",
		]);
	});

	it("a backend that declares sums gets them through submit, with the sum flag", () => {
		const memory = new MemoryBackend();
		const backend = memory.asSubmitBackend();
		const calls = new Array<unknown[]>();
		const { boards } = boardsWith({
			backend: memory,
			Backend: {
				...backend,
				sums: true,
				submit: (store, key, value, keepBest, ascending, sum, write) => {
					calls.push([store, key, value, keepBest, ascending, sum, write?.Failures]);
					return true;
				},
			},
			Boards: { Kills: { Sum: true }, Best: {} },
		});
		boards.submit("Kills", "a", 2);
		boards.submit("Kills", "a", 3);
		boards.submit("Best", "a", 3);
		boards._flush();
		expect(calls).toEqual([
			["Best", "a", 3, true, false, false, 0],
			["Kills", "a", 5, true, false, true, 0],
		]);
	});

	it("a backend's submit also gets the board's merge rule as data, and the call's Clock and deadline, on the write record", () => {
		const memory = new MemoryBackend();
		const seen = new Array<unknown[]>();
		const { boards } = boardsWith({
			backend: memory,
			Clock: () => 100,
			RequestSeconds: 7,
			Backend: {
				...memory.asSubmitBackend(),
				sums: true,
				submit: (store, _key, value, _keepBest, _ascending, _sum, write) => {
					const rule = write!.Rule;
					seen.push([
						store,
						rule.Kind,
						rule.Ascending,
						rule.write(10, value),
						write!.Clock(),
						write!.Deadline,
					]);
					return true;
				},
			},
			Boards: { Kills: { Sum: true }, Best: {}, Time: { Ascending: true }, Last: { KeepBest: false } },
		});
		for (const board of ["Kills", "Best", "Time", "Last"] as const) boards.submit(board, "a", 4);
		boards._flush();
		expect(seen).toEqual([
			["Best", "KeepBest", false, undefined, 100, 107],
			["Kills", "Sum", false, 14, 100, 107],
			["Last", "KeepNewest", false, 4, 100, 107],
			["Time", "KeepBest", true, 4, 100, 107],
		]);
	});

	it("a submit backend that does not declare sums: Sum boards write through set", () => {
		const memory = new MemoryBackend();
		memory.storeOf("Kills").set("a", 1);
		const backend = memory.asSubmitBackend();
		const { boards } = boardsWith({ backend: memory, Backend: backend, Boards: { Kills: { Sum: true } } });
		boards.submit("Kills", "a", 4);
		boards._flush();
		expect(backend.submitted.size()).toBe(0);
		expect(memory.get("Kills", "a")).toBe(5);
	});

	it("a daily sum board: kills before midnight written after it count for the day they happened", () => {
		const { boards, backend, clock } = periodic({ DailyKills: { Reset: "Daily", Sum: true } });
		boards.submit("DailyKills", "a", 1);
		boards.submit("DailyKills", "a", 1);
		clock.now = SUNDAY;
		boards.submit("DailyKills", "a", 1);
		boards._flush();
		expect(backend.get("DailyKills@2026-12-05", "a")).toBe(2);
		expect(backend.get("DailyKills@2026-12-06", "a")).toBe(1);
	});
	it("a write carries its Lifetime: until its period ends plus Retention, by default one period", () => {
		// By store: a Reset board's first write waits for the manifest to list its period, so writes land in any order.
		const lifetimes = new Map<string, number | string>();
		const memory = new MemoryBackend();
		const { boards, clock } = periodic(
			{ Hourly: { Reset: "Hourly" }, Monthly: { Reset: "Monthly", Retention: 60 }, Kills: {} },
			{
				backend: memory,
				Backend: {
					...memory.asSetBackend(),
					submit: (store, _key, _value, _keepBest, _ascending, _sum, write) => {
						lifetimes.set(store.split("@")[0], write?.Lifetime ?? "none");
						return true;
					},
				},
			},
		);
		clock.now = SUNDAY + HOUR - 10;
		for (const board of ["Hourly", "Kills", "Monthly"]) boards.submit(board, "a", 1);
		clock.now += 4; // the window runs a little later: the lifetime counts from the write
		boards._flush();
		// December ends 2027-01-01.
		expect(lifetimes).toEqual(
			new Map<string, number | string>([
				["Hourly", 6 + HOUR],
				["Kills", "none"],
				["Monthly", 26 * DAY - HOUR + 6 + 60],
			]),
		);
	});
});

describeGate("periodic and sum boards on OrderedDataStores (the gate's DataStoreService)", () => {
	afterEach(() => gate!.reset());

	const boardsOn = (stores: OrderedStores, unixTime: () => number) =>
		attach(new Kernel({ bindToClose: false }), {
			Boards: { DailyBest: { Reset: "Daily" }, DailyKills: { Reset: "Daily", Sum: true }, Kills: { Sum: true } },
			Backend: orderedDataStoreBackend("CKBoard_", stores),
			UnixTime: unixTime,
			SkipLoop: true,
		});

	it("several servers: values submitted before the roll and written after it land in the old day's store", () => {
		gate!.reset();
		const clock = { now: SUNDAY + DAY - 2 };
		const time = () => clock.now;
		const a = boardsOn(gate!.newServer().game.GetService("DataStoreService"), time);
		const b = boardsOn(gate!.newServer().game.GetService("DataStoreService"), time);
		a.submit("DailyBest", "p1", 30);
		b.submit("DailyBest", "p1", 40);
		a.submit("DailyKills", "p1", 3);
		b.submit("DailyKills", "p1", 4);
		clock.now = SUNDAY + DAY + 5; // the roll passes before either window runs
		a.submit("DailyKills", "p1", 1);
		b.submit("DailyBest", "p1", 7);
		a._flush();
		b._flush();
		expect(gate!.dataStore.snapshot("CKBoard_DailyBest@2026-12-06")).toEqual(new Map([["p1", 40]]));
		expect(gate!.dataStore.snapshot("CKBoard_DailyKills@2026-12-06")).toEqual(new Map([["p1", 7]]));
		expect(gate!.dataStore.snapshot("CKBoard_DailyKills@2026-12-07")).toEqual(new Map([["p1", 1]]));
		expect(gate!.dataStore.snapshot("CKBoard_DailyBest@2026-12-07")).toEqual(new Map([["p1", 7]]));
		expect(a.top("DailyKills", 10, "previous")).toEqual([{ Key: "p1", Value: 7, Rank: 1 }]);
		expect(b.top("DailyBest")).toEqual([{ Key: "p1", Value: 7, Rank: 1 }]);
	});

	it("sums from several servers add up in UpdateAsync, none lost", () => {
		gate!.reset();
		const time = () => SUNDAY;
		const servers = [1, 2, 3].map(() => boardsOn(gate!.newServer().game.GetService("DataStoreService"), time));
		for (const boards of servers) for (let i = 0; i < 100; i++) boards.submit("Kills", "p1", 2);
		for (const boards of servers) task.spawn(() => boards._flush());
		task.wait(1);
		expect(gate!.dataStore.snapshot("CKBoard_Kills").get("p1")).toBe(600);
		expect(gate!.dataStore.calls("UpdateAsync")).toBe(3);
	});

	it("OrderedDataStore sums are at-least-once: a write that failed but landed is added again", () => {
		gate!.reset();
		const boards = boardsOn(DataStoreService, () => SUNDAY);
		gate!.dataStore.fault({ method: "UpdateAsync", failNext: 1, landed: true });
		boards.submit("Kills", "p1", 5);
		expect(boards._flush().Failed).toBe(1);
		expect(gate!.dataStore.snapshot("CKBoard_Kills").get("p1")).toBe(5); // it landed
		expect(boards._flush().Written).toBe(1);
		// No version, no metadata on an ordered store: the retry cannot know, so the 5 counts twice.
		expect(gate!.dataStore.snapshot("CKBoard_Kills").get("p1")).toBe(10);
	});

	it("keep-best writes that failed but landed are harmless: the retry writes the same best", () => {
		gate!.reset();
		const boards = boardsOn(DataStoreService, () => SUNDAY);
		gate!.dataStore.fault({ method: "UpdateAsync", failNext: 1, landed: true });
		boards.submit("DailyBest", "p1", 5);
		boards._flush();
		boards._flush();
		expect(gate!.dataStore.snapshot("CKBoard_DailyBest@2026-12-06").get("p1")).toBe(5);
	});

	it("the default time source is os.time", () => {
		const boards = attach(new Kernel({ bindToClose: false }), {
			Boards: { Hourly: { Reset: "Hourly" } },
			SkipLoop: true,
		});
		const rule = { Reset: "Hourly" as const, ResetOffset: 0, WeekStart: 1 };
		expect(boards.period("Hourly")).toEqual(periodAt(rule, os.time()));
		expect(boards.secondsUntilRoll("Hourly")).toBe(periodAt(rule, os.time()).Finish - os.time());
	});

	it("the flush loop on the virtual clock: submitted 5 s before midnight, written by the window 10 s after it", () => {
		gate!.reset();
		// The calendar runs with the virtual clock, placed 5 s before a midnight.
		const shift = SUNDAY + DAY - 5 - os.time();
		const kernel = new Kernel({ bindToClose: false });
		const boards = attach(kernel, {
			Boards: { DailyBest: { Reset: "Daily" } },
			FlushSeconds: 15,
			UnixTime: () => os.time() + shift,
		});
		boards.submit("DailyBest", "p1", 9);
		task.wait(20);
		expect(boards.period("DailyBest")!.Id).toBe("2026-12-07");
		expect(gate!.dataStore.snapshot("CKBoard_DailyBest@2026-12-06")).toEqual(new Map([["p1", 9]]));
		expect(gate!.dataStore.snapshot("CKBoard_DailyBest@2026-12-07")).toEqual(new Map());
		expect(boards.top("DailyBest")).toEqual([]);
		expect(boards.top("DailyBest", 10, "previous")).toEqual([{ Key: "p1", Value: 9, Rank: 1 }]);
	});
});

describeGate("periodic and sum boards on the MemoryStore backend", () => {
	afterEach(() => gate!.reset());

	const onMemoryStore = (boards: Record<string, BoardConfig>, unixTime: () => number, server?: GateServer) =>
		attach(new Kernel({ bindToClose: false }), {
			Boards: boards,
			Backend: memoryStoreBackend(
				server
					? {
							MemoryStoreService: server.game.GetService("MemoryStoreService"),
							Players: server.game.GetService("Players"),
						}
					: {},
			),
			UnixTime: unixTime,
			SkipLoop: true,
		});
	const items = (name: string) => gate!.memoryStore.snapshot(name).map((item) => [item.key, item.sortKey]);

	it("each period has its own sorted map; a value submitted before midnight and written after it goes to its day", () => {
		gate!.reset();
		const clock = { now: SUNDAY - 1 };
		const boards = onMemoryStore({ Daily: { Reset: "Daily" } }, () => clock.now);
		boards.submit("Daily", "a", 10);
		clock.now = SUNDAY + 1;
		boards.submit("Daily", "a", 4);
		boards._flush();
		expect(items("CKBoard_Daily@2026-12-05")).toEqual([["a", 10]]);
		expect(items("CKBoard_Daily@2026-12-06")).toEqual([["a", 4]]);
		expect(boards.top("Daily", 10, "previous")).toEqual([{ Key: "a", Value: 10, Rank: 1 }]);
		expect(boards.top("Daily")).toEqual([{ Key: "a", Value: 4, Rank: 1 }]);
	});

	it("items expire when their period ends plus the board's Retention", () => {
		gate!.reset();
		// The calendar runs with the virtual clock, 10 s before a midnight.
		const shift = SUNDAY + DAY - 10 - os.time();
		const boards = onMemoryStore({ Daily: { Reset: "Daily", Retention: 60 } }, () => os.time() + shift);
		boards.submit("Daily", "a", 1);
		boards._flush();
		task.wait(65); // the day ended 55 s ago: within Retention
		expect(items("CKBoard_Daily@2026-12-06")).toEqual([["a", 1]]);
		task.wait(10);
		expect(items("CKBoard_Daily@2026-12-06")).toEqual([]);
	});

	it("sums from several servers add up in UpdateAsync, the total is the sort key", () => {
		gate!.reset();
		const servers = [1, 2, 3].map(() => onMemoryStore({ Kills: { Sum: true } }, () => SUNDAY, gate!.newServer()));
		for (const boards of servers) for (let i = 0; i < 100; i++) boards.submit("Kills", "p1", 2);
		for (const boards of servers) task.spawn(() => boards._flush());
		task.wait(1);
		expect(items("CKBoard_Kills")).toEqual([["p1", 600]]);
		expect(servers[0].top("Kills")).toEqual([{ Key: "p1", Value: 600, Rank: 1 }]);
		expect(servers[1].scores("Kills", ["p1"])).toEqual(new Map([["p1", 600]]));
	});

	it("MemoryStore sums are exactly once: a write that failed but landed is not added again", () => {
		gate!.reset();
		const boards = onMemoryStore({ Kills: { Sum: true } }, () => SUNDAY);
		gate!.memoryStore.fault({ method: "UpdateAsync", failNext: 1, landed: true });
		boards.submit("Kills", "p1", 5);
		expect(boards._flush().Failed).toBe(1);
		expect(items("CKBoard_Kills")).toEqual([["p1", 5]]); // it landed
		boards.submit("Kills", "p1", 3); // merged into the retry: 8 pending
		expect(boards._flush().Written).toBe(1);
		expect(items("CKBoard_Kills")).toEqual([["p1", 8]]);
		boards.submit("Kills", "p1", 1);
		boards._flush();
		expect(items("CKBoard_Kills")).toEqual([["p1", 9]]);
	});

	it("a chain of doubtful attempts: landed, then lost, then written, counts each kill once", () => {
		gate!.reset();
		const boards = onMemoryStore({ Kills: { Sum: true } }, () => SUNDAY);
		gate!.memoryStore.fault({ method: "UpdateAsync", failNext: 1, landed: true });
		boards.submit("Kills", "p1", 5);
		boards._flush(); // failed, landed: 5 stored
		gate!.memoryStore.fault({ method: "UpdateAsync", failNext: 1 });
		boards.submit("Kills", "p1", 2);
		boards._flush(); // 7 pending, failed, not landed
		boards.submit("Kills", "p1", 1);
		expect(boards._flush().Written).toBe(1); // 8 pending; 5 of it already counted
		expect(items("CKBoard_Kills")).toEqual([["p1", 8]]);
	});

	it("a failed write that did not land is added in full by its retry", () => {
		gate!.reset();
		const boards = onMemoryStore({ Kills: { Sum: true } }, () => SUNDAY);
		gate!.memoryStore.fault({ method: "UpdateAsync", failNext: 1 });
		boards.submit("Kills", "p1", 5);
		boards._flush();
		expect(items("CKBoard_Kills")).toEqual([]);
		boards._flush();
		expect(items("CKBoard_Kills")).toEqual([["p1", 5]]);
	});

	it("a write given up on that lands after its retry began is subtracted by the retry: each kill once", () => {
		gate!.reset();
		const boards = attach(new Kernel({ bindToClose: false }), {
			Boards: { Kills: { Sum: true } },
			Backend: memoryStoreBackend(),
			RequestSeconds: 2,
			SkipLoop: true,
		});
		gate!.latency.use({ "MemoryStore.UpdateAsync": { fixed: 5.5 } });
		boards.submit("Kills", "p1", 5);
		boards._flush(); // failed at 2 s; it lands at 5.5 s
		gate!.latency.use({ "MemoryStore.UpdateAsync": { fixed: 3 } });
		boards.submit("Kills", "p1", 3);
		task.wait(2.5); // given up at 4 s: the retry carries 8
		boards._flush(); // starts at 4.5 s; the first lands at 5.5 s, so the retry's update runs again: 10.5 s
		task.wait(5);
		expect(gate!.latency.peakInFlight("MemoryStore")).toBe(2);
		expect(items("CKBoard_Kills")).toEqual([["p1", 8]]);
		// The retry too was given up on (at 8.5 s) before it landed: its 8 is queued again, and the ledger knows it landed.
		boards.submit("Kills", "p1", 1);
		gate!.latency.use("frame");
		boards._flush();
		expect(items("CKBoard_Kills")).toEqual([["p1", 9]]);
	});

	it("a daily sum board rolls: kills before midnight written after it count for their day", () => {
		gate!.reset();
		const clock = { now: SUNDAY - 2 };
		const boards = onMemoryStore({ DailyKills: { Reset: "Daily", Sum: true } }, () => clock.now);
		boards.submit("DailyKills", "p1", 1);
		boards.submit("DailyKills", "p1", 1);
		clock.now = SUNDAY;
		boards.submit("DailyKills", "p1", 1);
		boards._flush();
		expect(items("CKBoard_DailyKills@2026-12-05")).toEqual([["p1", 2]]);
		expect(items("CKBoard_DailyKills@2026-12-06")).toEqual([["p1", 1]]);
	});

	it("the ledger in a sum item stays bounded: the last write of the 32 most recent servers", () => {
		let item: unknown = undefined;
		for (let i = 1; i <= 40; i++) item = sumItem(item, 1, [], `server${i}`, "1")!;
		const sum = item as { Total: number; Writers: Array<[string, string]> };
		expect(sum.Total).toBe(40);
		expect(sum.Writers.size()).toBe(WRITERS_KEPT);
		expect(sum.Writers[0]).toEqual(["server40", "1"]);
		// A plain number (a board that became a Sum board) is its starting total.
		expect(sumItem(7, 3, [], "s", "1")!.Total).toBe(10);
		// An attempt landing after a later one of its server (past RequestSeconds) is already counted in it.
		const later = sumItem(undefined, 5, [], "s", "12")!;
		expect(sumItem(later, 2, [], "s", "11")).toBe(undefined);
		expect(sumItem(later, 2, [], "t", "11")!.Total).toBe(7);
	});
});
