import { headlessGate } from "../spec/gate/control";
import { decimal } from "../spec/gate/format";

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

/** What submit() is measured against: `calls` keep-best updates of a bare Luau table over `keys`, in turn. */
export function bareKeepBest(keys: ReadonlyArray<string>, calls: number) {
	const best = new Map<string, number>();
	const keyCount = keys.size();
	for (let i = 0; i < calls; i++) {
		const key = keys[i % keyCount];
		const value = i % 1000;
		const held = best.get(key);
		if (held === undefined || value > held) best.set(key, value);
	}
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
	/** The goal: the physical limit or the target the row is held to. */
	readonly bound: string;
	/** Whether this run met the goal; undefined for a row that only informs. */
	readonly met: boolean | undefined;
}

/** A measured number in the one format (spec/gate/format.ts): thousands grouped, `digits` decimals unless whole. */
export function formatNumber(value: number, digits = 2): string {
	return decimal(value, digits);
}

function mark(row: BenchRow): string {
	return row.met === undefined ? "-" : row.met ? "met" : "MISSED";
}

/** The table as Markdown, for the README. */
export function markdownTable(rows: ReadonlyArray<BenchRow>): string {
	const lines = ["| row | this project | baseline | ratio | goal | |", "|---|---|---|---|---|---|"];
	for (const row of rows)
		lines.push(`| ${row.name} | ${row.ours} | ${row.baseline} | ${row.ratio} | ${row.bound} | ${mark(row)} |`);
	return lines.join("\n");
}

/** Characters a terminal shows for text (UTF-8: µ and ≥ are one each). */
export function width(text: string): number {
	const [length] = utf8.len(text);
	return typeIs(length, "number") ? length : text.size();
}

// Words of text in lines of at most `size` characters (a longer word is cut).
function wrap(text: string, size: number): string[] {
	const lines = new Array<string>();
	let line = "";
	for (const [word] of text.gmatch("%S+")) {
		let rest = word as string;
		while (width(rest) > size) {
			if (line !== "") lines.push(line);
			const cut = utf8.offset(rest, size + 1) ?? rest.size() + 1;
			lines.push(rest.sub(1, cut - 1));
			rest = rest.sub(cut);
			line = "";
		}
		if (line === "") line = rest;
		else if (width(line) + 1 + width(rest) <= size) line = `${line} ${rest}`;
		else {
			lines.push(line);
			line = rest;
		}
	}
	if (line !== "") lines.push(line);
	return lines;
}

/** Column widths of the terminal table: row, this project, baseline, ratio, goal, mark. */
const COLUMNS = [19, 18, 19, 12, 16, 6];

/** The table for a terminal: at most 100 columns, long cells wrapped, a mark per row and a verdict. */
export function terminalTable(rows: ReadonlyArray<BenchRow>): string {
	const render = (cells: string[]) => {
		const wrapped = cells.map((cell, index) => wrap(cell, COLUMNS[index]));
		const height = math.max(...wrapped.map((lines) => lines.size()));
		const lines = new Array<string>();
		for (let i = 0; i < height; i++) {
			const parts = wrapped.map((column, index) => {
				const text = column[i] ?? "";
				return text + string.rep(" ", COLUMNS[index] - width(text));
			});
			lines.push(parts.join("  ").gsub("%s+$", "")[0]);
		}
		return lines;
	};
	const rule = string.rep("-", COLUMNS.reduce((sum, size) => sum + size, 0) + 2 * (COLUMNS.size() - 1));
	const lines = [...render(["row", "this project", "baseline", "ratio", "goal", "mark"]), rule];
	for (const row of rows) {
		for (const line of render([row.name, row.ours, row.baseline, row.ratio, row.bound, mark(row)]))
			lines.push(line);
		lines.push(rule);
	}
	const held = rows.filter((row) => row.met !== undefined);
	const missed = held.filter((row) => row.met === false);
	const verdict =
		`${held.size() - missed.size()} of ${held.size()} goals met` +
		(missed.isEmpty() ? "" : `; missed: ${missed.map((row) => row.name.split(":")[0]).join(", ")}`);
	for (const line of wrap(verdict, rule.size())) lines.push(line);
	return lines.join("\n");
}
