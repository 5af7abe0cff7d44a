// What the tool prints: tables and counts in one number format, the progress
// line on stderr (only on a terminal), and the question destructive commands ask.

import { createInterface } from "node:readline";

const GROUPED = new Intl.NumberFormat("en-US", { maximumFractionDigits: 6 });

/**
 * A value as a person reads it: 12,345 or 1.5, and 1.23457e+45 past what grouping can show.
 * @param {number} value
 */
export function formatNumber(value) {
	if (!Number.isFinite(value)) return String(value);
	if (Math.abs(value) >= 1e15 || (value !== 0 && Math.abs(value) < 1e-6))
		return value.toPrecision(6).replace(/\.?0+e/, "e");
	return GROUPED.format(value);
}

/**
 * "1 store", "2 stores", "1,234 rows".
 * @param {number} n
 * @param {string} noun
 * @param {string} [plural]
 */
export function count(n, noun, plural = `${noun}s`) {
	return `${GROUPED.format(n)} ${n === 1 ? noun : plural}`;
}

/**
 * Rows of cells as aligned columns (numbers right-aligned).
 * @param {string[]} headers
 * @param {(string | number | null | undefined)[][]} rows
 */
export function table(headers, rows) {
	const cells = [headers, ...rows.map((row) => row.map((cell) => String(cell ?? "")))];
	const widths = headers.map((_, i) => Math.max(...cells.map((row) => row[i].length)));
	const right = headers.map(
		(_, i) =>
			rows.length > 0 && rows.every((row) => typeof row[i] === "number" || /^[-\d,.e+]+$/.test(String(row[i]))),
	);
	return cells
		.map((row) =>
			row
				.map((cell, i) => (right[i] ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
				.join("  ")
				.trimEnd(),
		)
		.join("\n");
}

/**
 * Seconds as 1:05 or 1:02:05.
 * @param {number} seconds
 */
function clock(seconds) {
	const s = Math.max(0, Math.round(seconds));
	const parts = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
	const [h, m, sec] = parts;
	return h > 0
		? `${h}:${String(m).padStart(2, "0")}:${String(sec).padStart(2, "0")}`
		: `${m}:${String(sec).padStart(2, "0")}`;
}

/**
 * A progress line on stderr, redrawn in place, at most every 100 ms: a bar when the
 * fraction is known, rows and pages and time either way. Silent when stderr is not a
 * terminal (a pipe, a file, CI).
 */
export class Progress {
	/**
	 * @param {string} label
	 * @param {{ stream?: NodeJS.WritableStream & { columns?: number }, live?: boolean }} [options]
	 */
	constructor(label, { stream = process.stderr, live = Boolean(process.stderr.isTTY) && !process.env.CI } = {}) {
		this.label = label;
		this.stream = stream;
		this.live = live;
		this.started = performance.now();
		this.drawn = 0;
		/** @type {string | undefined} the time left, once a fraction is known */
		this.tail = undefined;
	}

	/** @param {{ rows: number, pages: number, fraction?: number }} progress */
	update({ rows, pages, fraction }) {
		if (!this.live) return;
		const now = performance.now();
		if (now - this.drawn < 100) return;
		this.drawn = now;
		const elapsed = (now - this.started) / 1000;
		let bar = "";
		if (fraction !== undefined) {
			const f = Math.min(1, Math.max(0, fraction));
			const filled = Math.round(f * 20);
			const left = f > 0.02 ? `, ~${clock((elapsed / f) * (1 - f))} left` : "";
			bar = `[${"#".repeat(filled)}${".".repeat(20 - filled)}] ${String(Math.floor(f * 100)).padStart(3)}% `;
			this.tail = left;
		}
		const columns = this.stream.columns || 80;
		const text = `${this.label} ${bar}${count(rows, "row")}, ${count(pages, "page")}, ${clock(elapsed)}${this.tail ?? ""}`;
		this.stream.write(`\r\x1b[K${text.slice(0, columns - 1)}`);
	}

	done() {
		if (this.live && this.drawn > 0) this.stream.write("\r\x1b[K");
	}
}

/**
 * Asks before a destructive command: true to go ahead. --dry-run: false without asking;
 * --yes: true without asking. Otherwise a line from stdin (a terminal, or a pipe:
 * `echo y | leaderboards remove ...`); only y or yes goes ahead, and end of input is no.
 * @param {string} question
 * @param {{ yes?: boolean, dryRun?: boolean, input?: NodeJS.ReadableStream & { isTTY?: boolean },
 *   output?: NodeJS.WritableStream }} options
 * @returns {Promise<boolean>}
 */
export async function confirm(question, { yes, dryRun, input = process.stdin, output = process.stderr }) {
	if (dryRun) return false;
	if (yes) return true;
	output.write(`${question} [y/N] `);
	const lines = createInterface({ input, terminal: false });
	const answer = await new Promise((resolve) => {
		lines.once("line", resolve);
		lines.once("close", () => resolve(""));
	});
	lines.close();
	input.pause?.();
	if (!input.isTTY) output.write(`${answer}\n`);
	return /^\s*y(es)?\s*$/i.test(answer);
}
