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

// Words of text in lines of at most `size` characters; a word is never split (one longer
// than `size` has a line to itself).
function wrap(text: string, size: number): string[] {
	const lines = new Array<string>();
	let line = "";
	for (const [word] of text.gmatch("%S+")) {
		const piece = word as string;
		if (line === "") line = piece;
		else if (width(line) + 1 + width(piece) <= size) line = `${line} ${piece}`;
		else {
			lines.push(line);
			line = piece;
		}
	}
	if (line !== "") lines.push(line);
	return lines;
}

/** Column widths of the terminal table at 100 columns: row, this project, baseline, ratio, goal, mark. */
const COLUMNS = [19, 18, 19, 12, 16, 6];
const GAP = 2;
/** Narrower terminals get one block per row. */
export const TABLE_COLUMNS = 100;

const cellsOf = (row: BenchRow) => [row.name, row.ours, row.baseline, row.ratio, row.bound, mark(row)];

// The widest word of each column, where a column must be at least that wide.
function widestWords(rows: ReadonlyArray<BenchRow>): number[] {
	const widths = COLUMNS.map(() => 0);
	for (const cells of [["row", "this project", "baseline", "ratio", "goal", "mark"], ...rows.map(cellsOf)])
		cells.forEach((cell, index) => {
			for (const [word] of cell.gmatch("%S+")) widths[index] = math.max(widths[index], width(word as string));
		});
	return widths;
}

// The rows as a table, each column `sizes` wide.
function grid(rows: ReadonlyArray<BenchRow>, sizes: number[]): string[] {
	const render = (cells: string[]) => {
		const wrapped = cells.map((cell, index) => wrap(cell, sizes[index]));
		const height = math.max(...wrapped.map((lines) => lines.size()));
		const lines = new Array<string>();
		for (let i = 0; i < height; i++) {
			const parts = wrapped.map((column, index) => {
				const text = column[i] ?? "";
				return text + string.rep(" ", sizes[index] - width(text));
			});
			lines.push(parts.join(string.rep(" ", GAP)).gsub("%s+$", "")[0]);
		}
		return lines;
	};
	const rule = string.rep("-", sizes.reduce((sum, size) => sum + size, 0) + GAP * (sizes.size() - 1));
	const lines = [...render(["row", "this project", "baseline", "ratio", "goal", "mark"]), rule];
	for (const row of rows) {
		for (const line of render(cellsOf(row))) lines.push(line);
		lines.push(rule);
	}
	return lines;
}

// One block a row: its name, then each figure labelled, wrapped at words under its label.
function blocks(rows: ReadonlyArray<BenchRow>, columns: number): string[] {
	const lines = new Array<string>();
	const labelled = (label: string, text: string) => {
		const indent = string.rep(" ", label.size());
		wrap(text, columns - label.size()).forEach((line, index) =>
			lines.push(`${index === 0 ? label : indent}${line}`),
		);
	};
	for (const row of rows) {
		for (const line of wrap(`${row.name}: ${mark(row)}`, columns)) lines.push(line);
		labelled("  this project  ", row.ours);
		labelled("  baseline      ", row.baseline);
		labelled("  ratio         ", row.ratio);
		labelled("  goal          ", row.bound);
		lines.push("");
	}
	return lines;
}

/**
 * The table for a terminal `columns` wide (100 unless told): from 100 columns a table whose
 * cells wrap at words, narrower one block a row; a mark per row (met, MISSED, or - for a row
 * that only informs) and a verdict. No line is wider than `columns`, and no word is split.
 */
export function terminalTable(rows: ReadonlyArray<BenchRow>, columns = TABLE_COLUMNS): string {
	const widest = widestWords(rows);
	// Each column widened to its widest word, the width taken back from the columns with room to spare.
	const sizes = COLUMNS.map((size, index) => math.max(size, widest[index]));
	const room = TABLE_COLUMNS - GAP * (sizes.size() - 1);
	for (let excess = sizes.reduce((sum, size) => sum + size, 0) - room; excess > 0; excess--) {
		let roomiest = -1;
		sizes.forEach((size, index) => {
			const spare = size - widest[index];
			if (spare > 0 && (roomiest < 0 || spare > sizes[roomiest] - widest[roomiest])) roomiest = index;
		});
		if (roomiest < 0) break;
		sizes[roomiest] -= 1;
	}
	const tableWidth = sizes.reduce((sum, size) => sum + size, 0) + GAP * (sizes.size() - 1);
	const lines = columns >= TABLE_COLUMNS && tableWidth <= columns ? grid(rows, sizes) : blocks(rows, columns);
	const held = rows.filter((row) => row.met !== undefined);
	const missed = held.filter((row) => row.met === false);
	const verdict =
		`${held.size() - missed.size()} of ${held.size()} goals met` +
		(missed.isEmpty() ? "" : `; missed: ${missed.map((row) => row.name.split(":")[0]).join(", ")}`);
	for (const line of wrap(verdict, math.min(columns, tableWidth))) lines.push(line);
	return lines.join("\n");
}
