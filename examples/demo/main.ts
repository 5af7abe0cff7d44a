import { HttpService } from "@rbxts/services";
import { Command, Flag, FlagValue, runCommand } from "../../spec/gate/command";
import { HeadlessGate, headlessGate } from "../../spec/gate/control";
import { SimulationConfig, simulate } from "./simulation";
import { liveView, plainLines, redraw, summaryLines, title, wrap } from "./view";

const DEFAULTS: SimulationConfig = { servers: 2, players: 30, minutes: 60, failRate: 0, seed: 1 };

// One table for parsing and for --help, so the ranges printed are the ranges enforced.
const NUMBERS: ReadonlyArray<Flag & { key: Exclude<keyof SimulationConfig, "backend" | "scale"> }> = [
	{ name: "servers", value: "N", key: "servers", min: 1, max: 1000, help: "simulated servers" },
	{ name: "players", value: "N", key: "players", min: 1, max: 100, help: "players per server" },
	{
		name: "minutes",
		value: "N",
		kind: "number",
		key: "minutes",
		min: 0.1,
		max: 24 * 60,
		help: "simulated minutes of play",
	},
	{
		name: "fail-rate",
		value: "R",
		kind: "number",
		key: "failRate",
		min: 0,
		max: 0.9,
		help: "share of writes and reads that fail",
	},
	{ name: "seed", value: "N", key: "seed", min: 1, max: 2 ** 31, help: "same seed, same run" },
];

/** The demo's command line (spec/gate/command.ts reads it). */
export const DEMO: Command = {
	program: "demo",
	invocation: "npm run demo --",
	about: [
		"A simulated game on the embedded emulated engine: servers sharing one",
		"OrderedDataStore (or MemoryStore sorted map), each running the design",
		"document's BoardService (with its daily board, which rolls over at the",
		"midnight UTC halfway through the run). Past 16 servers (or with --scale)",
		"it shows the experience's totals instead of one server's boards.",
	],
	flags: [
		...NUMBERS.map((flag) => ({ ...flag, fallback: DEFAULTS[flag.key] })),
		{
			name: "backend",
			value: "B",
			kind: "choice",
			choices: ["ordered", "memorystore"],
			fallback: "ordered",
			help: "the boards' store",
		},
		{ name: "scale", help: "show the experience's totals, whatever the servers" },
		{ name: "json", help: "print only the summary, as JSON" },
	],
};

/** The run the flags ask for. */
export function configOf(values: Map<string, FlagValue>): SimulationConfig {
	const config: SimulationConfig = { ...DEFAULTS };
	for (const { name, key } of NUMBERS) {
		const value = values.get(name);
		if (value !== undefined) config[key] = value as number;
	}
	const backend = values.get("backend");
	if (backend !== undefined) config.backend = backend as "ordered" | "memorystore";
	if (values.get("scale") === true) config.scale = true;
	return config;
}

/** `npm run demo`: returns the exit code (0 nothing lost or every loss named, 1 a loss without a reason, 2 bad flags). */
export function main(args: string[]): number {
	const gate = headlessGate();
	if (!gate) error("the demo runs in the headless gate: npm run demo");
	return runCommand(gate, DEMO, args, (values) => play(gate, configOf(values), values.get("json") === true));
}

// Piped lines every this many simulated minutes (every minute in runs of 10 minutes or less).
function plainEvery(config: SimulationConfig): number {
	return config.minutes <= 10 ? 1 : 10;
}

function play(gate: HeadlessGate, config: SimulationConfig, json: boolean): number {
	const terminal = gate.isTerminal() && !json;
	const size = gate.terminalSize();
	if (!json && !terminal) gate.write(wrap(title(config)).join("\n"));
	let lastDraw = -math.huge;
	let drawn = 0;
	const summary = simulate(gate, config, (frame) => {
		if (json) return;
		const minute = frame.counters.minute;
		const every = plainEvery(config);
		if (!terminal && (minute % every === 0 || minute === config.minutes))
			gate.write(plainLines(config, frame).join("\n"));
		// Redraw (or show progress on stderr) at most ten times a wall second.
		const now = gate.wallClock();
		if (now - lastDraw < 0.1 && minute < config.minutes) return;
		lastDraw = now;
		if (terminal) {
			const lines = liveView(config, frame, size);
			gate.write(redraw(lines, drawn));
			drawn = lines.size();
		} else gate.progress(`demo: minute ${string.format("%.1f", minute)} of ${config.minutes}`);
	});
	if (json) gate.write(HttpService.JSONEncode(summary));
	else gate.write(summaryLines(summary).join("\n"));
	return summary.explained ? 0 : 1;
}
