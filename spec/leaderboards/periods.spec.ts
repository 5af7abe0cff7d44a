import { describe, expect, it } from "@rbxts/jest-globals";
import { PeriodRule, ResetSchedule } from "../../plugins/leaderboards";
import {
	PERIOD_ID_LENGTH,
	keepBest,
	keepNewest,
	sum,
	periodAt,
	periodFor,
	periodNamed,
	previousPeriod,
	secondsUntilRoll,
	storageName,
	updaterFor,
} from "../../plugins/leaderboards/internal";
import { headlessGate } from "../gate/control";

const gate = headlessGate();

// Unix seconds of a UTC date (plain numbers: checked against JavaScript's Date.UTC when written).
const SUNDAY_2026_12_06 = 1796515200; // the gate's virtual time 0
const LEAP_DAY_2028_02_29 = 1835395200; // a Tuesday
const HOUR = 3600;
const DAY = 86400;

function rule(Reset: ResetSchedule, ResetOffset = 0, WeekStart = 1): PeriodRule {
	return { Reset, ResetOffset, WeekStart };
}

describe("the period rule", () => {
	describe("hourly", () => {
		it("names the UTC hour and spans it; the last second of an hour is still in it", () => {
			const t = SUNDAY_2026_12_06 + 4 * HOUR + 1800;
			expect(periodAt(rule("Hourly"), t)).toEqual({
				Id: "2026-12-06T04",
				Start: SUNDAY_2026_12_06 + 4 * HOUR,
				Finish: SUNDAY_2026_12_06 + 5 * HOUR,
			});
			expect(periodAt(rule("Hourly"), SUNDAY_2026_12_06 + 5 * HOUR - 1).Id).toBe("2026-12-06T04");
			expect(periodAt(rule("Hourly"), SUNDAY_2026_12_06 + 5 * HOUR).Id).toBe("2026-12-06T05");
		});

		it("crosses midnight into the next day", () => {
			expect(periodAt(rule("Hourly"), SUNDAY_2026_12_06 - 1).Id).toBe("2026-12-05T23");
			expect(previousPeriod(rule("Hourly"), SUNDAY_2026_12_06).Id).toBe("2026-12-05T23");
		});

		it("an offset of half an hour rolls at half past", () => {
			const half = rule("Hourly", 1800);
			expect(periodAt(half, SUNDAY_2026_12_06 + 1799).Id).toBe("2026-12-05T23");
			expect(periodAt(half, SUNDAY_2026_12_06 + 1800)).toEqual({
				Id: "2026-12-06T00",
				Start: SUNDAY_2026_12_06 + 1800,
				Finish: SUNDAY_2026_12_06 + 1800 + HOUR,
			});
		});
	});

	describe("daily", () => {
		it("rolls at midnight UTC", () => {
			expect(periodAt(rule("Daily"), SUNDAY_2026_12_06 - 1)).toEqual({
				Id: "2026-12-05",
				Start: SUNDAY_2026_12_06 - DAY,
				Finish: SUNDAY_2026_12_06,
			});
			expect(periodAt(rule("Daily"), SUNDAY_2026_12_06).Id).toBe("2026-12-06");
		});

		it("a board that rolls at 04:00 UTC keeps the evening before in the day it started", () => {
			const four = rule("Daily", 4 * HOUR);
			expect(periodAt(four, SUNDAY_2026_12_06 + 3 * HOUR).Id).toBe("2026-12-05");
			expect(periodAt(four, SUNDAY_2026_12_06 + 4 * HOUR)).toEqual({
				Id: "2026-12-06",
				Start: SUNDAY_2026_12_06 + 4 * HOUR,
				Finish: SUNDAY_2026_12_06 + DAY + 4 * HOUR,
			});
		});

		it("a negative offset rolls the evening before (midnight in UTC+9 is 15:00 UTC)", () => {
			const tokyo = rule("Daily", -9 * HOUR);
			expect(periodAt(tokyo, SUNDAY_2026_12_06 - 9 * HOUR).Id).toBe("2026-12-06");
			expect(periodAt(tokyo, SUNDAY_2026_12_06 - 9 * HOUR - 1).Id).toBe("2026-12-05");
		});

		it("a leap year has 29 February, and 1 March follows it", () => {
			expect(periodAt(rule("Daily"), LEAP_DAY_2028_02_29 + 12 * HOUR).Id).toBe("2028-02-29");
			expect(periodAt(rule("Daily"), LEAP_DAY_2028_02_29 - 1).Id).toBe("2028-02-28");
			expect(periodAt(rule("Daily"), LEAP_DAY_2028_02_29 + DAY).Id).toBe("2028-03-01");
			expect(periodAt(rule("Daily"), SUNDAY_2026_12_06 + 85 * DAY).Id).toBe("2027-03-01"); // 2027: no 29th
		});
	});

	describe("weekly", () => {
		it("weeks start on Monday by default and are named by their first day", () => {
			// Sunday 2026-12-06 is the last day of the week that began Monday 2026-11-30.
			expect(periodAt(rule("Weekly"), SUNDAY_2026_12_06 + 23 * HOUR)).toEqual({
				Id: "2026-11-30",
				Start: SUNDAY_2026_12_06 - 6 * DAY,
				Finish: SUNDAY_2026_12_06 + DAY,
			});
			expect(periodAt(rule("Weekly"), SUNDAY_2026_12_06 + DAY).Id).toBe("2026-12-07");
		});

		it("a week that starts on Sunday begins on the gate's first day", () => {
			expect(periodAt(rule("Weekly", 0, 0), SUNDAY_2026_12_06).Id).toBe("2026-12-06");
			expect(periodAt(rule("Weekly", 0, 0), SUNDAY_2026_12_06 - 1).Id).toBe("2026-11-29");
		});

		it("a week crosses a month end and a year end", () => {
			expect(periodAt(rule("Weekly"), SUNDAY_2026_12_06 + 25 * DAY).Id).toBe("2026-12-28"); // Thursday 2026-12-31
			expect(periodAt(rule("Weekly"), SUNDAY_2026_12_06 + 27 * DAY).Id).toBe("2026-12-28"); // Saturday 2027-01-02
			expect(periodAt(rule("Weekly"), SUNDAY_2026_12_06 + 29 * DAY).Id).toBe("2027-01-04");
		});

		it("a week holding 29 February", () => {
			expect(periodAt(rule("Weekly"), LEAP_DAY_2028_02_29)).toEqual({
				Id: "2028-02-28",
				Start: LEAP_DAY_2028_02_29 - DAY,
				Finish: LEAP_DAY_2028_02_29 + 6 * DAY,
			});
		});

		it("an offset moves the roll within the start day", () => {
			const sunday4 = rule("Weekly", 4 * HOUR, 0);
			expect(periodAt(sunday4, SUNDAY_2026_12_06 + 3 * HOUR).Id).toBe("2026-11-29");
			expect(periodAt(sunday4, SUNDAY_2026_12_06 + 4 * HOUR).Start).toBe(SUNDAY_2026_12_06 + 4 * HOUR);
		});
	});

	describe("monthly", () => {
		it("months of 31, 30, 29 and 28 days end where the calendar says", () => {
			const december = periodAt(rule("Monthly"), SUNDAY_2026_12_06);
			expect(december.Id).toBe("2026-12");
			expect(december.Finish - december.Start).toBe(31 * DAY);
			const leapFebruary = periodAt(rule("Monthly"), LEAP_DAY_2028_02_29);
			expect(leapFebruary.Id).toBe("2028-02");
			expect(leapFebruary.Finish - leapFebruary.Start).toBe(29 * DAY);
			expect(leapFebruary.Finish).toBe(LEAP_DAY_2028_02_29 + DAY);
			const february = periodAt(rule("Monthly"), SUNDAY_2026_12_06 + 70 * DAY);
			expect(february.Id).toBe("2027-02");
			expect(february.Finish - february.Start).toBe(28 * DAY);
			expect(periodAt(rule("Monthly"), SUNDAY_2026_12_06 - 6 * DAY).Finish - SUNDAY_2026_12_06).toBe(-5 * DAY); // November: 30
		});

		it("the last second of a month and the first of the next", () => {
			const newYear = SUNDAY_2026_12_06 + 26 * DAY; // 2027-01-01 00:00
			expect(periodAt(rule("Monthly"), newYear - 1).Id).toBe("2026-12");
			expect(periodAt(rule("Monthly"), newYear).Id).toBe("2027-01");
			expect(previousPeriod(rule("Monthly"), newYear).Id).toBe("2026-12");
			expect(secondsUntilRoll(rule("Monthly"), newYear - 1)).toBe(1);
		});

		it("an offset rolls on the first at that hour", () => {
			const march = LEAP_DAY_2028_02_29 + DAY;
			expect(periodAt(rule("Monthly", 4 * HOUR), march + 3 * HOUR).Id).toBe("2028-02");
			expect(periodAt(rule("Monthly", 4 * HOUR), march + 4 * HOUR).Start).toBe(march + 4 * HOUR);
		});
	});

	describe("yearly", () => {
		it("a leap year is 366 days, others 365", () => {
			const y2028 = periodAt(rule("Yearly"), LEAP_DAY_2028_02_29);
			expect(y2028.Id).toBe("2028");
			expect(y2028.Finish - y2028.Start).toBe(366 * DAY);
			const y2026 = periodAt(rule("Yearly"), SUNDAY_2026_12_06);
			expect(y2026.Finish).toBe(SUNDAY_2026_12_06 + 26 * DAY);
			expect(y2026.Finish - y2026.Start).toBe(365 * DAY);
			expect(previousPeriod(rule("Yearly"), y2026.Finish).Id).toBe("2026");
		});
	});

	describe("period ids", () => {
		it("name their own period back, and nothing else", () => {
			const daily = rule("Daily", 4 * HOUR);
			expect(periodNamed(daily, "2028-02-29")).toEqual(periodAt(daily, LEAP_DAY_2028_02_29 + 4 * HOUR));
			expect(periodNamed(daily, "2027-02-29")).toBe(undefined);
			expect(periodNamed(daily, "2026-13-01")).toBe(undefined);
			expect(periodNamed(daily, "yesterday")).toBe(undefined);
			expect(periodNamed(rule("Weekly"), "2026-12-07")?.Start).toBe(SUNDAY_2026_12_06 + DAY);
			expect(periodNamed(rule("Weekly"), "2026-12-08")).toBe(undefined); // a Tuesday starts no week
			expect(periodNamed(rule("Hourly"), "2026-12-06T23")?.Start).toBe(SUNDAY_2026_12_06 + 23 * HOUR);
			expect(periodNamed(rule("Hourly"), "2026-12-06T24")).toBe(undefined);
			expect(periodNamed(rule("Monthly"), "2028-02")?.Finish).toBe(LEAP_DAY_2028_02_29 + DAY);
			expect(periodNamed(rule("Yearly"), "2028")?.Start).toBe(LEAP_DAY_2028_02_29 - 59 * DAY);
		});

		it("periodFor reads current, previous or an id", () => {
			const daily = rule("Daily");
			expect(periodFor(daily, undefined, SUNDAY_2026_12_06)?.Id).toBe("2026-12-06");
			expect(periodFor(daily, "current", SUNDAY_2026_12_06)?.Id).toBe("2026-12-06");
			expect(periodFor(daily, "previous", SUNDAY_2026_12_06)?.Id).toBe("2026-12-05");
			expect(periodFor(daily, "2026-11-01", SUNDAY_2026_12_06)?.Id).toBe("2026-11-01");
			expect(periodFor(daily, "2026-11-31", SUNDAY_2026_12_06)).toBe(undefined);
		});

		it("storage names: the board for all-time boards, board@id for periods, at most 14 characters more", () => {
			expect(storageName("Kills")).toBe("Kills");
			expect(storageName("Kills", "2026-12-06")).toBe("Kills@2026-12-06");
			expect(storageName("K", "2026-12-06T04").size()).toBe(1 + 1 + PERIOD_ID_LENGTH);
		});
	});

	it("on the gate's virtual clock: os.time starts on Sunday 2026-12-06 and a wait crosses the hour", () => {
		if (!gate) return;
		expect(os.date("!*t", SUNDAY_2026_12_06).wday).toBe(1);
		expect(os.time() - math.floor(gate.now())).toBe(SUNDAY_2026_12_06);
		// An hourly board whose offset rolls it 30 s from now (a long virtual wait is cheap but not free).
		const start = os.time();
		const hourly = rule("Hourly", (start + 30) % HOUR);
		const now = periodAt(hourly, start);
		expect(secondsUntilRoll(hourly, start)).toBe(30);
		task.wait(30);
		expect(periodAt(hourly, os.time()).Id).never.toBe(now.Id);
		expect(previousPeriod(hourly, os.time()).Id).toBe(now.Id);
	});
});

describe("the sum rule", () => {
	it("a sum board adds pending values; keep-best and keep-newest are unchanged", () => {
		expect(sum(false, true).merge(5, 3)).toBe(8);
		expect(sum(false, true).merge(5, -7)).toBe(-2);
		expect(keepBest(false).merge(5, 3)).toBe(5);
		expect(keepNewest(false).merge(5, 3)).toBe(3);
	});

	it("a sum saturates at ±2^53, where doubles stop counting exactly", () => {
		expect(sum(false, true).merge(2 ** 53 - 1, 5)).toBe(2 ** 53);
		expect(sum(false, true).merge(-(2 ** 53), -5)).toBe(-(2 ** 53));
	});

	it("the updater adds to the stored total, starts from 0, and adds once however often it runs", () => {
		const add = updaterFor(4, sum(false, true));
		expect(add(undefined)).toBe(4);
		expect(add(10)).toBe(14);
		expect(add(10)).toBe(14);
		expect(updaterFor(-4, sum(false, true))(1)).toBe(-3);
	});
});
