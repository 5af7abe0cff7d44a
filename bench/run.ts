import { HttpService } from "@rbxts/services";
import { headlessGate } from "../spec/gate/control";
import { backendRows, shardRows } from "./backends";
import { BenchRow, markdownTable, terminalTable } from "./measure";
import {
	budgetRow,
	drainRow,
	idleRequests,
	memoryRow,
	namesRow,
	readFanOutRow,
	standingRow,
	submitCostRow,
	windowCostRow,
	windowWallRow,
	writeAmplificationRow,
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
			};
}

/** Every row, measured in this run. */
export function measure(quick: boolean): BenchRow[] {
	const gate = headlessGate();
	if (!gate) error("the benchmarks run in the headless gate: npm run bench");
	const sizes = sizesFor(quick);
	const { keys, minutes, players } = sizes.backlog;
	const idle = idleRequests(gate, minutes);
	const rows = [
		writeAmplificationRow(gate, sizes.burst),
		...players.map((count) => budgetRow(gate, { keys, minutes, players: count }, idle)),
		readFanOutRow(gate, sizes.callers),
		standingRow(gate, sizes.standing),
		submitCostRow(sizes.submit.calls, sizes.submit.keys),
		windowCostRow(sizes.window.small, sizes.window.large),
		drainRow(gate, sizes.drain),
		windowWallRow(gate, sizes.windowRuns),
		namesRow(gate, sizes.renders),
		memoryRow(gate, sizes.memory),
		schedulerRow(sizes.scheduler),
		...backendRows(gate, sizes.backends),
		...shardRows(gate, sizes.shards),
	];
	gate.reset();
	return rows;
}

/**
 * `npm run bench`: every row measured in this run, printed as a table that fits
 * a terminal (100 columns) with each row's goal, a met/MISSED mark and a
 * verdict; --markdown prints it as Markdown (the README's), --json as JSON.
 * --quick runs tiny sizes.
 */
export function main(args: string[]): number {
	const gate = headlessGate()!;
	const rows = measure(args.includes("--quick"));
	if (args.includes("--json")) gate.write(HttpService.JSONEncode(rows));
	else gate.write(args.includes("--markdown") ? markdownTable(rows) : terminalTable(rows));
	return 0;
}
