import { HttpService } from "@rbxts/services";
import { headlessGate } from "../../spec/gate/control";
import { SimulationConfig, simulate } from "./simulation";
import { plainLine, screen, summaryLines } from "./view";

const USAGE = `usage: npm run demo -- [options]

A simulated game on the embedded emulated engine: servers sharing one
OrderedDataStore, each running the design document's BoardService.

  --servers N     simulated servers (default 2)
  --players N     players per server (default 30)
  --minutes N     simulated minutes of play (default 60)
  --fail-rate R   share of backend writes and reads that fail, 0..1 (default 0)
  --seed N        the run is deterministic for a seed (default 1)
  --json          print the summary as JSON only
  --help          this text`;

type Parsed = { config: SimulationConfig; json: boolean } | { problem: string } | { help: true };

const NUMBERS: Record<string, [key: keyof SimulationConfig, min: number, max: number, whole: boolean]> = {
	"--servers": ["servers", 1, 8, true],
	"--players": ["players", 1, 100, true],
	"--minutes": ["minutes", 0.1, 24 * 60, false],
	"--fail-rate": ["failRate", 0, 0.9, false],
	"--seed": ["seed", 1, 2 ** 31, true],
};

/** Reads the demo's flags; every mistake names itself. */
export function parseFlags(args: string[]): Parsed {
	const config: SimulationConfig = { servers: 2, players: 30, minutes: 60, failRate: 0, seed: 1 };
	let json = false;
	for (let i = 0; i < args.size(); i++) {
		const arg = args[i];
		if (arg === "--help" || arg === "-h") return { help: true };
		if (arg === "--json") {
			json = true;
			continue;
		}
		const spec = NUMBERS[arg];
		if (!spec) return { problem: `unknown option ${arg}` };
		const [key, min, max, whole] = spec;
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
		gate.write(USAGE);
		return 0;
	}
	if ("problem" in parsed) {
		gate.write(`demo: ${parsed.problem}\n\n${USAGE}`);
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
