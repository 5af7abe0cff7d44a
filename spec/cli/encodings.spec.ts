import { afterAll, beforeEach, describe, expect, it } from "@rbxts/jest-globals";
import {
	MAX_DOUBLE,
	PeriodRule,
	TIE_SPANS,
	encodeBig,
	decodeBig,
	earliest,
	periodAt,
	previousPeriod,
} from "../../plugins/leaderboards/internal";
import { headlessGate } from "../gate/control";
import { LayoutBoard, seedManifest, serveTool, toolsAtOnce } from "./tool";

// The tool decodes what the library encodes, and dates periods as the library does, so the two never
// drift (issue 30): values encoded here by the library's own encodeBig and tie-break fold, stored,
// exported by the tool (cli/src/encodings.mjs) and compared exactly with the library's decoding; every
// kind of period rule's current and previous ids as the tool reads them (by Open Cloud's Date) against
// the library's periodAt at two moments near the calendar's edges.

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

const ORDERED = { Backend: "OrderedDataStore", Prefix: "CKBoard_" } as const;

// Doubles over every exponent, both signs, and the edges the library's own spec names.
function doubles(count: number, seed: number): number[] {
	const random = new Random(seed);
	const values = [0, 2 ** -1074, 2 ** -1022, 1 - 2 ** -53, 1, 2 ** 53, 1e308, MAX_DOUBLE, -MAX_DOUBLE, -5e-324];
	while (values.size() < count) {
		const magnitude = random.NextNumber(0.5, 1) * 2 ** random.NextInteger(-1074, 1023);
		values.push(random.NextInteger(0, 1) === 0 ? magnitude : -magnitude);
	}
	return values;
}

interface Exported {
	encoding: string;
	rows: { rank: number; user: string; value: number; stored: number }[];
}

const RULES: Record<string, PeriodRule> = {
	Hourly: { Reset: "Hourly", ResetOffset: 1800, WeekStart: 1 },
	Daily: { Reset: "Daily", ResetOffset: 0, WeekStart: 1 },
	DailyLate: { Reset: "Daily", ResetOffset: 4 * 3600, WeekStart: 1 },
	DailyEarly: { Reset: "Daily", ResetOffset: -7 * 3600, WeekStart: 1 },
	WeeklySunday: { Reset: "Weekly", ResetOffset: 0, WeekStart: 0 },
	WeeklyMonday: { Reset: "Weekly", ResetOffset: 3600, WeekStart: 1 },
	WeeklySaturday: { Reset: "Weekly", ResetOffset: -3600, WeekStart: 6 },
	Monthly: { Reset: "Monthly", ResetOffset: 12 * 3600, WeekStart: 1 },
	Yearly: { Reset: "Yearly", ResetOffset: -86399, WeekStart: 1 },
};

describeGate("the tool's decoding and periods against the library's", () => {
	beforeEach(() => {
		gate!.reset();
		serveTool(gate!);
	});
	afterAll(() => {
		gate!.front.stop();
		gate!.reset();
	});

	it("exports Big codes and tie-break folds the library encoded as exactly the library's decoded values", () => {
		const values = doubles(250, 30);
		const big = new Map<string, number>();
		values.forEach((value, i) => big.set(`k${i}`, encodeBig(value)));
		gate!.dataStore.seed("CKBoard_Coins#Big", big);
		// Tie-break folds: whole values within the Daily range, times within the day, both directions.
		const random = new Random(31);
		const folds = new Map<string, Map<string, number>>();
		const layout: Record<string, LayoutBoard> = {
			Coins: { ...ORDERED, Storage: "Coins#Big", Values: "Big", KeepBest: true },
		};
		for (const [name, ascending, reset] of [
			["Sprint", true, undefined],
			["Daily", false, "Daily"],
		] as const) {
			const span = TIE_SPANS[reset ?? "AllTime"];
			const fold = earliest(ascending, span);
			const stored = new Map<string, number>();
			for (let i = 0; i < 100; i++) {
				const limit = math.floor(2 ** 53 / span) - 1;
				stored.set(`k${i}`, fold.encode(random.NextInteger(-limit, limit), random.NextInteger(0, span - 1)));
			}
			folds.set(name, stored);
			const storage = `${name}#Earliest`;
			gate!.dataStore.seed(`CKBoard_${storage}${reset ? "@2026-12-06" : ""}`, stored);
			layout[name] = { ...ORDERED, Storage: storage, TieBreak: "Earliest", Ascending: ascending, Reset: reset };
		}
		seedManifest(gate!, layout, { "Daily#Earliest": ["2026-12-06"] });
		const [coins, sprint, daily] = toolsAtOnce(gate!, [
			["export", "Coins", "--format", "json"],
			["export", "Sprint", "--format", "json"],
			["export", "Daily", "--format", "json"],
		]);
		const coinsRows = (coins.json as Exported).rows;
		expect((coins.json as Exported).encoding).toBe("Big");
		expect(coinsRows.size()).toBe(250);
		let previous = math.huge;
		for (const row of coinsRows) {
			expect(row.stored).toBe(big.get(row.user));
			// Exactly the library's number, and within 2^-42 of the value encoded.
			expect(row.value).toBe(decodeBig(row.stored));
			const value = values[tonumber(row.user.sub(2))!];
			expect(math.abs(row.value - value) <= 2 ** -42 * math.abs(value)).toBe(true);
			expect(row.value <= previous).toBe(true);
			previous = row.value;
		}
		for (const [name, run, ascending, span] of [
			["Sprint", sprint, true, TIE_SPANS.AllTime],
			["Daily", daily, false, TIE_SPANS.Daily],
		] as const) {
			const rows = (run.json as Exported).rows;
			expect(`${name} ${rows.size()}`).toBe(`${name} 100`);
			const fold = earliest(ascending, span);
			for (const row of rows) {
				expect(row.stored).toBe(folds.get(name)!.get(row.user));
				expect(row.value).toBe(fold.decode(row.stored));
			}
		}
	});

	it("names each rule's current and previous periods as the library's periodAt does, by Open Cloud's clock", () => {
		const layout: Record<string, LayoutBoard> = {};
		for (const [name, rule] of pairs(RULES))
			layout[name] = {
				...ORDERED,
				Storage: name,
				Reset: rule.Reset,
				ResetOffset: rule.ResetOffset,
				WeekStart: rule.WeekStart,
			};
		seedManifest(gate!, layout);
		// 2026-12-31 23:30 UTC (New Year's Eve, a Thursday), then 2028-02-29 00:10 UTC (a leap day, a Tuesday).
		for (const moment of [1798759800, 1835395800]) {
			gate!.calendar.set(moment);
			const [run] = toolsAtOnce(gate!, [["boards", "--json"]]);
			const listed = (
				run.json as { boards: { name: string; current: { id: string }; previous: { id: string } }[] }
			).boards;
			const now = math.floor(os.time());
			expect(listed.map((board) => [board.name, board.current.id, board.previous.id])).toEqual(
				listed.map((board) => [
					board.name,
					periodAt(RULES[board.name], now).Id,
					previousPeriod(RULES[board.name], now).Id,
				]),
			);
		}
	});
});
