// Which period of a Reset board a moment belongs to, as the library works it
// out (plugins/leaderboards/core/periods.ts): a calendar hour, day, week, month
// or year in UTC shifted by the board's ResetOffset, its id "2026-12-06T04"
// (hourly), "2026-12-06" (daily; a week by its first day), "2026-12" or "2026".
// spec/cli/encodings.spec.ts checks these against the library's own.

import { CONTRACT } from "./contract.mjs";

const HOUR = 3600;
const DAY = 86400;
const ID_PATTERNS = {
	Hourly: /^(\d{4})-(\d\d)-(\d\d)T(\d\d)$/,
	Daily: /^(\d{4})-(\d\d)-(\d\d)$/,
	Weekly: /^(\d{4})-(\d\d)-(\d\d)$/,
	Monthly: /^(\d{4})-(\d\d)$/,
	Yearly: /^(\d{4})$/,
};
export const RESETS = CONTRACT.Periods.Resets;

/**
 * A Reset board's period rule, as the manifest's layout gives it (WeekStart a day number).
 * @typedef {{ Reset: import("./contract.mjs").Reset, ResetOffset?: number, WeekStart?: number }} Rule
 */
/** @typedef {{ id: string, start: number, finish: number }} Period */

/**
 * Lua's floored modulo (JavaScript's % keeps the dividend's sign).
 * @param {number} a
 * @param {number} b
 */
const mod = (a, b) => ((a % b) + b) % b;
/**
 * @param {number} n
 * @param {number} [width]
 */
const pad = (n, width = 2) => String(n).padStart(width, "0");

/**
 * Days since 1970-01-01 of a proleptic Gregorian date.
 * @param {number} year
 * @param {number} month
 * @param {number} day
 */
function daysFromCivil(year, month, day) {
	return Math.floor(Date.UTC(year, month - 1, day) / 1000 / DAY);
}

/** @param {number} seconds */
function dateOf(seconds) {
	const t = new Date(seconds * 1000);
	return `${pad(t.getUTCFullYear(), 4)}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
}

/**
 * The period holding `shifted` seconds (Unix time minus the offset), in shifted time.
 * @param {Rule} rule
 * @param {number} shifted
 * @returns {[string, number, number]}
 */
function shiftedPeriod(rule, shifted) {
	const t = new Date(shifted * 1000);
	const [year, month] = [t.getUTCFullYear(), t.getUTCMonth() + 1];
	switch (rule.Reset) {
		case "Hourly": {
			const start = shifted - mod(shifted, HOUR);
			return [`${dateOf(shifted)}T${pad(t.getUTCHours())}`, start, start + HOUR];
		}
		case "Daily": {
			const start = shifted - mod(shifted, DAY);
			return [dateOf(shifted), start, start + DAY];
		}
		case "Weekly": {
			const back = mod(t.getUTCDay() - (rule.WeekStart ?? CONTRACT.Periods.WeekStart), 7);
			const start = shifted - mod(shifted, DAY) - back * DAY;
			return [dateOf(start), start, start + 7 * DAY];
		}
		case "Monthly": {
			const start = daysFromCivil(year, month, 1) * DAY;
			const finish = (month === 12 ? daysFromCivil(year + 1, 1, 1) : daysFromCivil(year, month + 1, 1)) * DAY;
			return [`${pad(year, 4)}-${pad(month)}`, start, finish];
		}
		case "Yearly": {
			const start = daysFromCivil(year, 1, 1) * DAY;
			return [pad(year, 4), start, daysFromCivil(year + 1, 1, 1) * DAY];
		}
		default:
			throw new Error(`unknown Reset ${rule.Reset} (the manifest names ${RESETS.join(", ")})`);
	}
}

/**
 * The period a moment (Unix seconds) belongs to: { id, start, finish }.
 * @param {Rule} rule
 * @param {number} time
 * @returns {Period}
 */
export function periodAt(rule, time) {
	const offset = rule.ResetOffset ?? 0;
	const [id, start, finish] = shiftedPeriod(rule, Math.floor(time) - offset);
	return { id, start: start + offset, finish: finish + offset };
}

/**
 * The period before the one a moment belongs to.
 * @param {Rule} rule
 * @param {number} time
 */
export function previousPeriod(rule, time) {
	return periodAt(rule, periodAt(rule, time).start - 1);
}

/**
 * The period an id names on a board, or undefined when no period of it has that id.
 * @param {Rule} rule
 * @param {string} id
 * @returns {Period | undefined}
 */
export function periodNamed(rule, id) {
	const match = ID_PATTERNS[rule.Reset]?.exec(id);
	if (!match) return undefined;
	const [, year, month = "1", day = "1", hour = "0"] = match;
	const m = Number(month);
	const d = Number(day);
	if (m < 1 || m > 12 || d < 1 || d > 31) return undefined;
	const shifted = daysFromCivil(Number(year), m, d) * DAY + Number(hour) * HOUR;
	const period = periodAt(rule, shifted + (rule.ResetOffset ?? 0));
	return period.id === id ? period : undefined;
}

/**
 * "current", "previous" or a period id, at `time`; undefined for an id that names no period.
 * @param {Rule} rule
 * @param {string | undefined} which
 * @param {number} time
 * @returns {Period | undefined}
 */
export function periodFor(rule, which, time) {
	if (which === undefined || which === "current") return periodAt(rule, time);
	if (which === "previous") return previousPeriod(rule, time);
	return periodNamed(rule, which);
}
