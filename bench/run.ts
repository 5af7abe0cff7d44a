import { HttpService } from "@rbxts/services";
import { Command, runCommand } from "../spec/gate/command";
import { HeadlessGate, headlessGate } from "../spec/gate/control";
import COMMAND from "./command.json";
import { backendRows, shardRows } from "./backends";
import { bigSubmitRow } from "./big";
import { submitChecksRow } from "./checks";
import { clientsRows } from "./clients";
import { experienceRow } from "./experience";
import { friendsRow } from "./friends";
import { BenchRow, markdownTable, terminalTable } from "./measure";
import {
	budgetRow,
	drainRow,
	idleRequests,
	memoryRow,
	namesRow,
	playerWritesRow,
	readFanOutRow,
	standingRow,
	submitCostRow,
	windowCostRow,
	windowWallRow,
} from "./rows";
import { schedulerRow } from "./scheduler";

/** The sizes the issue names; --quick shrinks every row for the smoke spec. */
export function sizesFor(quick: boolean) {
	return quick
		? {
				burst: { submits: 200, players: 5, minutes: 1 },
				backlog: { keys: 100, minutes: 1, players: [2] },
				callers: 10,
				submit: { calls: 2_000, keys: 100 },
				window: { small: 100, large: 1_000 },
				drain: { keys: 50, players: 2 },
				renders: 10,
				memory: 1_000,
				scheduler: { small: 10, large: 100 },
				windowRuns: 1,
				backends: { servers: [2], players: 3, minutes: 1 },
				shards: { servers: 2, players: 3, minutes: 1, shards: [1, 4, 16], partitionLimit: 100 },
				standing: { players: 5, stored: 300, minutes: 1 },
				friends: { friends: 200, played: 20, online: 1 },
				clients: { players: 5, minutes: 0.5, warmup: 30 },
				experiences: [{ servers: 10, players: 2, minutes: 1.25, openCloud: 0.1 }],
				thousand: { servers: 20, players: 2, minutes: 1.25, openCloud: 0.1 },
			}
		: {
				burst: { submits: 20_000, players: 50, minutes: 5 },
				backlog: { keys: 5_000, minutes: 5, players: [10, 50, 100] },
				callers: 100,
				submit: { calls: 1_000_000, keys: 10_000 },
				window: { small: 100, large: 100_000 },
				drain: { keys: 1_000, players: 20 },
				renders: 1_000,
				memory: 100_000,
				scheduler: { small: 100, large: 100_000 },
				windowRuns: 5,
				backends: { servers: [10, 100], players: 30, minutes: 1 },
				shards: { servers: 10, players: 30, minutes: 1, shards: [1, 4, 16], partitionLimit: 2_000 },
				standing: { players: 30, stored: 1_000, minutes: 5 },
				friends: { friends: 200, played: 20, online: 1 },
				clients: { players: 30, minutes: 1, warmup: 30 },
				experiences: [
					{ servers: 100, players: 1, minutes: 5, openCloud: 0.1 },
					{ servers: 100, players: 30, minutes: 3, openCloud: 0.1 },
				],
				// Every server's plugin runs in one Luau VM: about 28 minutes for this design, 13 for today's.
				thousand: { servers: 1_000, players: 8, minutes: 1.5, openCloud: 0.1 },
			};
}

/** The rows in the order they print, each a name for the progress line and its measurement. */
function plan(gate: HeadlessGate, quick: boolean): [string, () => BenchRow[]][] {
	const sizes = sizesFor(quick);
	const { keys, minutes, players } = sizes.backlog;
	let idle = 0;
	return [
		[
			"idle requests",
			() => {
				idle = idleRequests(gate, minutes);
				return [];
			},
		],
		[WRITES, () => [playerWritesRow(gate, sizes.burst)]],
		...players.map((count): [string, () => BenchRow[]] => [
			`budget use, ${count} players`,
			() => [budgetRow(gate, { keys, minutes, players: count }, idle)],
		]),
		["read fan-out", () => [readFanOutRow(gate, sizes.callers)]],
		["where do I stand", () => [standingRow(gate, sizes.standing)]],
		["friends who played", () => [friendsRow(gate, sizes.friends)]],
		[CLIENTS, () => clientsRows(gate, sizes.clients)],
		["submit() cost", () => [submitCostRow(sizes.submit.calls, sizes.submit.keys)]],
		["submit()'s checks", () => [submitChecksRow(sizes.submit.calls, sizes.submit.keys)]],
		["Big board submit()", () => [bigSubmitRow(sizes.submit.calls, sizes.submit.keys)]],
		["window cost", () => [windowCostRow(sizes.window.small, sizes.window.large)]],
		["drain", () => [drainRow(gate, sizes.drain)]],
		["window wall time", () => [windowWallRow(gate, sizes.windowRuns)]],
		["names()", () => [namesRow(gate, sizes.renders)]],
		["memory per key", () => [memoryRow(gate, sizes.memory)]],
		["scheduler", () => [schedulerRow(sizes.scheduler)]],
		["writes a game sustains", () => backendRows(gate, sizes.backends)],
		["MemoryStore shards", () => shardRows(gate, sizes.shards)],
		...sizes.experiences.map((size): [string, () => BenchRow[]] => [
			`an experience of ${size.servers} servers`,
			() => [experienceRow(gate, size)],
		]),
		[THOUSAND, () => [experienceRow(gate, sizes.thousand)]],
	];
}

const THOUSAND = "the thousand-server experience";
const WRITES = "writes a player costs";
const CLIENTS = "boards players see";

/** The rows that time submit() and weigh its queue (CPU and memory, seconds at full size). */
const SUBMIT = ["submit() cost", "submit()'s checks", "Big board submit()", "memory per key"];

/**
 * Which rows a run measures: every one, the experience rows (many servers), the others (one
 * server's), submit()'s own (its cost and memory), the writes a player costs, or boards players
 * see alone; the thousand-server experience (about 35 minutes idle here) only alone.
 */
export type RowSet = "all" | "clients" | "experiences" | "server" | "submit" | "thousand" | "writes";

/** Every row of `rows`, measured in this run; `onRow` hears each before it is measured (for a progress line). */
export function measure(
	quick: boolean,
	onRow?: (index: number, total: number, name: string) => void,
	rows: RowSet = "all",
): BenchRow[] {
	const gate = headlessGate();
	if (!gate) error("the benchmarks run in the headless gate: npm run bench");
	const steps = plan(gate, quick).filter(([name]) => {
		if (name === THOUSAND || rows === "thousand") return name === THOUSAND && rows === "thousand";
		if (rows === "submit") return SUBMIT.includes(name);
		if (rows === "writes") return name === WRITES;
		if (rows === "clients") return name === CLIENTS;
		const experience = name.find("an experience of", 1, true)[0] !== undefined;
		return rows === "all" || (rows === "experiences") === experience;
	});
	const measured = new Array<BenchRow>();
	steps.forEach(([name, run], index) => {
		onRow?.(index + 1, steps.size(), name);
		for (const row of run()) measured.push(row);
	});
	gate.reset();
	return measured;
}

/**
 * The bench's command line (spec/gate/command.ts reads it): a JSON file, so the gate checks
 * the flags before it builds (run.mjs --command), by the same rules.
 */
export const BENCH = COMMAND as Command;

/** The run's first line: what is measured, on what, at which sizes (within 80 columns). */
export function title(quick: boolean): string {
	return `Leaderboards bench on emulated OrderedDataStore and MemoryStore: ${quick ? "tiny sizes" : "full sizes"}`;
}

/** Said above and under a --quick table, whose MISSED marks would otherwise read as the project's. */
const QUICK_NOTE = "--quick: tiny sizes that check every row runs; the goals are for full sizes";

/**
 * `npm run bench`: every row measured in this run, printed as a table that fits
 * the terminal (gate.terminalSize(): a table from 100 columns, a block a row below)
 * with each row's goal, a met/MISSED mark and a verdict; --markdown prints it as
 * Markdown (the docs'), --json as JSON. --quick runs tiny sizes.
 */
export function main(args: string[]): number {
	const gate = headlessGate()!;
	return runCommand(gate, BENCH, args, (values) => {
		const quick = values.get("quick") === true;
		const json = values.get("json") === true;
		if (!json) gate.write(title(quick));
		if (!json && quick) gate.write(QUICK_NOTE);
		const only = values.get("only");
		const rows = measure(
			quick,
			(index, total, name) => {
				if (!json) gate.progress(`bench: row ${index} of ${total}: ${name}`);
			},
			only === "clients" ||
				only === "experiences" ||
				only === "server" ||
				only === "submit" ||
				only === "thousand" ||
				only === "writes"
				? only
				: "all",
		);
		if (json) gate.write(HttpService.JSONEncode({ sizes: quick ? "quick" : "full", rows }));
		else {
			const columns = gate.terminalSize().columns;
			gate.write(values.get("markdown") === true ? markdownTable(rows) : terminalTable(rows, columns));
			if (quick) gate.write(QUICK_NOTE);
		}
		return 0;
	});
}
