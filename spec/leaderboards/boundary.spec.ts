import { afterEach, beforeEach, describe, expect, it } from "@rbxts/jest-globals";
import { DataStoreService } from "@rbxts/services";
import { Kernel } from "../../kernel";
import { Backend, BackendRow, attach } from "../../plugins/leaderboards";
import { headlessGate } from "../gate/control";
import { captureLogs, manualClock } from "../kernel/doubles";
import { MemoryBackend, boardsWith } from "./doubles";

// What a game meets at the library's edges: its own typos in submit(), a custom backend that breaks
// its contract, a page cache that keeps what it promises, and reads the budget cannot pay.

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

const ONCE = "; this warning shows once per board";
const has = (text: string, part: string) => text.find(part, 1, true)[0] !== undefined;

describe("submit() says why it refused", () => {
	it("an unknown board warns once per name, naming a near board and listing the boards; still false", () => {
		const { boards } = boardsWith();
		const logs = captureLogs();
		expect(boards.submit("Kils", "a", 5)).toBe(false);
		expect(boards.submit("Kils", "b", 6)).toBe(false);
		expect(boards.submit("kills", "a", 5)).toBe(false);
		expect(boards.submit("Kils2", "a", 5)).toBe(false);
		expect(boards.submit(undefined as never, "a", 5)).toBe(false);
		logs.restore();
		expect(logs.messages("warn")).toEqual([
			`[Leaderboards] "Kils": submit() names no board: did you mean "Kills"? (the boards: BestTime, Kills)${ONCE}`,
			`[Leaderboards] "kills": submit() names no board: did you mean "Kills"? (the boards: BestTime, Kills)${ONCE}`,
			`[Leaderboards] "Kils2": submit() names no board (the boards: BestTime, Kills)${ONCE}`,
			`[Leaderboards] nil: submit() names no board (the boards: BestTime, Kills)${ONCE}`,
		]);
	});

	const KINDS: [name: string, first: unknown, second: unknown, warning: string][] = [
		["a string", "12", "7", 'submit refused, the value is not a number (got "12": submit a number)'],
		["a table", {}, true, "submit refused, the value is not a number (got table"],
		["NaN", 0 / 0, 0 / 0, "submit refused, the value is NaN (a division by zero upstream?)"],
		["infinite", math.huge, -math.huge, "submit refused, the value is inf (a division by zero upstream?)"],
		[
			"past 2^53",
			2 ** 60,
			-(2 ** 60),
			'submit refused, the value is outside ±2^53 (got 1152921504606847000: a double holds integers exactly only that far; Values = "Big" takes any finite number)',
		],
	];
	for (const [name, first, second, warning] of KINDS) {
		it(`a value that is ${name} warns once per board and kind; still false`, () => {
			const { boards } = boardsWith();
			const logs = captureLogs();
			expect(boards.submit("Kills", "a", first as number)).toBe(false);
			expect(boards.submit("Kills", "b", second as number)).toBe(false);
			expect(boards.submit("BestTime", "a", first as number)).toBe(false);
			logs.restore();
			const warnings = logs.messages("warn");
			expect(warnings.size()).toBe(2);
			expect(has(warnings[0], `Kills: ${warning}`)).toBe(true);
			expect(has(warnings[1], `BestTime: ${warning}`)).toBe(true);
			expect(boards.Stats.Submitted).toBe(0);
		});
	}
});

describe("a custom backend's answers are checked at the boundary", () => {
	const junk = (rows: unknown) => {
		const backend = new MemoryBackend();
		backend.rawRows = rows;
		return boardsWith({ backend });
	};

	it("sorted() returning a string: a failed read, with one warning naming the call and what came", () => {
		const { boards } = junk("oops");
		const logs = captureLogs();
		expect(boards.top("Kills")).toEqual([]);
		expect(boards.top("Kills")).toEqual([]);
		logs.restore();
		expect(logs.messages("warn")).toEqual([
			`[Leaderboards] Kills: top() got a string from the backend's sorted(), not a list of rows; a failed read${ONCE}`,
		]);
	});

	it("rows out of the board's order are ranked by value (ties keep the backend's order), with one warning", () => {
		const { boards } = junk([
			{ Key: "a", Value: 1 },
			{ Key: "d", Value: 9 },
			{ Key: "c", Value: 4 },
			{ Key: "b", Value: 4 },
		]);
		const logs = captureLogs();
		expect(boards.top("Kills")).toEqual([
			{ Key: "d", Value: 9, Rank: 1 },
			{ Key: "c", Value: 4, Rank: 2 },
			{ Key: "b", Value: 4, Rank: 3 },
			{ Key: "a", Value: 1, Rank: 4 },
		]);
		logs.restore();
		expect(logs.messages("warn")).toEqual([
			`[Leaderboards] Kills: top() got rows out of the board's order from the backend's sorted(); ranked by value${ONCE}`,
		]);
	});

	it("an ascending board ranks the smallest first whatever order the backend gave", () => {
		const { boards } = junk([
			{ Key: "slow", Value: 90 },
			{ Key: "fast", Value: 30 },
		]);
		const logs = captureLogs();
		expect(boards.top("BestTime").map((entry) => entry.Key)).toEqual(["fast", "slow"]);
		logs.restore();
	});

	it("rows with an infinite Value are dropped like rows with no Key", () => {
		const { boards } = junk([
			{ Key: "a", Value: math.huge },
			{ Key: "b", Value: 3 },
		]);
		const logs = captureLogs();
		expect(boards.top("Kills")).toEqual([{ Key: "b", Value: 3, Rank: 1 }]);
		logs.restore();
		expect(logs.messages("warn").size()).toBe(1);
	});

	const withScores = (answer: unknown): Backend => ({
		...new MemoryBackend().asSetBackend(),
		scores: () => answer as Map<string, number>,
	});

	it("scores() returning something that is not a table: nil, with one warning", () => {
		const { boards } = boardsWith({ Backend: withScores("7") });
		const logs = captureLogs();
		expect(boards.scores("Kills", ["a"])).toBeUndefined();
		logs.restore();
		expect(logs.messages("warn")).toEqual([
			`[Leaderboards] Kills: scores() got a string from the backend's scores(), not a table of values; a failed read${ONCE}`,
		]);
	});

	it("scores() answers that are not numbers are left out, with one warning", () => {
		const answer = new Map<unknown, unknown>([
			["a", 5],
			["b", "6"],
			["c", 0 / 0],
			[7, 7],
		]);
		const { boards } = boardsWith({ Backend: withScores(answer) });
		const logs = captureLogs();
		const values = boards.scores("Kills", ["a", "b", "c"])!;
		logs.restore();
		expect([values.get("a"), values.get("b"), values.get("c")]).toEqual([5, undefined, undefined]);
		expect(logs.messages("warn").size()).toBe(1);
		expect(has(logs.messages("warn")[0], "scores() dropped an answer of the backend's scores()")).toBe(true);
	});

	const withAround = (answer: unknown): Backend => {
		const memory = new MemoryBackend();
		for (let i = 1; i <= 5; i++) memory.storeOf("Kills").set(`p${i}`, i * 10);
		return { ...memory.asSetBackend(), sorted: () => [], around: () => answer as never };
	};

	it("around() returning something that is not { Ahead, Behind }: nil, with one warning", () => {
		const { boards } = boardsWith({ Backend: withAround({ Ahead: "x" }) });
		const logs = captureLogs();
		expect(boards.around("Kills", "p3")).toBeUndefined();
		logs.restore();
		expect(logs.messages("warn")).toEqual([
			`[Leaderboards] Kills: around() got a table from the backend's around(), not { Ahead, Behind }; a failed read${ONCE}`,
		]);
	});

	it("around() rows out of order are ranked by value, and junk rows dropped, each with one warning", () => {
		const ahead: unknown[] = [{ Key: "p5", Value: 50 }, { Key: "p4", Value: 40 }, { Value: 45 }];
		const behind: unknown[] = [
			{ Key: "p1", Value: 10 },
			{ Key: "p2", Value: 20 },
		];
		const { boards } = boardsWith({ Backend: withAround({ Ahead: ahead, Behind: behind }) });
		const logs = captureLogs();
		const rows = boards.around("Kills", "p3", 2)!;
		logs.restore();
		expect(rows.map((row) => `${row.Key}=${row.Value}`)).toEqual(["p5=50", "p4=40", "p3=30", "p2=20", "p1=10"]);
		expect(logs.messages("warn").size()).toBe(2);
	});
});

describe("a board's page cache keeps the current and the previous period", () => {
	it("reading five older periods leaves the current page cached: not read again inside CacheSeconds", () => {
		const backend = new MemoryBackend();
		const { clock, advance } = manualClock();
		// 2026-12-06 12:00 UTC.
		const { boards } = boardsWith({
			backend,
			Boards: { Daily: { Reset: "Daily" } },
			Clock: clock,
			UnixTime: () => 1_796_558_400,
		});
		boards.top("Daily");
		boards.top("Daily", 10, "previous");
		expect(backend.sortedCalls).toBe(2);
		for (const day of ["2026-12-01", "2026-12-02", "2026-12-03", "2026-12-04", "2026-11-30"])
			boards.top("Daily", 10, day);
		expect(backend.sortedCalls).toBe(7);
		advance(30);
		boards.top("Daily");
		boards.top("Daily", 10, "previous");
		expect(backend.sortedCalls).toBe(7);
		// The oldest named period went first: read again; the two newest named are still cached.
		boards.top("Daily", 10, "2026-12-01");
		boards.top("Daily", 10, "2026-11-30");
		expect(backend.sortedCalls).toBe(8);
	});
});

describeGate("a read the request budget cannot pay is not sent", () => {
	beforeEach(() => gate!.reset());
	afterEach(() => gate!.reset());

	const spendLists = () => {
		const store = DataStoreService.GetOrderedDataStore("Elsewhere");
		while (gate!.dataStore.budget("OrderedList") > 0) store.GetSortedAsync(false, 10);
	};

	it("top() on a cold board with the list budget spent returns {} at once; the store is read once it refills", () => {
		gate!.dataStore.seed("CKBoard_Kills", new Map([["a", 5]]));
		const boards = attach(new Kernel({ bindToClose: false }), { Boards: { Kills: {} }, SkipLoop: true });
		spendLists();
		const calls = gate!.dataStore.calls("GetSortedAsync");
		const started = gate!.now();
		expect(boards.top("Kills")).toEqual([]);
		// A frame or two of MemoryStore calls (the shared page), no throttle queue.
		expect(gate!.now() - started).toBeLessThan(0.1);
		expect(gate!.dataStore.calls("GetSortedAsync")).toBe(calls);
		expect(gate!.dataStore.throttled()).toBe(0);
		task.wait(15); // 5 lists a minute: one is back
		expect(boards.top("Kills")).toEqual([{ Key: "a", Value: 5, Rank: 1 }]);
	});

	it("a stale page is served at once while the list budget is spent", () => {
		gate!.dataStore.seed("CKBoard_Kills", new Map([["a", 5]]));
		const boards = attach(new Kernel({ bindToClose: false }), {
			Boards: { Kills: { CacheSeconds: 10 } },
			SkipLoop: true,
		});
		expect(boards.top("Kills").size()).toBe(1);
		task.wait(11);
		spendLists();
		const started = gate!.now();
		expect(boards.top("Kills")).toEqual([{ Key: "a", Value: 5, Rank: 1 }]);
		// A frame or two of MemoryStore calls (the shared page), no throttle queue.
		expect(gate!.now() - started).toBeLessThan(0.1);
		expect(gate!.dataStore.throttled()).toBe(0);
	});
});

describe("a drain waits out a throttled store", () => {
	// A store whose writes are refused for its request budget for a while (the engine's throttle queue full).
	const throttledFor = (windows: number) => {
		const memory = new MemoryBackend();
		let refused = 0;
		const backend: Backend = {
			...memory.asSetBackend(),
			set: (board, key, updater) => {
				if (refused < windows) {
					refused += 1;
					error("304: UpdateAsync request dropped. Request was throttled but queue was full.", 0);
				}
				memory.storeOf(board).set(key, updater(memory.get(board, key))!);
				return true;
			},
		};
		return { memory, backend };
	};

	it("eight windows throttled in a row do not end the drain as 'no progress': it retries and completes", () => {
		const { memory, backend } = throttledFor(8);
		const { boards } = boardsWith({ Backend: backend, ShutdownSeconds: 10 });
		boards.submit("Kills", "a", 5);
		const [complete, result] = boards.destroy();
		expect(result.Error).toBeUndefined();
		expect(complete).toBe(true);
		expect(memory.get("Kills", "a")).toBe(5);
		expect(result.Failed).toBe(8);
	});

	it("a store that fails every write with another error still ends 'made no progress': 1.44 s with two keys a window", () => {
		const memory = new MemoryBackend();
		memory.failWrites = 1000;
		const { boards, kernel } = boardsWith({ backend: memory });
		boards.submit("Kills", "a", 5);
		boards.submit("Kills", "b", 5);
		const started = kernel.Scheduler.now();
		const [complete, result] = boards.destroy();
		expect(complete).toBe(false);
		expect(result.Error).toBe("leaderboard shutdown flush made no progress");
		expect(kernel.Scheduler.now() - started).toBeLessThan(2);
	});

	it("with one key a window it waits for FAILED_WRITES failures (8 windows, under 4 s), not five", () => {
		const memory = new MemoryBackend();
		memory.failWrites = 1000;
		const { boards, kernel } = boardsWith({ backend: memory });
		boards.submit("Kills", "a", 5);
		const started = kernel.Scheduler.now();
		const [complete, result] = boards.destroy();
		expect(complete).toBe(false);
		expect(result.Error).toBe("leaderboard shutdown flush made no progress");
		expect(memory.writes.size()).toBe(8);
		expect(kernel.Scheduler.now() - started).toBeLessThan(4);
	});
});

// Rows are plain data at the boundary: a table a backend keeps and mutates later changes nothing shown.
describe("rows are copied at the boundary", () => {
	it("a backend that reuses its row tables cannot change a page already served", () => {
		const rows: BackendRow[] = [{ Key: "a", Value: 9 }];
		const backend = new MemoryBackend();
		backend.rawRows = rows;
		const { boards } = boardsWith({ backend });
		const page = boards.top("Kills");
		rows[0].Value = 1;
		expect(page[0].Value).toBe(9);
		expect(boards.top("Kills")[0].Value).toBe(9);
	});
});
