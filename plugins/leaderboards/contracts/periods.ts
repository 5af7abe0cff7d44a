// A board's reset schedule as attach checks it, and one period of it (the rule itself: core/periods.ts).

/** How often a board resets. */
export type ResetSchedule = "Hourly" | "Daily" | "Weekly" | "Monthly" | "Yearly";

/** The day a Weekly board's week starts. */
export type Weekday = "Sunday" | "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday";

/** A board's reset schedule, checked at attach. */
export interface PeriodRule {
	readonly Reset: ResetSchedule;
	/** Seconds after the UTC boundary at which the board rolls. */
	readonly ResetOffset: number;
	/** Weekly boards: the day a week starts, 0 = Sunday .. 6 = Saturday. */
	readonly WeekStart: number;
}

/** One period of a board: its id and its span [Start, Finish) in Unix seconds. */
export interface Period {
	/** "2026-12-06T04" hourly, "2026-12-06" daily, the first day "2026-12-07" weekly, "2026-12" monthly, "2026" yearly. */
	readonly Id: string;
	readonly Start: number;
	readonly Finish: number;
}
