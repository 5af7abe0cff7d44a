import { CONTRACT, Period, PeriodRule, ResetSchedule, Weekday } from "../contracts";

// The period rule: which period a moment belongs to on a board that resets,
// and where that period's values are stored. The Queue (on submit) and the
// Reader (on read) both ask here; the Flusher and the backends only ever see
// the storage name, so they stay period-blind.
//
// A period is a calendar hour, day, week, month or year in UTC shifted by the
// board's ResetOffset: a daily board with ResetOffset = 4 * 3600 rolls at 04:00
// UTC, and its period "2026-12-06" runs from 2026-12-06 04:00 to 2026-12-07
// 04:00 UTC. Dates come from os.date("!*t"), which Roblox offers for UTC
// (https://create.roblox.com/docs/reference/engine/libraries/os#date); the
// starts of months and years are built with plain day arithmetic, not
// os.time(table), whose time zone differs between Lua hosts.

export const RESET_SCHEDULES: ReadonlyArray<ResetSchedule> = CONTRACT.Periods.Resets;

/** Week days in os.date's order (wday 1 is Sunday). */
export const WEEKDAYS: ReadonlyArray<Weekday> = CONTRACT.Periods.Weekdays;

const DAY = 86400;
const HOUR = 3600;

/** The longest period of each schedule, in seconds: a Reset board's default Retention. */
export const LONGEST_PERIOD: Record<ResetSchedule, number> = {
	Hourly: HOUR,
	Daily: DAY,
	Weekly: 7 * DAY,
	Monthly: 31 * DAY,
	Yearly: 366 * DAY,
};

/** The longest period id ("2026-12-06T04"). */
export const PERIOD_ID_LENGTH = 13;

/** What precedes a storage name in a store's name unless the game names another: "CKBoard_Kills". */
export const DEFAULT_PREFIX = CONTRACT.Names.StorePrefix;

/** Between a board name and its period id in a storage name: "Kills@2026-12-06". */
export const PERIOD_SEPARATOR = CONTRACT.Names.PeriodSeparator;

/** Where a board's values for a period are stored: the board name itself for an all-time board. */
export function storageName(board: string, periodId?: string): string {
	return periodId === undefined ? board : board + PERIOD_SEPARATOR + periodId;
}

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
function daysFromCivil(year: number, month: number, day: number): number {
	const y = month <= 2 ? year - 1 : year;
	const era = math.floor(y / 400);
	const yearOfEra = y - era * 400;
	const dayOfYear = math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
	const dayOfEra = yearOfEra * 365 + math.floor(yearOfEra / 4) - math.floor(yearOfEra / 100) + dayOfYear;
	return era * 146097 + dayOfEra - 719468;
}

function dateOf(seconds: number): string {
	const t = os.date("!*t", seconds);
	return string.format("%04d-%02d-%02d", t.year, t.month, t.day);
}

// The period holding `shifted` seconds (Unix time minus the offset), in shifted time.
function shiftedPeriod(rule: PeriodRule, shifted: number): [string, number, number] {
	const t = os.date("!*t", shifted);
	switch (rule.Reset) {
		case "Hourly": {
			const start = shifted - (shifted % HOUR);
			return [string.format("%04d-%02d-%02dT%02d", t.year, t.month, t.day, t.hour), start, start + HOUR];
		}
		case "Daily": {
			const start = shifted - (shifted % DAY);
			return [string.format("%04d-%02d-%02d", t.year, t.month, t.day), start, start + DAY];
		}
		case "Weekly": {
			const back = (t.wday - 1 - rule.WeekStart + 7) % 7;
			const start = shifted - (shifted % DAY) - back * DAY;
			return [dateOf(start), start, start + 7 * DAY];
		}
		case "Monthly": {
			const start = daysFromCivil(t.year, t.month, 1) * DAY;
			const finish =
				(t.month === 12 ? daysFromCivil(t.year + 1, 1, 1) : daysFromCivil(t.year, t.month + 1, 1)) * DAY;
			return [string.format("%04d-%02d", t.year, t.month), start, finish];
		}
		default: {
			const start = daysFromCivil(t.year, 1, 1) * DAY;
			return [string.format("%04d", t.year), start, daysFromCivil(t.year + 1, 1, 1) * DAY];
		}
	}
}

/** The period a moment (Unix seconds, UTC) belongs to. */
export function periodAt(rule: PeriodRule, time: number): Period {
	const [id, start, finish] = shiftedPeriod(rule, math.floor(time) - rule.ResetOffset);
	return { Id: id, Start: start + rule.ResetOffset, Finish: finish + rule.ResetOffset };
}

/** The period before the one a moment belongs to. */
export function previousPeriod(rule: PeriodRule, time: number): Period {
	return periodAt(rule, periodAt(rule, time).Start - 1);
}

/** Seconds from a moment until its period ends (the next roll). */
export function secondsUntilRoll(rule: PeriodRule, time: number): number {
	return periodAt(rule, time).Finish - time;
}

const ID_PATTERNS: Record<ResetSchedule, string> = {
	Hourly: "^(%d%d%d%d)%-(%d%d)%-(%d%d)T(%d%d)$",
	Daily: "^(%d%d%d%d)%-(%d%d)%-(%d%d)$",
	Weekly: "^(%d%d%d%d)%-(%d%d)%-(%d%d)$",
	Monthly: "^(%d%d%d%d)%-(%d%d)$",
	Yearly: "^(%d%d%d%d)$",
};

/** The period a period id names on a board, or undefined when no period of that board has that id. */
export function periodNamed(rule: PeriodRule, id: string): Period | undefined {
	const [year, month, day, hour] = string.match(id, ID_PATTERNS[rule.Reset]);
	if (year === undefined) return undefined;
	const m = tonumber(month) ?? 1;
	const d = tonumber(day) ?? 1;
	if (m < 1 || m > 12 || d < 1 || d > 31) return undefined;
	const shifted = daysFromCivil(tonumber(year)!, m, d) * DAY + (tonumber(hour) ?? 0) * HOUR;
	const period = periodAt(rule, shifted + rule.ResetOffset);
	// A date that does not exist (2027-02-29), or a weekly id that is not a week's first day, names no period.
	return period.Id === id ? period : undefined;
}

/**
 * The period a read asks for: the current one (undefined or "current"), the one
 * before ("previous"), or a period id; undefined when the id names no period.
 */
export function periodFor(rule: PeriodRule, which: string | undefined, time: number): Period | undefined {
	if (which === undefined || which === "current") return periodAt(rule, time);
	if (which === "previous") return previousPeriod(rule, time);
	return periodNamed(rule, which);
}

/** Raises (at `level`, as error() counts it from here) for a period argument that is not a string or nil. */
export function refusePeriodArgument(which: unknown, level: number): asserts which is string | undefined {
	if (which !== undefined && !typeIs(which, "string"))
		error(`Leaderboards: a period is "current", "previous" or a period id (got ${tostring(which)})`, level);
}

/**
 * Where a read of a board goes: its storage name and the period id (nil on an
 * all-time board). Raises, at the game's call (`level` as error() counts from
 * the caller of readPlace), for a period an all-time board does not have or an
 * id that names no period of the board.
 */
export function readPlace(
	board: string,
	rule: PeriodRule | undefined,
	which: unknown,
	time: () => number,
	level: number,
): LuaTuple<[string, string | undefined]> {
	refusePeriodArgument(which, level + 2);
	if (!rule) {
		if (which === undefined || which === "current") return $tuple(board, undefined);
		error(`Leaderboards: ${board} is an all-time board; it has no period "${which}"`, level + 1);
	}
	const period = periodFor(rule, which, time());
	if (!period)
		error(
			`Leaderboards: ${board} has no period "${which}" (a ${rule.Reset} id looks like "${periodAt(rule, 0).Id}")`,
			level + 1,
		);
	return $tuple(storageName(board, period.Id), period.Id);
}
