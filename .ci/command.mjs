#!/usr/bin/env node
// The command-line conventions, checked on the programs themselves (the gate,
// bench, demo, soak, the moderation tool), each run as a user runs it, out/ already built:
// --help and -h print the usage on stdout and exit 0 without running; an unknown
// flag and a non-decimal integer (1e1, 0x10) exit 2 with the message on stderr
// and nothing on stdout; --flag=value works; --json prints JSON alone; a text
// run names its backend and configuration in its first line; counts print in
// one format (no "1 users", no 4-digit count without its separator); every
// program's --help fits 80 columns; a near-miss flag gets "did you mean"; bench,
// demo and soak refuse a bad flag before they build; long work shows progress on stderr while
// stderr is a terminal (a pseudo-terminal from script(1)), never on stdout, and
// none under CI or with --json.
//
//   node .ci/command.mjs     (.ci/run runs it after npm test; about 40 s over two processes)

import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
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
	// The gate as a game's tool (spec/gate/tool/gate.mjs, the bin of its package): its test command.
	"leaderboards-gate": { argv: ["spec/gate/tool/gate.mjs", "test", "--no-build"], integer: "--heap" },
	// npm test (.ci/test.mjs); --no-build, since these runs share out/ with the others.
	test: { argv: [".ci/test.mjs", "--no-build"], integer: "--workers" },
};
const TINY_DEMO = ["--servers=1", "--players", "3", "--minutes=2"];
// A near miss of one of each program's flags, and the flag it should name.
const NEAR = {
	gate: ["--worker=2", "--workers"],
	bench: ["--quik", "--quick"],
	demo: ["--sever=2", "--servers"],
	soak: ["--seed=2", "--seeds"],
	test: ["--no-bild", "--no-build"],
};
// The programs as package.json's scripts start them (rbxtsc first): a bad flag is refused before the build.
const scripts = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts;
const SCRIPTED = ["bench", "demo", "soak"].map((name) => [name, scripts[name].split(" ").slice(1)]);

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
			check: (r) =>
				r.code === 0 &&
				r.stdout.startsWith("usage: ") &&
				r.stderr === "" &&
				r.stdout.split("\n").every((line) => line.length <= 80),
		});
	CASES.push({
		what: `${name} --bogus`,
		argv: [...argv, "--bogus"],
		check: (r) => r.code === 2 && r.stdout === "" && r.stderr.includes("unknown option --bogus"),
	});
	if (NEAR[name])
		CASES.push({
			what: `${name} ${NEAR[name][0]}: did you mean ${NEAR[name][1]}?`,
			argv: [...argv, NEAR[name][0]],
			check: (r) => r.code === 2 && r.stdout === "" && r.stderr.includes(`(did you mean ${NEAR[name][1]}?)`),
		});
	if (integer)
		for (const bad of ["1e1", "0x10"])
			CASES.push({
				what: `${name} ${integer}=${bad}`,
				argv: [...argv, `${integer}=${bad}`],
				check: (r) => r.code === 2 && r.stdout === "" && r.stderr.includes(`${integer} must be a whole number`),
			});
}
for (const [name, argv] of SCRIPTED)
	CASES.push({
		what: `npm run ${name} -- --bogus: refused before the build, in under 2 s`,
		argv: [...argv, "--bogus"],
		check: (r) =>
			r.code === 2 &&
			r.stdout === "" &&
			r.stderr.startsWith(`${name}: unknown option --bogus\n`) &&
			!r.stderr.includes("building") &&
			r.seconds < 2,
	});
// --help through the script answers from the program's JSON without building; the text is the program's own.
for (const [name, argv] of SCRIPTED)
	CASES.push({
		what: `npm run ${name} -- --help: the program's usage, without a build`,
		argv: [...argv, "--help"],
		check: (r) =>
			r.code === 0 &&
			r.stderr === "" &&
			r.stdout ===
				spawnSync(process.execPath, [...PROGRAMS[name].argv, "--help"], { cwd: root, encoding: "utf8" }).stdout,
	});
const json = (r) => {
	try {
		return r.code <= 1 && typeof JSON.parse(r.stdout) === "object";
	} catch {
		return false;
	}
};
const lastLine = (text) => text.trimEnd().split("\n").pop();
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
	// The bench's cheapest rows (the experience at tiny sizes): its output's shape is the same for every row.
	{
		what: "bench --quick --json",
		argv: [...PROGRAMS.bench.argv, "--quick", "--only=experiences", "--json"],
		check: json,
	},
	{
		what: "demo's first line names the backend and the run",
		argv: [...PROGRAMS.demo.argv, ...TINY_DEMO, "--backend=memorystore"],
		check: firstLine(/^Leaderboards demo on MemoryStore: 1 server x 3 players, 2 min, seed 1$/),
		format: true,
	},
	{
		what: "soak's first line names the backends and the seeds",
		argv: [...PROGRAMS.soak.argv, "--seeds", "1"],
		check: firstLine(/^Leaderboards soak on OrderedDataStore and MemoryStore: 1 seed from 1 \(2 runs\)$/),
		format: true,
	},
	{
		what: "bench's first line names the backends and the sizes, a --quick run's second and last say its goals are for full sizes, all within 80 columns",
		argv: [...PROGRAMS.bench.argv, "--quick", "--only", "experiences"],
		check: (r) =>
			firstLine(/^Leaderboards bench on emulated OrderedDataStore and MemoryStore: tiny sizes$/)(r) &&
			/^--quick: tiny sizes .* the goals are for full sizes$/.test(r.stdout.split("\n")[1]) &&
			r.stdout.split("\n").every((line) => line.length <= 80) &&
			/^--quick: tiny sizes .* the goals are for full sizes/.test(lastLine(r.stdout)),
		format: true,
	},
);

// npm test's own conventions: a line at once, one as each phase starts and ends, a line a spec file
// with its tests passed and failed and its time in wall seconds (the virtual one labelled), the
// pattern in jest's summary, no packaging step nor fixture games in a pattern run, and the last line
// `N passed, N failed`: exit 1 on a failure or when no test ran.
const TEST = PROGRAMS.test.argv;
CASES.push(
	{
		what: "npm test -- <pattern>: talks, times files in wall seconds, names the pattern, skips packaging and the games",
		argv: [...TEST, "spec/kernel/(Logger|Bus)"],
		check: (r) =>
			r.code === 0 &&
			r.firstAt < 3 &&
			r.stdout.startsWith("npm test -- spec/kernel/(Logger|Bus): docs check, specs, deferred specs\n") &&
			/^npm test \[1\/7\] docs check: ok, [\d.]+ s$/m.test(r.stdout) &&
			/^npm test \[2\/7\] tool tests: skipped, a pattern run/m.test(r.stdout) &&
			/^npm test \[3\/7\] packages: skipped, a pattern run/m.test(r.stdout) &&
			/^npm test \[4\/7\] games: skipped, a pattern run/m.test(r.stdout) &&
			/^npm test \[6\/7\] specs: 2 files$/m.test(r.stdout) &&
			/^npm test \[7\/7\] deferred specs: \d+ passed, 0 failed, [\d.]+ s$/m.test(r.stdout) &&
			/^ PASS  spec\/kernel\/Bus\.spec  \d+ passed, 0 failed  \d+\.\d\d s \(virtual [\d.]+ m?s\)$/m.test(
				r.stdout,
			) &&
			/^ PASS  spec\/kernel\/Logger\.spec  \d+ passed, 0 failed  \d+\.\d\d s \(virtual [\d.]+ m?s\)$/m.test(
				r.stdout,
			) &&
			r.stdout.includes("Ran all test suites matching /spec/kernel/(Logger|Bus)/.\n") &&
			/^\d+ passed, 0 failed$/.test(lastLine(r.stdout)),
	},
	{
		what: "npm test with a failing spec: exit 1, the failure counted in the last line",
		argv: [...TEST, "--root", "ServerScriptService.Leaderboards.spec.gate.fixtures.failing"],
		check: (r) => r.code === 1 && lastLine(r.stdout) === "0 passed, 1 failed",
	},
	{
		what: "npm test -- <a pattern no file matches>: exit 1 (no test ran)",
		argv: [...TEST, "NoSuchSpecAnywhere"],
		check: (r) => r.code === 1 && lastLine(r.stdout) === "0 passed, 0 failed",
	},
	{
		what: "gate <pattern>: jest's summary names the pattern",
		argv: [...GATE, "spec/kernel/Logger"],
		check: (r) =>
			r.code === 0 &&
			r.stdout.includes("Ran all test suites matching /spec/kernel/Logger/.\n") &&
			lastLine(r.stdout) === "3 passed, 0 failed",
	},
);

// The moderation tool's own conventions (cli/): every command's --help within 80 columns; no command
// is a usage error (the usage on stderr, exit 2); a misspelt command or flag is answered "did you mean".
const TOOL = "cli/bin/leaderboards.mjs";
const fits80 = (text) => text.split("\n").every((line) => line.length <= 80);
for (const command of ["", "top", "rank", "show", "remove", "erase", "export", "boards"])
	CASES.push({
		what: `leaderboards ${command} --help fits 80 columns`.replace("  ", " "),
		argv: [TOOL, ...(command ? [command] : []), "--help"],
		check: (r) => r.code === 0 && r.stdout.startsWith("usage: leaderboards ") && fits80(r.stdout),
	});
CASES.push(
	{
		what: "leaderboards with no command: the usage on stderr, exit 2",
		argv: [TOOL],
		check: (r) =>
			r.code === 2 &&
			r.stdout === "" &&
			r.stderr.startsWith("usage: leaderboards <command>") &&
			r.stderr.includes("leaderboards: no command: give one of top,"),
	},
	{
		what: "leaderboards tpo: did you mean top?",
		argv: [TOOL, "tpo"],
		check: (r) => r.code === 2 && r.stdout === "" && r.stderr.includes("unknown command tpo: did you mean top?"),
	},
	{
		what: "bench --json --markdown: one output at a time, exit 2",
		argv: [...PROGRAMS.bench.argv, "--json", "--markdown"],
		check: (r) => r.code === 2 && r.stdout === "" && r.stderr.includes("--json and --markdown cannot go together"),
	},
	{
		what: "leaderboards top Kills --cont 3: did you mean --count?",
		argv: [TOOL, "top", "Kills", "--cont", "3"],
		check: (r) =>
			r.code === 2 && r.stdout === "" && r.stderr.includes("unknown option --cont: did you mean --count?"),
	},
);

// The programs as a user's shell starts them, not from inside npm (whose banner note would show).
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("npm_")));
function run({ argv, env: extra }) {
	return new Promise((done) => {
		const started = performance.now();
		const child = spawn(process.execPath, argv, {
			cwd: root,
			env: { ...env, ...extra },
			stdio: ["ignore", "pipe", "pipe"],
		});
		let stdout = "";
		let stderr = "";
		// Seconds until the first output.
		let firstAt;
		child.stdout.on("data", (chunk) => {
			firstAt ??= (performance.now() - started) / 1000;
			stdout += chunk;
		});
		child.stderr.on("data", (chunk) => (stderr += chunk));
		child.on("close", (code) =>
			done({ code, stdout, stderr, firstAt, seconds: (performance.now() - started) / 1000 }),
		);
	});
}

// Progress on stderr: each program run with stderr on a pseudo-terminal and stdout in a file
// (script(1) gives the terminal), and again with CI set and with --json, where none may show.
const PROGRESS = [
	{ what: "demo", argv: [...PROGRAMS.demo.argv, ...TINY_DEMO], shows: "demo: minute " },
	{ what: "soak", argv: [...PROGRAMS.soak.argv, "--seeds", "1"], shows: "soak: seed 1 of 1" },
];
function onTerminal(argv, extraEnv) {
	const dir = mkdtempSync(join(tmpdir(), "command-"));
	const quote = (arg) => `'${arg.replace(/'/g, "'\\''")}'`;
	const command = `${[process.execPath, ...argv].map(quote).join(" ")} > ${quote(join(dir, "stdout"))}`;
	// A terminal as a user has it: CI unset unless the case sets it.
	const { CI: _, ...terminalEnv } = env;
	const read = (name) => {
		try {
			return readFileSync(join(dir, name), "utf8");
		} catch {
			return "";
		}
	};
	return new Promise((done) => {
		const child = spawn("script", ["-qfec", command, join(dir, "terminal")], {
			cwd: root,
			env: { ...terminalEnv, ...extraEnv },
			stdio: "ignore",
		});
		child.on("close", (code) => {
			const result = { code, stdout: read("stdout"), terminal: read("terminal") };
			rmSync(dir, { recursive: true, force: true });
			done(result);
		});
	});
}
// Each program's three terminal runs, as jobs for the lanes below: each job returns its problems.
function progressJobs() {
	if (spawnSync("script", ["--version"]).error)
		return [async () => ["script(1) is missing: progress on stderr is not checked"]];
	const jobs = [];
	for (const { what, argv, shows } of PROGRESS) {
		jobs.push(async () => {
			const live = await onTerminal(argv, {});
			const problems = [];
			if (live.code !== 0) problems.push(`${what} on a terminal: exit ${live.code}`);
			if (!live.terminal.includes(`\r\x1b[K${shows}`))
				problems.push(`${what}: no progress line (${JSON.stringify(shows)}) on stderr while it is a terminal`);
			if (live.stdout.includes("\r") || live.stdout.includes(shows))
				problems.push(`${what}: progress reached stdout: ${JSON.stringify(live.stdout.slice(0, 200))}`);
			return problems;
		});
		for (const [how, extraEnv, extraArgs] of [
			["CI=true", { CI: "true" }, []],
			["--json", {}, ["--json"]],
		])
			jobs.push(async () => {
				const quiet = await onTerminal([...argv, ...extraArgs], extraEnv);
				return quiet.terminal.includes(shows) ? [`${what} with ${how}: a progress line showed`] : [];
			});
	}
	return jobs;
}

const failures = [];
// Every run in two lanes (the machine's two cores): the cases, then the terminal runs.
const jobs = [
	...CASES.map((next) => async () => {
		const result = await run(next);
		const problems = next.check(result) ? [] : [`exit ${result.code}`];
		if (next.format) problems.push(...formatProblems(result.stdout));
		return problems.length === 0
			? []
			: [
					`${next.what}: ${problems.join("; ")}\n  stdout: ${result.stdout.slice(0, 400)}\n  stderr: ${result.stderr.slice(0, 400)}`,
				];
	}),
	...progressJobs().map((job) => async () => (await job()).map((problem) => `progress: ${problem}`)),
];
await Promise.all(
	[1, 2].map(async () => {
		for (let job = jobs.shift(); job; job = jobs.shift()) failures.push(...(await job()));
	}),
);
const checked = CASES.length + PROGRESS.length * 3;
if (failures.length > 0) {
	process.stderr.write(`command: ${failures.length} of ${checked} conventions broken\n${failures.join("\n")}\n`);
	process.exit(1);
}
process.stdout.write(
	`command: ${checked} runs of the gate, npm test, bench, demo, soak and leaderboards keep the command-line conventions\n`,
);
