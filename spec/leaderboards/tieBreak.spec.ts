import { afterEach, beforeEach, describe, expect, it } from "@rbxts/jest-globals";
import { Kernel } from "../../kernel";
import { BoardConfig, Leaderboards, attach } from "../../plugins/leaderboards";
import { TIE_EPOCH, TIE_SPANS } from "../../plugins/leaderboards/internal";
import { headlessGate } from "../gate/control";
import { captureLogs } from "../kernel/doubles";
import { STORE_KINDS, boardsOn, storedOn } from "./stores";

// TieBreak = "Earliest" (issue 28): equal values rank by who stored the value
// first, across servers and on both backends, because the second it was stored
// is folded into the stored number.

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

const SUNDAY = 1796515200; // 2026-12-06 00:00 UTC
const BOARDS: Record<string, BoardConfig> = {
	Kills: { TieBreak: "Earliest" },
	BestTime: { TieBreak: "Earliest", Ascending: true },
};

const order = (boards: Leaderboards, board: string) => boards.top(board).map((entry) => `${entry.Key} ${entry.Value}`);

describeGate('TieBreak = "Earliest"', () => {
	beforeEach(() => gate!.reset());
	afterEach(() => gate!.reset());

	for (const kind of STORE_KINDS) {
		it(`on ${kind}: three servers storing one value at known times rank the earliest first, in both directions`, () => {
			const start = SUNDAY + 3600;
			gate!.calendar.set(start);
			const servers = [1, 2, 3].map(() => boardsOn(kind, BOARDS, gate!.newServer()));
			// b at start + 10 s, c at + 20 s, a at + 30 s: neither key order (a b c, or c b a) is the time order.
			for (const [server, key] of [
				[1, "b"],
				[2, "c"],
				[0, "a"],
			] as const) {
				task.wait(10);
				servers[server].submit("Kills", key, 100);
				servers[server].submit("BestTime", key, 61_000);
				servers[server]._flush();
			}
			expect(order(servers[0], "Kills")).toEqual(["b 100", "c 100", "a 100"]);
			expect(order(servers[0], "BestTime")).toEqual(["b 61000", "c 61000", "a 61000"]);
			// The number stored: the value, then the seconds since 2025-01-01 counted down (descending) or up.
			const since = start + 10 - TIE_EPOCH;
			expect(storedOn(gate!, kind, "Kills#Earliest").get("b")).toBe(100 * 1e9 + (1e9 - 1 - since));
			expect(storedOn(gate!, kind, "BestTime#Earliest").get("b")).toBe(61_000 * 1e9 + since);

			// Storing the same value again keeps the first second; a better value ranks first whenever it came.
			task.wait(10);
			servers[1].submit("Kills", "b", 100);
			servers[1]._flush();
			servers[0].submit("Kills", "a", 101);
			servers[0].submit("BestTime", "a", 60_999);
			servers[0]._flush();
			// The store's order, not a shared page read 20 s ago: this server reads the store itself.
			const reader = boardsOn(kind, BOARDS, gate!.newServer(), { SharePages: false });
			expect(order(reader, "Kills")).toEqual(["a 101", "b 100", "c 100"]);
			expect(order(reader, "BestTime")).toEqual(["a 60999", "b 61000", "c 61000"]);
			expect(reader.scores("Kills", ["b", "c"])).toEqual(
				new Map([
					["b", 100],
					["c", 100],
				]),
			);
			expect(reader.rank("Kills", "c")).toEqual({ Key: "c", Value: 100, Rank: 3 });
		});
	}

	it("a Daily board folds the second of its day; its documented range (±90,071,992,546) is enforced at submit", () => {
		gate!.calendar.set(SUNDAY + 7200);
		const boards = boardsOn("OrderedDataStore", { Daily: { TieBreak: "Earliest", Reset: "Daily" } });
		const limit = 90_071_992_546;
		expect(math.floor(2 ** 53 / TIE_SPANS.Daily) - 1).toBe(limit);
		const logs = captureLogs();
		expect(boards.submit("Daily", "a", limit)).toBe(true);
		expect(boards.submit("Daily", "b", -limit)).toBe(true);
		expect(boards.submit("Daily", "c", limit + 1)).toBe(false);
		expect(boards.submit("Daily", "c", 12.5)).toBe(false);
		logs.restore();
		expect(logs.messages("warn")).toEqual([
			`[Leaderboards] Daily: submit refused, the value is outside ±${limit} (got ${limit + 1}: TieBreak folds the time into the stored number, leaving this board that range); this warning shows once per board`,
			"[Leaderboards] Daily: submit refused, fractional (TieBreak stores whole numbers: scale fractions (times in milliseconds)); this warning shows once per board",
		]);
		expect(boards.Stats.Refused).toBe(2);
		boards._flush();
		const stored = storedOn(gate!, "OrderedDataStore", "Daily#Earliest@2026-12-06");
		expect(stored.get("a")).toBe(limit * 1e5 + (1e5 - 1 - 7200));
		expect(math.abs(stored.get("b")!) <= 2 ** 53).toBe(true);
		expect(boards.top("Daily").map((entry) => entry.Value)).toEqual([limit, -limit]);
	});

	it("attach refuses what cannot be honoured: a Sum or keep-newest board, another rule, a bound past the range", () => {
		const attachWith = (config: BoardConfig) =>
			attach(new Kernel({ bindToClose: false }), { Boards: { Kills: config }, SkipLoop: true });
		expect(() => attachWith({ TieBreak: "Earliest", Sum: true })).toThrow(
			'options.Boards.Kills.TieBreak applies only to a keep-best board (not Sum) (got "Earliest")',
		);
		expect(() => attachWith({ TieBreak: "Earliest", KeepBest: false })).toThrow(
			'options.Boards.Kills.TieBreak applies only to a keep-best board (not KeepBest = false) (got "Earliest")',
		);
		expect(() => attachWith({ TieBreak: "Latest" as "Earliest" })).toThrow(
			'options.Boards.Kills.TieBreak must be "Earliest" (got "Latest")',
		);
		expect(() => attachWith({ TieBreak: "Earliest", Reset: "Daily", MaxValue: 1e11 })).toThrow(
			"options.Boards.Kills.MaxValue is past what the board stores (±90071992546 with TieBreak on a Daily board) (got 100000000000)",
		);
		expect(() => attachWith({ TieBreak: "Earliest", MinValue: -1e7 })).toThrow(
			"options.Boards.Kills.MinValue is past what the board stores (±9007198 with TieBreak on an all-time board) (got -10000000)",
		);
		expect(() => attachWith({ TieBreak: "Earliest", MinValue: 0, MaxValue: 9_007_198 })).never.toThrow();
	});
});
