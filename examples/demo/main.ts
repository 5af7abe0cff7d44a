import { HttpService } from "@rbxts/services";
import { Command, FlagValue, runCommand } from "../../spec/gate/command";
import { HeadlessGate, headlessGate } from "../../spec/gate/control";
import { SimulationConfig, simulate } from "./simulation";
import COMMAND from "./command.json";
import { liveView, plainLines, redraw, summaryLines, title, wrap } from "./view";

/**
 * The demo's command line (spec/gate/command.ts reads it): a JSON file, so the gate checks
 * the flags before it builds (run.mjs --command), by the same rules.
 */
export const DEMO = COMMAND as Command;

// The numeric flags, by the SimulationConfig field each sets.
const NUMBERS: ReadonlyArray<[string, Exclude<keyof SimulationConfig, "backend" | "scale">]> = [
	["servers", "servers"],
	["players", "players"],
	["minutes", "minutes"],
	["fail-rate", "failRate"],
	["seed", "seed"],
];

const fallbackOf = (name: string) => DEMO.flags.find((flag) => flag.name === name)!.fallback as number;

/** A run with no flags: each flag's fallback. */
const DEFAULTS: SimulationConfig = {
	servers: fallbackOf("servers"),
	players: fallbackOf("players"),
	minutes: fallbackOf("minutes"),
	failRate: fallbackOf("fail-rate"),
	seed: fallbackOf("seed"),
};

/** The run the flags ask for. */
export function configOf(values: Map<string, FlagValue>): SimulationConfig {
	const config: SimulationConfig = { ...DEFAULTS };
	for (const [name, key] of NUMBERS) {
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
