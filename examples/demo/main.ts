import { HttpService } from "@rbxts/services";
import { headlessGate } from "../../spec/gate/control";
import { SimulationConfig, simulate } from "./simulation";
import { plainLine, screen, summaryLines } from "./view";

type Parsed = { config: SimulationConfig; json: boolean } | { problem: string } | { help: true };

interface NumberFlag {
	readonly flag: string;
	readonly key: Exclude<keyof SimulationConfig, "backend">;
	readonly min: number;
	readonly max: number;
	readonly whole: boolean;
	readonly help: string;
}

// One table for parsing and for --help, so the ranges printed are the ranges enforced.
const NUMBERS: ReadonlyArray<NumberFlag> = [
	{ flag: "--servers N", key: "servers", min: 1, max: 8, whole: true, help: "simulated servers" },
	{ flag: "--players N", key: "players", min: 1, max: 100, whole: true, help: "players per server" },
	{ flag: "--minutes N", key: "minutes", min: 0.1, max: 24 * 60, whole: false, help: "simulated minutes of play" },
	{
		flag: "--fail-rate R",
		key: "failRate",
		min: 0,
		max: 0.9,
		whole: false,
		help: "share of backend writes and reads that fail",
	},
	{ flag: "--seed N", key: "seed", min: 1, max: 2 ** 31, whole: true, help: "the run is deterministic for a seed" },
];

const DEFAULTS: SimulationConfig = { servers: 2, players: 30, minutes: 60, failRate: 0, seed: 1 };

/** The --help text. */
export function usage(): string {
	const lines = [
		"usage: npm run demo -- [options]",
		"",
		"A simulated game on the embedded emulated engine: servers sharing one",
		"OrderedDataStore (or MemoryStore sorted map), each running the design",
		"document's BoardService (with its daily board, which rolls over at the",
		"midnight UTC halfway through the run).",
		"",
	];
	for (const { flag, key, min, max, help } of NUMBERS)
		lines.push(`  ${flag}${string.rep(" ", 16 - flag.size())}${help}, ${min} to ${max} (default ${DEFAULTS[key]})`);
	lines.push(
		"  --backend B     ordered (OrderedDataStores, the default) or memorystore (MemoryStore sorted maps)",
		"  --json          print the summary as JSON only",
		"  --help          this text",
	);
	return lines.join("\n");
}

/** Reads the demo's flags; every mistake names itself. */
export function parseFlags(args: string[]): Parsed {
	const config: SimulationConfig = { ...DEFAULTS };
	let json = false;
	for (let i = 0; i < args.size(); i++) {
		const arg = args[i];
		if (arg === "--help" || arg === "-h") return { help: true };
		if (arg === "--json") {
			json = true;
			continue;
		}
		if (arg === "--backend") {
			const backend = args[i + 1];
			if (backend !== "ordered" && backend !== "memorystore")
				return { problem: "--backend must be ordered or memorystore" };
			config.backend = backend;
			i += 1;
			continue;
		}
		const spec = NUMBERS.find(({ flag }) => flag.split(" ")[0] === arg);
		if (!spec) return { problem: `unknown option ${arg}` };
		const { key, min, max, whole } = spec;
		const value = tonumber(args[i + 1]);
		if (value === undefined) return { problem: `${arg} needs a number` };
		if (value < min || value > max || (whole && value % 1 !== 0))
			return { problem: `${arg} must be ${whole ? "a whole number" : "a number"} from ${min} to ${max}` };
		config[key] = value;
		i += 1;
	}
	return { config, json };
}

/** `npm run demo`: returns the exit code (0 ok, 1 scores lost, 2 bad flags). */
export function main(args: string[]): number {
	const gate = headlessGate();
	if (!gate) error("the demo runs in the headless gate: npm run demo");
	const parsed = parseFlags(args);
	if ("help" in parsed) {
		gate.write(usage());
		return 0;
	}
	if ("problem" in parsed) {
		gate.write(`demo: ${parsed.problem}\n\n${usage()}`);
		return 2;
	}
	const { config, json } = parsed;
	const terminal = gate.isTerminal() && !json;
	let lastDraw = -math.huge;
	const summary = simulate(gate, config, (frame) => {
		if (json) return;
		if (terminal) {
			// Redraw at most ten times a wall second.
			const now = gate.wallClock();
			if (now - lastDraw < 0.1 && frame.counters.minute < config.minutes) return;
			lastDraw = now;
			gate.write(screen(config, frame));
		} else if (frame.counters.minute % 10 === 0 || frame.counters.minute === config.minutes) {
			gate.write(plainLine(config, frame));
		}
	});
	if (json) gate.write(HttpService.JSONEncode(summary));
	else gate.write(summaryLines(summary).join("\n"));
	return summary.ok ? 0 : 1;
}
