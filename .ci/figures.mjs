#!/usr/bin/env node
// Figures the docs quote, against fresh runs:
//
// - The demo run docs/demo.md quotes is the demo's own output: the run is
//   deterministic for a seed (virtual time, and the VM's collector on the gate's
//   own clock), so a fresh `npm run demo` must print the quoted block exactly.
// - Run times the docs and the README quote (the demo's wall time, the soak's, the README's
//   two bench commands) against the same commands timed now, within the noise of this
//   shared machine: a quoted time more than NOISE times off a fresh one (either way)
//   fails, and so does a count of runs that differs.
//
// CI runs this beside npm test (about 1 minute); the cheap bench rows are checked
// in npm test itself (spec/docs/figures.spec.ts).
//
//   node .ci/figures.mjs          exit 1 naming each figure that differs
//   node .ci/figures.mjs --write  puts a fresh demo run in the block (times stay prose: edit them)

import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { availableParallelism, loadavg } from "node:os";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const page = join(root, "docs", "demo.md");
const MARKER = "<!-- generated: npm run demo -->\n```\n$ npm run demo\n";
// Wall times on this 2-core machine vary about twofold with what else runs on it; CI runs this beside
// npm test, so a run slower than quoted is allowed the machine's load on top (load per core, at least 1).
const NOISE = 2.5;
const SLOWER = NOISE * Math.max(1, loadavg()[0] / availableParallelism());

// An npm script's command line as package.json has it ("node spec/gate/run.mjs --heap 2048 --main ... --"),
// out/ already built.
function script(name) {
	const words = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts[name].split(" ");
	if (words[0] !== "node" || words[1] !== "spec/gate/run.mjs") throw new Error(`npm run ${name} is not the gate`);
	return [words[1], "--no-build", ...words.slice(2)];
}

// A program on the gate, as CI runs it (no terminal: plain lines); its wall seconds.
function timed(name, args) {
	const started = performance.now();
	const result = spawnSync(process.execPath, [...script(name), ...args], {
		cwd: root,
		encoding: "utf8",
		env: { ...process.env, CI: "true" },
	});
	return { ...result, seconds: (performance.now() - started) / 1000 };
}

const problems = [];
const run = timed("demo", []);
if (run.status !== 0) {
	process.stderr.write(`figures: npm run demo failed (exit ${run.status})\n${run.stdout}${run.stderr}`);
	process.exit(1);
}
const fresh = run.stdout.trimEnd();
const text = readFileSync(page, "utf8");
const start = text.indexOf(MARKER);
const end = text.indexOf("\n```", start + MARKER.length);
if (start < 0 || end < 0) {
	process.stderr.write(`figures: docs/demo.md has no block starting ${JSON.stringify(MARKER)}\n`);
	process.exit(1);
}
const quoted = text.slice(start + MARKER.length, end);
if (process.argv.includes("--write")) {
	writeFileSync(page, text.slice(0, start + MARKER.length) + fresh + text.slice(end));
	process.stdout.write("figures: docs/demo.md has a fresh demo run\n");
	process.exit(0);
} else if (quoted !== fresh) {
	const a = quoted.split("\n");
	const b = fresh.split("\n");
	const line = a.findIndex((value, i) => value !== b[i]);
	problems.push(
		`docs/demo.md quotes a demo run that a fresh one no longer prints (first at line ${line + 1}):\n` +
			`  quoted: ${a[line]}\n  fresh:  ${b[line]}\nrun node .ci/figures.mjs --write and commit`,
	);
}

// The run times the docs quote, each found by its pattern (seconds captured) and measured afresh.
const soak = timed("soak", ["--seeds", "10"]);
const soakFigures = /(\d+) runs \(seeds 1\.\.10\), (\d+) failed;.* ([\d.]+) s wall$/m.exec(soak.stdout);
if (soak.status !== 0 || !soakFigures)
	problems.push(`npm run soak -- --seeds 10 failed (exit ${soak.status})\n${soak.stdout}${soak.stderr}`);
// The README's two bench commands; a failed run has no time to compare.
const bench = (args) => {
	const result = timed("bench", args);
	if (result.status === 0) return result.seconds;
	problems.push(
		`npm run bench -- ${args.join(" ")} failed (exit ${result.status})\n${result.stdout}${result.stderr}`,
	);
};
const quick = bench(["--quick"]);
const writes = bench(["--only", "writes"]);
const howItWorks = join(root, "docs", "how-it-works.md");
const readme = join(root, "README.md");
const TIMES = [
	{
		page: readme,
		what: "the README's npm run demo",
		pattern: /npm run demo # a simulated hour of a game, checked against a model \((\d+) s[;)]/,
		fresh: run.seconds,
	},
	{
		page: readme,
		what: "the README's npm run soak -- --seeds 10",
		pattern: /npm run soak -- --seeds 10 # [^(]*\((\d+) s;/,
		fresh: soakFigures ? Number(soakFigures[3]) : undefined,
	},
	{
		page: readme,
		what: "the README's npm run bench -- --quick",
		pattern: /npm run bench -- --quick # every bench row at tiny sizes \((\d+) s[;)]/,
		fresh: quick,
	},
	{
		page: readme,
		what: "the README's npm run bench -- --only writes",
		pattern: /npm run bench -- --only writes # one row at full size: what a player costs in writes \((\d+) s\)/,
		fresh: writes,
	},
	{
		page,
		what: "the demo's wall time",
		pattern: /\((\d+) s in the run below/,
		fresh: run.seconds,
	},
	{
		page: howItWorks,
		what: "the soak's 10 seeds",
		pattern: /--seeds 10`, [\d-]+: 20 runs in ([\d.]+) s/,
		fresh: soakFigures ? Number(soakFigures[3]) : undefined,
		runs: soakFigures ? Number(soakFigures[1]) : undefined,
		quotedRuns: 20,
	},
];
for (const { page: where, what, pattern, fresh: seconds, runs, quotedRuns } of TIMES) {
	const found = pattern.exec(readFileSync(where, "utf8").replace(/\s+/g, " "));
	const name = where.slice(root.length + 1);
	if (!found) {
		problems.push(`${name}: ${what} is no longer quoted as ${pattern} (update .ci/figures.mjs)`);
		continue;
	}
	if (seconds === undefined) continue;
	const quotedSeconds = Number(found[1]);
	const ratio = seconds / quotedSeconds;
	if (ratio > SLOWER || ratio < 1 / NOISE)
		problems.push(
			`${name}: ${what} is quoted as ${quotedSeconds} s, a fresh run took ${seconds.toFixed(1)} s (more than ${(ratio > 1 ? SLOWER : NOISE).toFixed(1)}x off at a load of ${loadavg()[0].toFixed(1)}): measure it again`,
		);
	if (runs !== undefined && runs !== quotedRuns)
		problems.push(`${name}: ${what}: quoted ${quotedRuns} runs, a fresh run made ${runs}`);
}

if (problems.length > 0) {
	process.stderr.write(`figures: ${problems.length} figure(s) differ\n${problems.join("\n")}\n`);
	process.exit(1);
}
process.stdout.write(
	`figures: the demo run docs/demo.md quotes is what a fresh run prints; ${TIMES.length} quoted run times within ${NOISE}x of fresh runs (${SLOWER.toFixed(1)}x slower at this load) (demo ${run.seconds.toFixed(1)} s, soak ${soakFigures?.[3]} s for 10 seeds, bench --quick ${quick.toFixed(1)} s, --only writes ${writes.toFixed(1)} s)\n`,
);
