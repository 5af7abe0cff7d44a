#!/usr/bin/env node
// The command-line conventions, checked on the programs themselves (the gate,
// bench, demo, soak, the moderation tool), each run as a user runs it, out/ already built:
// --help and -h print the usage on stdout and exit 0 without running; an unknown
// flag and a non-decimal integer (1e1, 0x10) exit 2 with the message on stderr
// and nothing on stdout; --flag=value works; --json prints JSON alone; a text
// run names its backend and configuration in its first line; counts print in
// one format (no "1 users", no 4-digit count without its separator).
//
//   node .ci/command.mjs     (npm test runs it; about 15 s over two processes)

import { spawn } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const GATE = ["spec/gate/run.mjs", "--no-build"];
const main = (module) => [...GATE, "--main", `ServerScriptService.Leaderboards.${module}`, "--"];
const PROGRAMS = {
	gate: { argv: GATE, integer: "--workers" },
	bench: { argv: main("bench.run"), integer: undefined },
	demo: { argv: main("examples.demo.main"), integer: "--servers" },
	soak: { argv: main("spec.model.soak"), integer: "--seeds" },
	// The moderation tool (cli/): its flags are read before any request, so no Open Cloud is needed.
	leaderboards: { argv: ["cli/bin/leaderboards.mjs", "top", "Kills"], integer: "--count" },
};
const TINY_DEMO = ["--servers=1", "--players", "3", "--minutes=2"];

// Counts that break the one number format: a noun in the plural after 1, a
// count of four digits or more without separators (dates, seeds and ids aside).
function formatProblems(text) {
	const problems = [];
	for (const line of text.split("\n")) {
		const plural = /(?<![\d.,])1 (users|servers|players|seeds|runs|calls|reads|writes|requests|keys)\b/.exec(line);
		if (plural) problems.push(`"${plural[0]}" in: ${line}`);
		const bare = line
			.replace(/\d{4}-\d\d-\d\d/g, "")
			.replace(/seeds? \d+(\.\.\d+)?|from \d+/g, "")
			.match(/(?<![\d.,\w])\d{4,}(?![\d\w])/);
		if (bare) problems.push(`"${bare[0]}" without its thousands separator in: ${line}`);
	}
	return problems;
}

const CASES = [];
for (const [name, { argv, integer }] of Object.entries(PROGRAMS)) {
	for (const help of ["--help", "-h"])
		CASES.push({
			what: `${name} ${help}`,
			argv: [...argv, help],
			check: (r) => r.code === 0 && r.stdout.startsWith("usage: ") && r.stderr === "",
		});
	CASES.push({
		what: `${name} --bogus`,
		argv: [...argv, "--bogus"],
		check: (r) => r.code === 2 && r.stdout === "" && r.stderr.includes("unknown option --bogus"),
	});
	if (integer)
		for (const bad of ["1e1", "0x10"])
			CASES.push({
				what: `${name} ${integer}=${bad}`,
				argv: [...argv, `${integer}=${bad}`],
				check: (r) => r.code === 2 && r.stdout === "" && r.stderr.includes(`${integer} must be a whole number`),
			});
}
const json = (r) => {
	try {
		return r.code <= 1 && typeof JSON.parse(r.stdout) === "object";
	} catch {
		return false;
	}
};
const firstLine = (pattern) => (r) => r.code === 0 && pattern.test(r.stdout.split("\n")[0]) && r.stderr === "";
CASES.push(
	{
		what: "gate --root=A.B.C (a flag's value after =)",
		argv: [...GATE, "--root=ServerScriptService.Leaderboards.spec.gate.fixtures.released"],
		check: (r) => r.code === 0 && r.stdout.trimEnd().endsWith("4 passed, 0 failed"),
	},
	{
		what: "leaderboards --help (the commands)",
		argv: ["cli/bin/leaderboards.mjs", "--help"],
		check: (r) => r.code === 0 && r.stdout.startsWith("usage: leaderboards <command>") && r.stderr === "",
	},
	{
		what: "leaderboards with no API key: a usage error naming the variable",
		argv: ["cli/bin/leaderboards.mjs", "boards"],
		env: { LEADERBOARDS_API_KEY: "" },
		check: (r) => r.code === 2 && r.stdout === "" && r.stderr.includes("set LEADERBOARDS_API_KEY"),
	},
	{ what: "demo --json", argv: [...PROGRAMS.demo.argv, ...TINY_DEMO, "--json"], check: json },
	{ what: "soak --json", argv: [...PROGRAMS.soak.argv, "--seeds=1", "--json"], check: json },
	{ what: "bench --quick --json", argv: [...PROGRAMS.bench.argv, "--quick", "--json"], check: json },
	{
		what: "demo's first line names the backend and the run",
		argv: [...PROGRAMS.demo.argv, ...TINY_DEMO, "--backend=memorystore"],
		check: firstLine(/^Leaderboards demo on MemoryStore sorted maps: 1 server x 3 players, 2 minutes, seed 1/),
		format: true,
	},
	{
		what: "soak's first line names the backends and the seeds",
		argv: [...PROGRAMS.soak.argv, "--seeds", "1"],
		check: firstLine(/^Leaderboards soak on OrderedDataStore and MemoryStore: 1 seed from 1 \(2 runs\)$/),
		format: true,
	},
	{
		what: "bench's first line names the backends and the sizes",
		argv: [...PROGRAMS.bench.argv, "--quick"],
		check: firstLine(/^Leaderboards bench on the gate's emulated OrderedDataStore and MemoryStore, tiny sizes/),
		format: true,
	},
);

// The programs as a user's shell starts them, not from inside npm (whose banner note would show).
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("npm_")));
function run({ argv, env: extra }) {
	return new Promise((done) => {
		const child = spawn(process.execPath, argv, {
			cwd: root,
			env: { ...env, ...extra },
			stdio: ["ignore", "pipe", "pipe"],
		});
		let stdout = "";
		let stderr = "";
		child.stdout.on("data", (chunk) => (stdout += chunk));
		child.stderr.on("data", (chunk) => (stderr += chunk));
		child.on("close", (code) => done({ code, stdout, stderr }));
	});
}

const failures = [];
const queue = [...CASES];
await Promise.all(
	[1, 2].map(async () => {
		for (let next = queue.shift(); next; next = queue.shift()) {
			const result = await run(next);
			const problems = next.check(result) ? [] : [`exit ${result.code}`];
			if (next.format) problems.push(...formatProblems(result.stdout));
			if (problems.length > 0)
				failures.push(
					`${next.what}: ${problems.join("; ")}\n  stdout: ${result.stdout.slice(0, 400)}\n  stderr: ${result.stderr.slice(0, 400)}`,
				);
		}
	}),
);
if (failures.length > 0) {
	process.stderr.write(`command: ${failures.length} of ${CASES.length} conventions broken\n${failures.join("\n")}\n`);
	process.exit(1);
}
process.stdout.write(
	`command: ${CASES.length} runs of the gate, bench, demo, soak and leaderboards keep the command-line conventions\n`,
);
