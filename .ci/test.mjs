#!/usr/bin/env node
// npm test: every check a change must pass, in phases. It says what it will do as
// soon as it starts, announces each phase as it begins and times it as it ends,
// prints a line a spec file as it finishes (its tests passed and failed, its wall
// and virtual time), keeps a progress line on stderr while it is a terminal,
// and ends with one line for the whole run, `N passed, N failed` (`, N skipped`):
// exit 1 on any failure (a failed docs check, packaging step or build counts as
// one) or when no test ran, 2 on a usage error.
//
//   npm test                  docs check, the tools' tests (cli/, the gate's, .ci/), packages, the fixture
//                             games (.ci/games.mjs), build,
//                             specs (with the gate's self-check), deferred specs
//                             (spec/(kernel|leaderboards)/ but the experience spec,
//                             again under SignalBehavior Deferred)
//   npm test -- Queue         the spec files whose path matches Queue (a regular
//                             expression), the kernel's and the plugin's under both
//                             signal behaviours; no tool tests, no packaging step and
//                             no self-check
//                             (--packages builds the packages)
//   npm test -- --no-build    out/ as it is (npm run build already ran)
//   npm test -- --root A.B.C  the specs under another root (a game's, a fixture's)
//   npm test -- --help

import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse, usage, wrap } from "../spec/gate/command.mjs";
import { SUMMARY, exactly, specFiles } from "../spec/gate/specfiles.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
// The experience spec plays 100 servers for minutes; signal behaviour is proven by the rest.
const DEFERRED = /^spec\/(kernel|leaderboards)\/(?!experience)/;

const FLAGS = [
	{ name: "packages", help: "build the packages (dist/) in a pattern run too" },
	{ name: "no-build", help: "run out/ as it is (rbxtsc already ran)" },
	{ name: "root", value: "A.B.C", help: "run the specs under this root instead (no deferred run)" },
	{ name: "verbose", help: "show the game's print and warn output" },
	{
		name: "workers",
		value: "N",
		kind: "integer",
		min: 1,
		max: 64,
		help: "spread each spec phase's files over N processes (default 2 for a whole run on 2+ cores, else 1)",
	},
];
const USAGE = usage(
	"npm test -- [pattern] [options]",
	[
		"Checks the docs, runs the moderation tool's tests, builds the packages, runs",
		"the fixture games' specs with the installed gate, builds the place, then runs",
		"the specs on the headless gate, and the kernel's and the plugin's again under",
		"Deferred signals. A pattern (a regular expression on spec paths, such as",
		"Queue or spec/demo/) runs only those files and skips the tools' tests, the",
		"packaging step and the games.",
	],
	FLAGS,
);

const parsed = parse(FLAGS, process.argv.slice(2));
if (parsed.help) {
	process.stdout.write(`${USAGE}\n`);
	process.exit(0);
}
const problem =
	parsed.problem ??
	(parsed.positional.length > 1 ? `one pattern at most, not ${parsed.positional.join(" ")}` : undefined) ??
	(parsed.rest.length > 0 ? `unexpected arguments after --: ${parsed.rest.join(" ")}` : undefined);
if (problem) {
	process.stderr.write(`npm test: ${problem}\nnpm test -- --help lists the options\n`);
	process.exit(2);
}
const { values, positional } = parsed;
const pattern = positional[0];
let matcher;
try {
	matcher = pattern === undefined ? undefined : new RegExp(pattern);
} catch (error) {
	process.stderr.write(`npm test: the pattern is not a regular expression: ${error.message}\n`);
	process.exit(2);
}

const other = values.root !== undefined;
const files = other ? [] : specFiles(root).filter((file) => !matcher || matcher.test(file));
const deferredFiles = files.filter((file) => DEFERRED.test(file));
// A whole run spreads its spec files over two processes where there are two cores (the specs
// phase: 57 s against 120 s on one); a pattern run keeps one, so jest's summary names the pattern.
const workers = values.workers ?? (pattern === undefined && !other ? Math.min(2, availableParallelism()) : 1);
const gateFlags = [...(values.verbose ? ["--verbose"] : []), ...(workers > 1 ? ["--workers", String(workers)] : [])];
const filesOf = (n) => `${n} file${n === 1 ? "" : "s"}`;

// The phases, in order. `skip` says why a phase does not run; `counts` phases end with the gate's summary.
const phases = [
	{ name: "docs check", argv: [".ci/docs.mjs"] },
	{
		name: "tool tests",
		argv: ["--test", "--test-reporter", "dot", "cli/test/", "spec/gate/tool/test/", ".ci/test/"],
		skip:
			pattern !== undefined || other
				? "a pattern run (node --test cli/test/ spec/gate/tool/test/ .ci/test/ runs them)"
				: undefined,
	},
	{
		name: "packages",
		argv: [".ci/package.mjs", "--quiet"],
		skip:
			(pattern !== undefined || other) && !values.packages
				? `a pattern run (the packaging specs read dist/ as ${existsSync(join(root, "dist")) ? "last built" : "absent: they skip"}; --packages builds it)`
				: undefined,
	},
	{
		name: "games",
		argv: [".ci/games.mjs"],
		what: "the fixture games (examples/games) install the gate's tarball and run npx leaderboards-gate test",
		counts: true,
		skip: pattern !== undefined || other ? "a pattern run (node .ci/games.mjs runs them)" : undefined,
	},
	{
		name: "build",
		argv: ["node_modules/roblox-ts/out/CLI/cli.js", "--type", "game"],
		skip: values["no-build"] ? "--no-build (out/ as it is)" : undefined,
	},
	{
		name: "specs",
		argv: [
			"spec/gate/run.mjs",
			"--no-build",
			...(other ? ["--root", values.root] : []),
			...(pattern === undefined ? (other ? [] : ["--self-check"]) : [pattern]),
			...gateFlags,
		],
		what: other
			? `the specs under ${values.root}`
			: pattern === undefined
				? `${filesOf(files.length)}, the gate's self-check first`
				: filesOf(files.length),
		counts: true,
		files: other ? undefined : files.length,
		skip: !other && files.length === 0 ? `no spec file matches /${pattern}/` : undefined,
	},
	{
		name: "deferred specs",
		argv: [
			"spec/gate/run.mjs",
			"--no-build",
			"--signals",
			"deferred",
			pattern === undefined
				? "spec/(kernel|leaderboards)/(?!experience)"
				: deferredFiles.length === files.length
					? pattern
					: exactly(deferredFiles),
			...gateFlags,
		],
		what: `${filesOf(deferredFiles.length)} of spec/kernel and spec/leaderboards under SignalBehavior Deferred`,
		counts: true,
		files: deferredFiles.length,
		skip: other
			? "a --root run"
			: deferredFiles.length === 0
				? "no kernel or plugin spec matches the pattern"
				: undefined,
	},
];

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
// A line of npm test's own, within 80 columns (a terminal's usual width): longer ones wrap, indented.
const say = (line) => process.stdout.write(`${wrap(line).join("\n")}\n`);

// A progress line on stderr while it is a terminal (never under CI): drawn over itself,
// cleared before any other output (the phases' stderr passes through here for that).
const live = Boolean(process.stderr.isTTY) && !process.env.CI;
let shown = false;
function progress(text) {
	if (!live || (!shown && text === "")) return;
	process.stderr.write(`\r\x1b[K${text.slice(0, (process.stderr.columns || 80) - 1)}`);
	shown = text !== "";
}
// On a terminal, a line wider than it wraps at words, under the spec file's path, rather than
// mid-word (a long path with its times runs past 80 columns); piped or in CI, lines are as the gate printed them.
const columns = process.stdout.isTTY && !process.env.CI ? process.stdout.columns || 80 : undefined;
const fit = (line) => (columns && line.length > columns ? wrap(line, "", "       ", columns).join("\n") : line);
// A spec file's line from the gate: " PASS  spec/x  12 passed, 0 failed  0.41 s (virtual 2 ms)".
const FILE_LINE = /^\s*(?:PASS|FAIL)\s+\S+\s+(\d+) passed, (\d+) failed/gm;

// Runs one phase as its own process: its output passes through as it comes; a counting
// phase's last `N passed, N failed` line is read from it. A counting phase's progress
// (files done of its files, tests passed and failed, time) shows on a terminal.
function run(phase, step) {
	return new Promise((done) => {
		const child = spawn(process.execPath, phase.argv, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
		const started = performance.now();
		const seen = { files: 0, passed: 0, failed: 0 };
		const draw = () => {
			const of = phase.files === undefined ? "" : ` of ${phase.files}`;
			const took = Math.round((performance.now() - started) / 1000);
			progress(
				`npm test ${step}: ${seen.files}${of} files, ${seen.passed} passed, ${seen.failed} failed, ${Math.floor(took / 60)}:${String(took % 60).padStart(2, "0")}`,
			);
		};
		const clock = phase.counts && live ? setInterval(draw, 1000) : undefined;
		let tail = "";
		let partial = "";
		child.stdout.on("data", (chunk) => {
			progress("");
			tail = (tail + chunk).slice(-4096);
			if (!phase.counts) process.stdout.write(chunk);
			else {
				// Whole lines: each spec file's counted once, and fitted to the terminal.
				const lines = (partial + chunk).split("\n");
				partial = lines.pop();
				process.stdout.write(lines.map((line) => `${fit(line)}\n`).join(""));
				for (const [, passed, failed] of lines.join("\n").matchAll(FILE_LINE)) {
					seen.files += 1;
					seen.passed += Number(passed);
					seen.failed += Number(failed);
				}
			}
			if (clock) draw();
		});
		// A spec's thread error on purpose ("gate: boom from a thread") on a line of its own.
		child.stderr.on("data", (chunk) => {
			progress("");
			process.stderr.write(chunk);
			if (clock && String(chunk).endsWith("\n")) draw();
		});
		child.on("close", (code) => {
			clearInterval(clock);
			progress("");
			process.stdout.write(partial);
			const lines = tail.trimEnd().split("\n");
			const summary = phase.counts ? SUMMARY.exec(lines[lines.length - 1] ?? "") : undefined;
			done({ code: code ?? 1, summary });
		});
	});
}

const started = performance.now();
const active = phases.filter((phase) => !phase.skip);
say(
	`npm test${pattern === undefined ? "" : ` -- ${pattern}`}: ${active.map((phase) => phase.name).join(", ")}` +
		(pattern === undefined ? " (about 2 minutes idle, 6 busy: README.md)" : ""),
);
const total = { passed: 0, failed: 0, skipped: 0 };
const results = [];
for (const [index, phase] of phases.entries()) {
	const step = `[${index + 1}/${phases.length}] ${phase.name}`;
	if (phase.skip) {
		say(`npm test ${step}: skipped, ${phase.skip}`);
		results.push({ phase, outcome: "skipped" });
		continue;
	}
	say(`npm test ${step}${phase.what ? `: ${phase.what}` : ""}`);
	const phaseStarted = performance.now();
	const { code, summary } = await run(phase, step);
	const took = performance.now() - phaseStarted;
	let outcome;
	if (phase.counts) {
		const [passed, failed, skipped] = summary ? summary.slice(1).map((n) => Number(n ?? 0)) : [0, 0, 0];
		// A gate that ended without its summary, or failed with none counted, is one failure.
		const extra = !summary || (code !== 0 && failed === 0 && passed > 0) ? 1 : 0;
		total.passed += passed;
		total.failed += failed + extra;
		total.skipped += skipped;
		outcome = `${passed} passed, ${failed + extra} failed${skipped > 0 ? `, ${skipped} skipped` : ""}`;
	} else {
		if (code !== 0) total.failed += 1;
		outcome = code === 0 ? "ok" : `failed (exit ${code})`;
	}
	say(`npm test ${step}: ${outcome}, ${seconds(took)}`);
	results.push({ phase, outcome, took });
	// Nothing to run the specs on without a build.
	if (phase.name === "build" && code !== 0) {
		for (const rest of phases.slice(index + 1)) results.push({ phase: rest, outcome: "not run: the build failed" });
		break;
	}
}

say(`\nnpm test${pattern === undefined ? "" : ` -- ${pattern}`}, ${seconds(performance.now() - started)} in all:`);
for (const { phase, outcome, took } of results)
	say(
		`  ${phase.name.padEnd(16)}${outcome.padEnd(44)}${took === undefined ? "" : seconds(took).padStart(8)}`.trimEnd(),
	);
say(`${total.passed} passed, ${total.failed} failed${total.skipped > 0 ? `, ${total.skipped} skipped` : ""}`);
process.exitCode = total.failed > 0 || total.passed === 0 ? 1 : 0;
