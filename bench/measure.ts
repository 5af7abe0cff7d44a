import { headlessGate } from "../spec/gate/control";

/** Real seconds: the gate's wall clock (its os.clock is virtual), os.clock in Studio. */
export const wallClock = headlessGate()?.wallClock ?? os.clock;

/** The median of `runs` timings of fn, in seconds. */
export function medianSeconds(runs: number, fn: () => void): number {
	const times = new Array<number>();
	for (let i = 0; i < runs; i++) {
		const started = wallClock();
		fn();
		times.push(wallClock() - started);
	}
	times.sort();
	return times[math.floor(times.size() / 2)];
}

/** One line of the benchmark table. */
export interface BenchRow {
	readonly name: string;
	/** This project's number, with its unit. */
	readonly ours: string;
	/** The naive baseline's number in the same run, or what it is compared with. */
	readonly baseline: string;
	/** ours / baseline, or the ratio the row is about. */
	readonly ratio: string;
	/** The physical limit or the target, where one exists. */
	readonly bound: string;
}

export function formatNumber(value: number, digits = 2): string {
	if (value === math.floor(value) && math.abs(value) < 1e15) return tostring(value);
	return string.format(`%.${digits}f`, value);
}

export function markdownTable(rows: ReadonlyArray<BenchRow>): string {
	const lines = ["| row | this project | baseline | ratio | bound / target |", "|---|---|---|---|---|"];
	for (const row of rows) lines.push(`| ${row.name} | ${row.ours} | ${row.baseline} | ${row.ratio} | ${row.bound} |`);
	return lines.join("\n");
}
