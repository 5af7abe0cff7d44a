import { HttpService } from "@rbxts/services";
import { Command, runCommand } from "../gate/command";
import { HeadlessGate, headlessGate } from "../gate/control";
import { count, counted } from "../gate/format";
import { BACKEND_KINDS, SeedReport, runSeed } from "./model";
import COMMAND from "./soak.command.json";

/**
 * The soak's command line (spec/gate/command.ts reads it): a JSON file, so the gate checks
 * the flags before it builds (run.mjs --command), by the same rules.
 */
export const SOAK = COMMAND as Command;

/** The run's first line: the backends and the seeds. */
export function title(seeds: number, from: number): string {
	const backends = BACKEND_KINDS.map((kind) => kind.name).join(" and ");
	return `Leaderboards soak on ${backends}: ${counted(seeds, "seed")} from ${from} (${counted(seeds * BACKEND_KINDS.size(), "run")})`;
}

/** \`npm run soak\`: 0 when every seed holds, 1 when one does not, 2 on a bad flag. */
export function main(args: string[]): number {
	const gate = headlessGate();
	if (!gate) error("the soak runs in the headless gate: npm run soak");
	return runCommand(gate, SOAK, args, (values) =>
		soak(
			gate,
			(values.get("seeds") as number | undefined) ?? 20,
			(values.get("from") as number | undefined) ?? 1,
			values.get("json") === true,
		),
	);
}

function soak(gate: HeadlessGate, seeds: number, from: number, json: boolean): number {
	if (!json) gate.write(title(seeds, from));
	const wall = gate.wallClock();
	const reports = new Array<SeedReport>();
	let failed = 0;
	for (let seed = from; seed < from + seeds; seed++) {
		if (!json) gate.progress(`soak: seed ${seed - from + 1} of ${seeds}, ${counted(failed, "run")} failed`);
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
	if (json) {
		const backends = BACKEND_KINDS.map((kind) => kind.name);
		gate.write(HttpService.JSONEncode({ seeds, from, backends, reports }));
	} else {
		let accepted = 0;
		let incomplete = 0;
		let faulted = 0;
		let erasures = 0;
		let kills = 0;
		let handlerRuns = 0;
		let midErasure = 0;
		for (const report of reports) {
			accepted += report.accepted;
			erasures += report.erasures;
			kills += report.kills;
			handlerRuns += report.handlerRuns;
			midErasure += report.closedMidErasure;
			for (const drain of report.drains) {
				if (!drain.complete) incomplete += 1;
				if (drain.faulted) faulted += 1;
			}
		}
		// Lines within 80 columns: the verdict and time first, what the seeds exercised under it.
		gate.write(
			[
				`soak: ${counted(reports.size(), "run")} (seeds ${from}..${from + seeds - 1}), ${count(failed)} failed; ` +
					`${string.format("%.1f", seconds)} s wall`,
				`  ${counted(accepted, "accepted submit")}; ${counted(erasures, "erasure")}, ${count(midErasure)} closed mid-erasure`,
				`  ${counted(incomplete, "incomplete drain")} (each within Remaining), ${count(faulted)} under a write fault`,
				`  ${counted(kills, "server")} killed, ${counted(handlerRuns, "period handler run")}`,
			].join("\n"),
		);
	}
	return failed > 0 ? 1 : 0;
}
