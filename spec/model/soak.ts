import { HttpService } from "@rbxts/services";
import { headlessGate } from "../gate/control";
import { BACKEND_KINDS, SeedReport, runSeed } from "./model";

const USAGE = `usage: npm run soak -- [--seeds N] [--from S] [--json]

The model test (spec/model/model.ts) over many seeds: several servers on one
emulated store, faults, hung requests, throttling, a noisy neighbour,
concurrent readers and destroy() at random times, checked against a model.

  --seeds N   seeds to run (default 20), each on every backend kind
  --from S    the first seed (default 1)
  --json      print the reports as JSON
  --help      this text`;

/** \`npm run soak\`: 0 when every seed holds, 1 when one does not, 2 on a bad flag. */
export function main(args: string[]): number {
	const gate = headlessGate();
	if (!gate) error("the soak runs in the headless gate: npm run soak");
	let seeds = 20;
	let from = 1;
	let json = false;
	for (let i = 0; i < args.size(); i++) {
		const arg = args[i];
		if (arg === "--help" || arg === "-h") {
			gate.write(USAGE);
			return 0;
		} else if (arg === "--json") json = true;
		else if (arg === "--seeds" || arg === "--from") {
			const value = tonumber(args[i + 1]);
			if (value === undefined || value < 1 || value % 1 !== 0) {
				gate.write(`soak: ${arg} needs a whole number from 1\n\n${USAGE}`);
				return 2;
			}
			if (arg === "--seeds") seeds = value;
			else from = value;
			i += 1;
		} else {
			gate.write(`soak: unknown option ${arg}\n\n${USAGE}`);
			return 2;
		}
	}
	const wall = gate.wallClock();
	const reports = new Array<SeedReport>();
	let failed = 0;
	for (let seed = from; seed < from + seeds; seed++) {
		for (const backend of BACKEND_KINDS) {
			const report = runSeed(gate, seed, backend);
			reports.push(report);
			if (!report.violations.isEmpty()) {
				failed += 1;
				if (!json) gate.write(`seed ${seed} (${backend.name}): ${report.violations.join("; ")}`);
			}
		}
	}
	const seconds = gate.wallClock() - wall;
	if (json) gate.write(HttpService.JSONEncode(reports));
	else {
		let accepted = 0;
		let incomplete = 0;
		for (const report of reports) {
			accepted += report.accepted;
			for (const drain of report.drains) if (!drain.complete) incomplete += 1;
		}
		gate.write(
			`soak: ${reports.size()} runs (seeds ${from}..${from + seeds - 1}), ${failed} failed; ` +
				`${accepted} accepted submits, ${incomplete} incomplete drains (each within Remaining); ` +
				`${string.format("%.1f", seconds)} s wall`,
		);
	}
	return failed > 0 ? 1 : 0;
}
