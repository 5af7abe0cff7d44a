import { describe, expect, it } from "@rbxts/jest-globals";
import { Kernel } from "../../kernel";
import { Backend, Entry, LeaderboardOptions, Subject, attach } from "../../plugins/leaderboards";
import { headlessGate } from "../gate/control";
import { captureLogs } from "../kernel/doubles";
import { MemoryBackend, boardsWith } from "./doubles";

// Issue 13: what a game's own bugs hand every public call, and what each does
// with it. Nothing junk is stored, submit never throws, and every refusal says
// what was refused, once per board and kind.

const gate = headlessGate();

const withToString = (text: string) => setmetatable({}, { __tostring: () => text });
const erroringToString = () => setmetatable({}, { __tostring: () => error("the game's __tostring broke") });

/** Subjects a game may pass: the key it is stored under, or the kind the refusal names. */
const SUBJECTS: [name: string, subject: () => unknown, key: string | undefined, refusal?: string][] = [
	["a string", () => "Guild of Foxes", "Guild of Foxes"],
	["a whole number", () => 17, "17"],
	["a negative whole number (a Studio test player)", () => -2, "-2"],
	["negative zero", () => -0, "0"],
	["a game's id type with __tostring", () => withToString("npc-7"), "npc-7"],
	["nil", () => undefined, undefined, "the subject is nil"],
	["NaN", () => 0 / 0, undefined, "the subject is a NaN number"],
	["infinity", () => math.huge, undefined, "the subject is an infinite number"],
	["a fractional number", () => 1.5, undefined, "the subject is a fractional number"],
	["a number past 2^53", () => 2 ** 60, undefined, "the subject is a number outside ±2^53"],
	["true", () => true, undefined, "the subject is a boolean"],
	["a plain table", () => ({}), undefined, "the subject is a table with no Player and no __tostring"],
	[
		"a session with no Player",
		() => ({ Profile: { Data: {} } }),
		undefined,
		"the subject is a table with no Player and no __tostring",
	],
	["a function", () => () => {}, undefined, "the subject is a function"],
	["a Folder", () => new Instance("Folder"), undefined, "the subject is a Folder, not a Player"],
	["a thread", () => coroutine.create(() => {}), undefined, "the subject is a thread"],
	["a __tostring that errors", erroringToString, undefined, "the subject is a value whose __tostring errors"],
	[
		"a session class whose __index errors",
		() =>
			setmetatable(
				{},
				{
					__index: () => error("strict class: no such field"),
				},
			),
		undefined,
		"the subject is a table with no Player and no __tostring",
	],
];

describe("submit(board, subject, value)", () => {
	for (const [name, subject, key, refusal] of SUBJECTS) {
		it(`${name}: ${key !== undefined ? `stored as "${key}"` : "refused with false and one warning per board"}`, () => {
			const { boards, backend } = boardsWith();
			const logs = captureLogs();
			const [ok, first] = pcall(() => boards.submit("Kills", subject() as Subject, 5));
			const second = boards.submit("Kills", subject() as Subject, 6);
			const other = boards.submit("BestTime", subject() as Subject, 7);
			logs.restore();
			expect(ok).toBe(true);
			boards._flush();
			if (key !== undefined) {
				expect([first, second, other]).toEqual([true, true, true]);
				expect(backend.get("Kills", key)).toBe(6);
				expect(logs.messages("warn")).toEqual([]);
			} else {
				expect([first, second, other]).toEqual([false, false, false]);
				expect(boards.Stats.Submitted).toBe(0);
				expect(backend.writes.size()).toBe(0);
				expect(logs.messages("warn")).toEqual([
					`[Leaderboards] Kills: submit refused, ${refusal} (submit a Player, this game's User, a session with a Player, a string, a whole number or a value with __tostring); this warning shows once per board`,
					`[Leaderboards] BestTime: submit refused, ${refusal} (submit a Player, this game's User, a session with a Player, a string, a whole number or a value with __tostring); this warning shows once per board`,
				]);
			}
		});
	}

	it("a Player and a session with a Player are their UserId", () => {
		if (!gate) return;
		const player = gate.players.join({ UserId: 4242 });
		const { boards, backend } = boardsWith();
		expect(boards.submit("Kills", player, 3)).toBe(true);
		expect(boards.submit("BestTime", { Player: player }, 9)).toBe(true);
		boards._flush();
		expect(backend.get("Kills", "4242")).toBe(3);
		expect(backend.get("BestTime", "4242")).toBe(9);
		gate.players.reset();
	});

	const VALUES: [string, unknown][] = [
		["nil", undefined],
		["a numeric string", "5"],
		["NaN", 0 / 0],
		["infinity", math.huge],
		["-infinity", -math.huge],
		["a number past 2^53", 2 ** 60],
		["a table", {}],
	];
	for (const [name, value] of VALUES) {
		it(`a value that is ${name}: false, nothing queued, never throws`, () => {
			const { boards } = boardsWith();
			const [ok, accepted] = pcall(() => boards.submit("Kills", "p1", value as number));
			expect([ok, accepted]).toEqual([true, false]);
			expect(boards.Stats.Submitted).toBe(0);
		});
	}

	const BOARDS: [string, unknown][] = [
		["nil", undefined],
		["a number", 1],
		["NaN", 0 / 0],
		["a table", {}],
		["an unknown name", "Nope"],
	];
	for (const [name, board] of BOARDS) {
		it(`a board that is ${name}: false, never throws`, () => {
			const { boards } = boardsWith();
			const [ok, accepted] = pcall(() => boards.submit(board as string, "p1", 5));
			expect([ok, accepted]).toEqual([true, false]);
		});
	}
});

describe("top(board, count)", () => {
	const seeded = () => {
		const backend = new MemoryBackend();
		for (let i = 1; i <= 3; i++) backend.storeOf("Kills").set(`p${i}`, i);
		return backend;
	};
	const COUNTS: [string, unknown, number][] = [
		["nil", undefined, 3],
		["NaN", 0 / 0, 3],
		["a string", "2", 3],
		["0", 0, 0],
		["negative", -4, 0],
		["fractional", 2.7, 2],
		["infinity", math.huge, 3],
	];
	for (const [name, count, size] of COUNTS) {
		it(`a count that is ${name} gives ${size} entries`, () => {
			const { boards } = boardsWith({ backend: seeded() });
			expect(boards.top("Kills", count as number).size()).toBe(size);
		});
	}

	for (const board of [undefined, 1, {}, "Nope"]) {
		it(`a board that is ${typeOf(board)} ${tostring(board)}: {}, no read`, () => {
			const { boards, backend } = boardsWith({ backend: seeded() });
			expect(boards.top(board as string)).toEqual([]);
			expect(backend.sortedCalls).toBe(0);
		});
	}

	it("rows from a custom sorted with a nil Key or a non-number Value are dropped, with one warning", () => {
		const backend = new MemoryBackend();
		backend.rawRows = [
			{ Key: "a", Value: 9 },
			{ Value: 8 },
			{ Key: "b", Value: "7" },
			{ Key: "c", Value: 0 / 0 },
			5,
			{ Key: "d", Value: 6 },
		];
		const { boards } = boardsWith({ backend });
		const logs = captureLogs();
		const entries = boards.top("Kills");
		logs.restore();
		expect(entries).toEqual([
			{ Key: "a", Value: 9, Rank: 1 },
			{ Key: "d", Value: 6, Rank: 2 },
		]);
		expect(logs.messages("warn")).toEqual([
			"[Leaderboards] Kills: top() dropped a row from the backend's sorted() with a Key that is not a string or a Value that is not a number; this warning shows once per board",
		]);
	});

	it("a custom sorted returning something that is not a table fails like a failed read", () => {
		const backend = new MemoryBackend();
		backend.rawRows = "oops";
		const { boards } = boardsWith({ backend });
		expect(boards.top("Kills")).toEqual([]);
	});
});

describe("a period for top() and scores() on a Reset board, and values for a Sum board", () => {
	const PERIODS: [name: string, period: unknown, message: string][] = [
		["a number", 5, 'a period is "current", "previous" or a period id (got 5)'],
		["a table", {}, 'a period is "current", "previous" or a period id (got table'],
		["an empty string", "", 'Daily has no period "" (a Daily id looks like "1970-01-01")'],
		["a date that does not exist", "2027-02-29", 'Daily has no period "2027-02-29"'],
		["an hourly id on a daily board", "2026-12-06T04", 'Daily has no period "2026-12-06T04"'],
	];
	for (const [name, period, message] of PERIODS) {
		it(`a period that is ${name} raises, naming it, and reads nothing`, () => {
			const { boards, backend } = boardsWith({ Boards: { Daily: { Reset: "Daily" } } });
			expect(() => boards.top("Daily", 10, period as string)).toThrow(message);
			expect(() => boards.scores("Daily", ["p1"], period as string)).toThrow(message);
			expect(backend.sortedCalls + backend.scoresCalls).toBe(0);
		});
	}

	it('"previous" on an all-time board raises; nil and "current" read the board', () => {
		const { boards } = boardsWith();
		expect(() => boards.top("Kills", 10, "previous")).toThrow("Kills is an all-time board");
		expect(boards.top("Kills", 10, "current")).toEqual([]);
		expect(boards.top("Kills")).toEqual([]);
	});

	const SUM_VALUES: [name: string, value: unknown, accepted: boolean][] = [
		["negative (no NegativeDeltas)", -1, false],
		["NaN", 0 / 0, false],
		["a number past 2^53", 2 ** 60, false],
		["a string", "1", false],
		["zero", 0, true],
	];
	for (const [name, value, accepted] of SUM_VALUES) {
		it(`a Sum board given ${name}: ${accepted ? "added" : "false, nothing queued, never throws"}`, () => {
			const { boards, backend } = boardsWith({ Boards: { Coins: { Sum: true } } });
			const logs = captureLogs();
			const [ok, result] = pcall(() => boards.submit("Coins", "p1", value as number));
			logs.restore();
			expect(ok).toBe(true);
			expect(result).toBe(accepted);
			boards._flush();
			expect(backend.get("Coins", "p1")).toBe(accepted ? value : undefined);
		});
	}
});

describe("scores(board, subjects)", () => {
	it("skips subjects with no storable key, says so once per board and kind, and reads the rest", () => {
		const backend = new MemoryBackend();
		backend.storeOf("Kills").set("1", 10);
		backend.storeOf("Kills").set("2", 20);
		const { boards } = boardsWith({ backend });
		const logs = captureLogs();
		const scores = boards.scores("Kills", ["1", 0 / 0, {} as Subject, "2", "", undefined as unknown as Subject]);
		boards.scores("Kills", [0 / 0]);
		logs.restore();
		expect(scores).toEqual(
			new Map([
				["1", 10],
				["2", 20],
			]),
		);
		expect(logs.messages("warn")).toEqual([
			"[Leaderboards] Kills: scores() skipped a subject, the subject is a NaN number; this warning shows once per board",
			"[Leaderboards] Kills: scores() skipped a subject, the subject is a table with no Player and no __tostring; this warning shows once per board",
			"[Leaderboards] Kills: scores() skipped a subject, empty key; this warning shows once per board",
		]);
	});

	it("on the default backend a key over 50 characters is skipped instead of failing the whole read", () => {
		if (!gate) return;
		gate.reset();
		game.GetService("DataStoreService").GetOrderedDataStore("CKBoard_Kills").SetAsync("1", 4);
		const boards = attach(new Kernel({ bindToClose: false }), { Boards: { Kills: {} }, SkipLoop: true });
		const logs = captureLogs();
		const scores = boards.scores("Kills", ["1", string.rep("k", 51)]);
		logs.restore();
		expect(scores).toEqual(new Map([["1", 4]]));
		expect(logs.messages("warn")).toEqual([
			"[Leaderboards] Kills: scores() skipped a subject, key longer than 50 characters; this warning shows once per board",
		]);
		gate.reset();
	});

	it("subjects that are not a table raise an error naming the argument; an unknown board gives {}", () => {
		const { boards } = boardsWith();
		expect(() => boards.scores("Kills", undefined as unknown as Subject[])).toThrow(
			"Leaderboards: scores() takes an array of subjects (got nil)",
		);
		expect(boards.scores("Nope", ["1"])).toEqual(new Map());
		expect(boards.scores("Kills", [])).toEqual(new Map());
	});
});

describe("names(entries)", () => {
	it("entries that are not a table raise an error naming the argument", () => {
		const { boards } = boardsWith();
		expect(() => boards.names(undefined as unknown as Entry[])).toThrow(
			"Leaderboards: names() takes an array of entries (got nil)",
		);
	});

	it("rows that are not tables, or whose Key is not a UserId string, cost nothing and stay as they are", () => {
		let calls = 0;
		const { boards } = boardsWith({
			UserService: {
				GetUserInfosByUserIdsAsync(ids: number[]) {
					calls += 1;
					return ids.map((id) => ({ Id: id, Username: `u${id}`, DisplayName: `U${id}` }));
				},
			},
		});
		const rows = [5, { Key: 7 }, { Key: "guild" }, { Key: "1.5" }, { Key: "-3" }, {}] as unknown as Entry[];
		expect(boards.names(rows)).toBe(rows);
		expect(calls).toBe(0);
		expect(rows[1]).toEqual({ Key: 7 });
	});
});

describe("flushNow() and destroy()", () => {
	it("flushNow() while a flush runs returns nil; after destroy() it writes nothing and does not throw", () => {
		const backend = new MemoryBackend();
		backend.writeSeconds = 1;
		const { boards } = boardsWith({ backend });
		boards.submit("Kills", "p1", 1);
		task.spawn(() => boards.flushNow());
		expect(boards.flushNow()).toBeUndefined();
		task.wait(2);
		boards.destroy();
		const [ok] = pcall(() => boards.flushNow());
		expect(ok).toBe(true);
		expect(backend.writes.size()).toBe(1);
	});

	it("destroy() twice, or from several threads, gives one frozen result", () => {
		const { boards } = boardsWith();
		boards.submit("Kills", "p1", 1);
		let other: unknown;
		task.spawn(() => (other = boards.destroy()[1]));
		const [complete, result] = boards.destroy();
		const [, again] = boards.destroy();
		expect(complete).toBe(true);
		expect(again).toBe(result);
		expect(other).toBe(result);
		expect(table.isfrozen(result)).toBe(true);
		expect(boards.submit("Kills", "p2", 1)).toBe(false);
	});
});

describe("attach(kernel, options) refuses, naming the field", () => {
	const memory = () => new MemoryBackend().asSetBackend();
	const REFUSED: [name: string, options: () => Partial<LeaderboardOptions> | unknown, message: string][] = [
		["options that are not a table", () => "fast", 'options must be a table (got "fast")'],
		[
			"a fractional WritesPerFlush",
			() => ({ WritesPerFlush: 2.5 }),
			"options.WritesPerFlush must be a positive integer (got 2.5)",
		],
		[
			"a WritesPerFlush below 1",
			() => ({ WritesPerFlush: 0.5 }),
			"options.WritesPerFlush must be a positive integer (got 0.5)",
		],
		[
			"a NaN FlushSeconds",
			() => ({ FlushSeconds: 0 / 0 }),
			"options.FlushSeconds must be a positive number (got nan)",
		],
		[
			"a RequestSeconds of infinity",
			() => ({ RequestSeconds: math.huge }),
			"options.RequestSeconds must be a positive number (got inf)",
		],
		[
			"a fractional WritesInFlight",
			() => ({ WritesInFlight: 1.5 }),
			"options.WritesInFlight must be a positive integer (got 1.5)",
		],
		[
			"a WritesInFlight of 0",
			() => ({ WritesInFlight: 0 }),
			"options.WritesInFlight must be a positive integer (got 0)",
		],
		[
			"a WritesInFlight of infinity",
			() => ({ WritesInFlight: math.huge }),
			"options.WritesInFlight must be a positive integer (got inf)",
		],
		[
			"a MaxWriteAttempts of 0",
			() => ({ MaxWriteAttempts: 0 }),
			"options.MaxWriteAttempts must be a positive integer (got 0)",
		],
		[
			"a string ShutdownSeconds",
			() => ({ ShutdownSeconds: "10" }),
			'options.ShutdownSeconds must be finite and not negative (got "10")',
		],
		[
			"a StorePrefix that is not a string",
			() => ({ Backend: undefined, StorePrefix: 5 }),
			"options.StorePrefix must be a string (got 5)",
		],
		["a SkipLoop that is not a boolean", () => ({ SkipLoop: 1 }), "options.SkipLoop must be a boolean (got 1)"],
		[
			"a Backend whose budget is not a function",
			() => ({ Backend: { ...memory(), budget: 30 } }),
			"options.Backend.budget must be a function (got 30)",
		],
		[
			"a Backend whose scores is not a function",
			() => ({ Backend: { ...memory(), scores: true } }),
			"options.Backend.scores must be a function (got true)",
		],
		[
			"a Backend whose set is not a function",
			() => ({ Backend: { ...memory(), set: "UpdateAsync" } }),
			'options.Backend.set must be a function (got "UpdateAsync")',
		],
		[
			"a Backend whose maxKeyLength is fractional",
			() => ({ Backend: { ...memory(), maxKeyLength: 4.5 } }),
			"options.Backend.maxKeyLength must be a positive integer (got 4.5)",
		],
		[
			"a Backend whose integers is not a boolean",
			() => ({ Backend: { ...memory(), integers: "yes" } }),
			'options.Backend.integers must be a boolean (got "yes")',
		],
		["a Backend that is a function", () => ({ Backend: () => {} }), "options.Backend must be a table of functions"],
		[
			"a Stages that is not a table",
			() => ({ Stages: 5 }),
			"options.Stages must be a table of stage factories (got 5)",
		],
		[
			"a Stages entry that is not a function",
			() => ({ Stages: { Reader: {} } }),
			"options.Stages.Reader must be a function (context) -> stage",
		],
		[
			"an unknown key inside Stages",
			() => ({ Stages: { Flush: () => undefined } }),
			"options.Stages.Flush is not an option",
		],
		["a Clock that is not a function", () => ({ Clock: 5 }), "options.Clock must be a function (got 5)"],
		[
			"a Clock that returns nil",
			() => ({ Clock: () => undefined }),
			"options.Clock must return a number (got nil)",
		],
		["a Clock that returns NaN", () => ({ Clock: () => 0 / 0 }), "options.Clock must return a number (got nan)"],
		[
			"a UnixTime that returns nil, with a Reset board",
			() => ({ Boards: { Kills: { Reset: "Daily" } }, UnixTime: () => undefined }),
			"options.UnixTime must return a number (got nil)",
		],
		[
			"a Clock that errors",
			() => ({ Clock: () => error("no time", 0) }),
			'options.Clock errored when called (got "no time")',
		],
		[
			"a UserService with no lookup",
			() => ({ UserService: {} }),
			"options.UserService must have GetUserInfosByUserIdsAsync()",
		],
		["a Players with no lookup", () => ({ Players: 5 }), "options.Players must have GetPlayerByUserId() (got 5)"],
		[
			"a board that is not a table",
			() => ({ Boards: { Kills: true } }),
			"options.Boards.Kills must be a BoardConfig table (got true)",
		],
		[
			"a board with an empty name",
			() => ({ Boards: { [""]: {} } }),
			"options.Boards names must be non-empty strings",
		],
		[
			"a negative CacheSeconds",
			() => ({ Boards: { Kills: { CacheSeconds: -1 } } }),
			"options.Boards.Kills.CacheSeconds must be a positive number (got -1)",
		],
		[
			"a Reset that is not a schedule name",
			() => ({ Boards: { Kills: { Reset: 86400 } } }),
			'options.Boards.Kills.Reset must be one of "Hourly", "Daily", "Weekly", "Monthly", "Yearly" (got 86400)',
		],
		[
			"a NaN ResetOffset",
			() => ({ Boards: { Kills: { Reset: "Daily", ResetOffset: 0 / 0 } } }),
			"options.Boards.Kills.ResetOffset must be whole seconds from -86399 to 86399 on a Daily board (got nan)",
		],
		[
			"a WeekStart that is a number",
			() => ({ Boards: { Kills: { Reset: "Weekly", WeekStart: 1 } } }),
			"options.Boards.Kills.WeekStart must be one of",
		],
		[
			"a Retention of infinity",
			() => ({ Boards: { Kills: { Reset: "Daily", Retention: math.huge } } }),
			"options.Boards.Kills.Retention must be a positive number (got inf)",
		],
		[
			"a Sum that is a number",
			() => ({ Boards: { Kills: { Sum: 1 } } }),
			"options.Boards.Kills.Sum must be a boolean (got 1)",
		],
		[
			"a NegativeDeltas that is a string on a Sum board",
			() => ({ Boards: { Kills: { Sum: true, NegativeDeltas: "yes" } } }),
			'options.Boards.Kills.NegativeDeltas must be a boolean (got "yes")',
		],
		[
			"a Backend whose sums is not a boolean",
			() => ({ Backend: { ...memory(), sums: 1 } }),
			"options.Backend.sums must be a boolean (got 1)",
		],
	];
	for (const [name, options, message] of REFUSED) {
		it(name, () => {
			const built = options();
			const full = typeIs(built, "table")
				? { Boards: { Kills: {} }, Backend: memory(), ...(built as object) }
				: built;
			expect(() => attach(new Kernel({ bindToClose: false }), full as LeaderboardOptions)).toThrow(
				`Leaderboards.attach: ${message}`,
			);
		});
	}

	it("a Backend with every optional member set right is accepted", () => {
		const backend: Backend = { ...memory(), budget: () => 5, readBudget: () => 5, integers: true, maxKeyLength: 9 };
		expect(() =>
			attach(new Kernel({ bindToClose: false }), { Boards: { Kills: {} }, Backend: backend }),
		).never.toThrow();
	});
});
