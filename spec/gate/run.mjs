#!/usr/bin/env node
// The headless spec gate: compiles the project with rbxtsc, then runs the real
// compiled Luau on the real Luau VM (luau-web, WebAssembly) with an emulated
// Roblox engine written in Luau (spec/gate/engine). Node supplies only files,
// a wall clock, compilation of Luau source, and stdout.
//
//   node spec/gate/run.mjs [pattern] [--no-build] [--verbose] [--self-check] [--workers N]
//                          [--signals B] [--heap MB] [--virtual-days N] [--project FILE]
//                          [--root A.B.C]... [--main A.B.C [--command FILE] -- args]
//   node spec/gate/run.mjs --help     (flags read by spec/gate/command.mjs)
//
// The VM, the instance tree and the compiled chunks are built once per run.
// luau-web's heap is fixed at 17 MB (jest alone takes 7): heap.mjs raises it
// to --heap megabytes (512 unless told; 1,000 servers running the plugin take 1,024).
// --root runs another spec root (the self-check's failing fixture); --verbose
// shows the game's print and warn output (always captured in LogService);
// --self-check first proves that a failing fixture spec fails a run.
// --workers N splits the suite's spec files over N processes, each its own
// VM (at most one a core). The default is 1: on this shared 2-core machine two
// workers did not pay (README: spec/gate, "Workers").
//
// Ends with `N passed, N failed` (`, N skipped`), exit 1 on any failure, on a
// spec file that fails to load, or when no test ran.

import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { commandUsage, parse, parseCommand, usage, wrap } from "./command.mjs";
import { createFront } from "./front.mjs";
import { SUMMARY, exactly, specFiles } from "./specfiles.mjs";
import { raiseHeap } from "./heap.mjs";
import { stampBuilt, upToDate } from "./built.mjs";
import { filterStdout } from "./stdout.mjs";

// The wall clock, for the gate's own timing and gate.wallClock(). The Luau VM gets a clock of
// its own (deterministicClock below), so its collector paces the same way on every run.
const wallNow = performance.now.bind(performance);

// Luau's collector starts each cycle early by the allocation rate it measured over the last
// one, on lua_clock (which luau-web's module reads through performance.now): on the wall clock,
// collections fell at different points each run, addresses differed, and so did the order of
// every table keyed by an object, so a seed's run could differ from run to run (the demo's
// names lookups did, 1 run in 3). The VM sees a clock that advances 1 ms a reading instead:
// the same pacing every run, and close to the wall clock's (100 lean servers running the plugin
// held 640 KB each against 626 KB; at 0.001 ms a reading the collector ran late, 882 KB).
function deterministicClock() {
	let ticks = 0;
	performance.now = () => (ticks += 1);
}

// luau-web loads in main(), once --heap is read: its module would otherwise get a fixed 17 MB heap.
const HEAP_MEGABYTES = 512;
let LuauState;
let LuauModule;

const gateDir = dirname(fileURLToPath(import.meta.url));
// The game's folder when leaderboards-gate (tool/gate.mjs) runs this, with its settings for the engine.
const projectDir = resolve(process.env.GATE_PLACE_DIR ?? join(gateDir, "..", ".."));
const tool = JSON.parse(process.env.GATE_TOOL ?? "{}");

// Sunday 2026-12-06 00:00:00 UTC: virtual time 0, so dates are the same every run.
const EPOCH = 1796515200;

const FLAGS = [
	{ name: "no-build", help: "run out/ as it is (rbxtsc already ran)" },
	{ name: "verbose", help: "show the game's print and warn output" },
	{ name: "self-check", help: "first prove that a failing fixture spec fails a run" },
	{
		name: "workers",
		value: "N",
		kind: "integer",
		min: 1,
		max: 64,
		help: "spread the spec files over N processes (default 1)",
	},
	{
		name: "heap",
		value: "MB",
		kind: "integer",
		min: 64,
		// wasm32's 4 GB less a page: luau-web fails to start at exactly 4,096.
		max: 4095,
		help: `the Luau VM's heap in megabytes (default ${HEAP_MEGABYTES})`,
	},
	{
		name: "virtual-days",
		value: "N",
		kind: "integer",
		min: 1,
		max: 3650,
		help: "fail a run whose virtual time passes N days (default 30)",
	},
	{ name: "project", value: "FILE", help: "the Rojo project to load (default default.project.json)" },
	{ name: "root", value: "A.B.C", repeat: true, help: "a spec root instead of the project's specs (repeatable)" },
	{ name: "main", value: "A.B.C", help: "run this ModuleScript's main(args) instead of specs; args after --" },
	{
		name: "command",
		value: "FILE",
		help: "the --main program's command line (JSON, spec/gate/command.ts's Command): its args are checked before the build",
	},
	{
		name: "signals",
		value: "B",
		kind: "choice",
		choices: ["Default", "Immediate", "Deferred", "AncestryDeferred"],
		help: "Workspace.SignalBehavior: default, immediate, deferred or ancestrydeferred",
	},
];
const USAGE = usage(
	"node spec/gate/run.mjs [pattern] [options] [-- args of --main]",
	[
		"Compiles the project with rbxtsc, then runs its specs (those whose path matches",
		"the pattern, a regular expression) on the Luau VM with the emulated engine.",
		"Ends with `N passed, N failed`; exit 1 on any failure or when no test ran.",
	],
	FLAGS,
);

// Exits 2 with the message on stderr for a usage error, 0 after --help.
function parseArgs(argv) {
	const parsed = parse(FLAGS, argv);
	if (parsed.help) {
		process.stdout.write(`${USAGE}\n`);
		process.exit(0);
	}
	const extra = parsed.positional?.length > 1 && `one pattern at most, not ${parsed.positional.join(" ")}`;
	const problem = parsed.problem ?? extra;
	if (problem) {
		process.stderr.write(`gate: ${problem}\nnode spec/gate/run.mjs --help lists the options\n`);
		process.exit(2);
	}
	const { values, positional, rest } = parsed;
	const roots = (values.root ?? []).map((root) => root.split("."));
	const options = {
		build: !values["no-build"],
		verbose: Boolean(values.verbose),
		selfCheck: Boolean(values["self-check"]),
		project: values.project ?? "default.project.json",
		roots,
		mode: values.main ? "main" : "jest",
		main: values.main?.split("."),
		command: values.command,
		args: rest,
		workers: Math.min(availableParallelism(), values.workers ?? 1),
		signals: values.signals ?? "Default",
		heap: values.heap ?? HEAP_MEGABYTES,
		virtualDays: values["virtual-days"] ?? 30,
		testPathPattern: positional[0],
		defaultRoot: roots.length === 0,
	};
	if (options.defaultRoot) options.roots.push(["ServerScriptService", "Leaderboards", "spec"]);
	return options;
}

// luau-web keeps every Lua value it hands to JavaScript in the Lua registry
// (and its cache) until released, so each compiled chunk would stay alive for
// the whole run. The engine releases a chunk (host.unpin) once it holds it.
function compiler(getState, onChunk) {
	const handed = [];
	return {
		load(source, chunkName) {
			onChunk?.(chunkName);
			const chunk = getState().loadstring(source, chunkName, false);
			if (typeof chunk === "function") handed.push(chunk);
			return chunk;
		},
		unpin() {
			for (const chunk of handed.splice(0)) {
				const value = chunk[LuauModule.LUA_VALUE];
				value.release();
				LuauModule.states[value.stateIdx].luaValueCache.delete(value.ref);
			}
		},
	};
}

// Says what it does on stderr (stdout may be JSON): the build takes 6-10 s, none when nothing
// changed since the gate's last build (built.mjs).
function build() {
	if (upToDate(projectDir)) {
		process.stderr.write("gate: out/ is up to date (nothing changed since the gate built it)\n");
		return;
	}
	const rbxtsc = join(projectDir, "node_modules", "roblox-ts", "out", "CLI", "cli.js");
	process.stderr.write("gate: building (rbxtsc) ...\n");
	const began = Date.now();
	const started = wallNow();
	const result = spawnSync(process.execPath, [rbxtsc, "--type", "game"], { cwd: projectDir, stdio: "inherit" });
	if (result.status !== 0) {
		process.stdout.write("gate: rbxtsc failed\n0 passed, 1 failed\n");
		process.exit(1);
	}
	stampBuilt(projectDir, began);
	process.stderr.write(`gate: built in ${((wallNow() - started) / 1000).toFixed(1)} s\n`);
}

// A --main program's arguments, read by its command line (--command FILE) before the build, so a
// misspelt flag is refused at once rather than after the build: exit 2, as the program would;
// --help prints the program's usage without building (a fresh clone has no out/ yet).
function checkArgs(file, args) {
	const command = JSON.parse(readFileSync(resolve(projectDir, file), "utf8"));
	const { problem, help } = parseCommand(command, args);
	if (help) {
		process.stdout.write(`${commandUsage(command)}\n`);
		process.exit(0);
	}
	if (!problem) return;
	process.stderr.write(`${command.program}: ${problem}\n${command.invocation} --help lists the options\n`);
	process.exit(2);
}

// Maps `Service.Folder.Module:line` in traces to the compiled file and its source.
function traceMapper() {
	const files = new Map();
	return {
		load(text) {
			for (const line of text.split("\n")) {
				const [fullName, path] = line.split("\t");
				if (path) files.set(fullName, path);
			}
		},
		map(text) {
			if (files.size === 0 || !text.includes(":")) return text;
			return text.replace(/([\w@-]+(?:\.[\w@-]+)+):(\d+)/g, (match, fullName, line) => {
				const path = files.get(fullName);
				if (!path) return match;
				const file = relative(projectDir, resolve(projectDir, path));
				// out/x.luau comes from x.ts here, from src/x.ts in the roblox-ts template's layout.
				const compiled = file.startsWith("out/") ? file.slice(4).replace(/\.luau$/, ".ts") : null;
				const source =
					compiled && [compiled, `src/${compiled}`].find((path) => existsSync(join(projectDir, path)));
				return source ? `${file}:${line} (${source})` : `${file}:${line}`;
			});
		},
	};
}

// The terminal a program draws for: COLUMNS and LINES win (so `COLUMNS=80 LINES=24`
// tries a small one), then the terminal's own size; undefined when neither.
function terminalSize() {
	const read = (name, own) => {
		const value = /^\d+$/.test(process.env[name] ?? "") ? Number(process.env[name]) : own;
		return value > 0 ? value : undefined;
	};
	return { columns: read("COLUMNS", process.stdout.columns), rows: read("LINES", process.stdout.rows) };
}

// The progress line on stderr: drawn over itself, cleared before any other
// output; nothing at all when stderr is not a terminal (a pipe, a file, CI).
function statusLine() {
	const live = Boolean(process.stderr.isTTY) && !process.env.CI;
	let shown = false;
	return {
		show(text) {
			if (!live || (!shown && text === "")) return;
			const columns = process.stderr.columns || 80;
			process.stderr.write(`\r\x1b[K${text.slice(0, columns - 1)}`);
			shown = text !== "";
		},
	};
}

// jest's report in wall seconds, a line a spec file as it finishes: "PASS  spec/x  12 passed,
// 0 failed  0.41 s (virtual 1.20 s)". jest times each file on the virtual clock and shows that
// only past its slow-file threshold; the gate's reporter (runner.luau) hands each file's counts
// and virtual time just before jest's line for it. A file starts when its spec module compiles
// (each compiles once a run), else when the previous one ended. The summary's "Ran all test
// suites matching." gains the pattern jest leaves out, cut to one short line.
function jestReport(pattern) {
	let started = wallNow();
	let counts;
	const FILE = /^(\s*(?:PASS|FAIL)\s+\S+)(?:\s+[\d.]+ m?s)?\s*$/;
	const virtual = (ms) => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(2)} s`);
	return {
		chunk(chunkName) {
			if (/\.spec$/.test(chunkName)) started = wallNow();
		},
		file(text) {
			const [passed, failed, skipped, ms] = text.split("\t").map(Number);
			counts = { passed, failed, skipped, ms };
		},
		line(text) {
			const file = FILE.exec(text);
			if (file) {
				const wall = ((wallNow() - started) / 1000).toFixed(2);
				started = wallNow();
				// jest's summary names a failed file again ("Summary of all failing tests"): as it is.
				if (!counts) return text;
				const { passed, failed, skipped, ms } = counts;
				counts = undefined;
				const tally = `${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ""}`;
				return `${file[1]}  ${tally}  ${wall} s (virtual ${virtual(ms)})`;
			}
			if (pattern && /^Ran all test suites matching\.$/.test(text))
				return `Ran all test suites matching ${shortPattern(pattern)}.`;
			return text;
		},
	};
}

// A pattern as the summary shows it, cut to one short line (a worker's or the deferred run's
// names every file of its share: 1,000 characters and more).
function shortPattern(pattern) {
	return pattern.length <= 100 ? `/${pattern}/` : `/${pattern.slice(0, 80)}.../`;
}

// `npm run bench -- --json > f`: npm has already written its banner ("> @rbxts/...")
// into f above the JSON, unless it ran silent (-s); say so where it shows.
function npmBannerNote() {
	const npm = process.env.npm_lifecycle_event;
	const direct = process.env.npm_lifecycle_script?.startsWith("node spec/gate/run.mjs");
	if (!direct || process.env.npm_config_loglevel === "silent" || process.stdout.isTTY) return;
	process.stderr.write(
		`gate: npm printed its banner to stdout above this JSON; npm run -s ${npm} -- ... prints the JSON alone\n`,
	);
}

const FIXTURES = "ServerScriptService.Leaderboards.spec.gate.fixtures";

// Runs the gate on the failing fixture: it must exit 1, name the failure, and
// time the run in wall seconds (jest's own clock is the virtual one).
function selfCheck() {
	const root = `${FIXTURES}.failing`;
	const result = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--no-build", "--root", root], {
		cwd: projectDir,
		encoding: "utf8",
	});
	const output = result.stdout + result.stderr;
	const wallTime = /Time:\s+[\d.]+ s \(virtual time [\d.]+ m?s\)/.test(output);
	if (
		result.status !== 1 ||
		!output.includes("fails on purpose") ||
		!output.includes("0 passed, 1 failed") ||
		!wallTime
	) {
		process.stdout.write(
			`gate self-check: a failing spec did not fail the run (exit ${result.status})\n${output}\n0 passed, 1 failed\n`,
		);
		process.exit(1);
	}
	checked("a failing spec fails the run (exit 1, failure printed, wall time shown)");
	// Four spec files in one run: none may find an earlier file's sandbox alive.
	const released = spawnSync(
		process.execPath,
		[fileURLToPath(import.meta.url), "--no-build", "--root", `${FIXTURES}.released`],
		{ cwd: projectDir, encoding: "utf8" },
	);
	if (released.status !== 0 || !released.stdout.includes("4 passed, 0 failed")) {
		process.stdout.write(
			`gate self-check: a finished spec file stayed in memory\n${released.stdout}${released.stderr}\n0 passed, 1 failed\n`,
		);
		process.exit(1);
	}
	checked("a finished spec file's sandbox is reclaimed (4 files)");
	// luau-web's debug text on C's stdout (stdout.mjs) must not be kept: 1e6 getmetatable calls kept 185 MB.
	const quiet = spawnSync(
		process.execPath,
		["--expose-gc", join(gateDir, "fixtures", "stdout", "getmetatable.mjs")],
		{ cwd: projectDir, encoding: "utf8" },
	);
	const heapUsed = Number.parseFloat(quiet.stdout);
	if (quiet.status !== 0 || !(heapUsed < 50)) {
		process.stdout.write(
			`gate self-check: luau-web's stdout kept ${quiet.stdout.trim()} MB after 1e6 getmetatable calls\n${quiet.stderr}\n0 passed, 1 failed\n`,
		);
		process.exit(1);
	}
	checked(`luau-web's debug text is dropped (${heapUsed} MB kept after 1e6 getmetatable calls)`);
}

// A self-check passed, within 80 columns.
function checked(what) {
	process.stdout.write(`${wrap(`gate self-check: ${what}`).join("\n")}\n`);
}

// jest's summary lines of one worker, which the run's own summary replaces.
const WORKER_SUMMARY = /^(\s*|(Test Suites|Tests|Snapshots|Time):.*|Ran all test suites.*|\d+ passed, \d+ failed.*)$/;

// Runs the files over `count` child processes (files dealt round-robin, each child a gate of
// its own on its share). Each child's lines pass through as they come (a line a spec file as
// it finishes); its own jest summary is held back, and one summary for all of them ends the
// run. Returns the exit code.
async function runWorkers(files, count, options) {
	const started = wallNow();
	const shares = Array.from({ length: count }, (_, worker) => files.filter((_, i) => i % count === worker));
	const outcomes = await Promise.all(
		shares.map(
			(share) =>
				new Promise((done) => {
					const pattern = exactly(share);
					const args = [fileURLToPath(import.meta.url), "--no-build", "--workers", "1", pattern];
					if (options.verbose) args.push("--verbose");
					args.push("--signals", options.signals, "--heap", String(options.heap));
					args.push("--virtual-days", String(options.virtualDays));
					const child = spawn(process.execPath, args, { cwd: projectDir, stdio: ["ignore", "pipe", "pipe"] });
					let partial = "";
					let summary = false;
					const tail = [];
					child.stdout.on("data", (chunk) => {
						const lines = (partial + chunk).split("\n");
						partial = lines.pop();
						const shown = [];
						for (const line of lines) {
							summary ||= /^Test Suites:/.test(line);
							(summary ? tail : shown).push(line);
						}
						if (shown.length > 0) process.stdout.write(`${shown.join("\n")}\n`);
					});
					child.stderr.on("data", (chunk) => process.stderr.write(chunk));
					child.on("close", (code) => {
						if (partial) tail.push(partial);
						const kept = tail.filter((line) => !WORKER_SUMMARY.test(line));
						if (kept.length > 0) process.stdout.write(`${kept.join("\n")}\n`);
						done({ code, summary: SUMMARY.exec(tail.slice(-3).join("\n")) });
					});
				}),
		),
	);
	const total = [0, 0, 0];
	for (const { code, summary } of outcomes) {
		// A worker that ended without its summary line counts as one failure.
		if (!summary) total[1] += 1;
		else for (let i = 0; i < 3; i++) total[i] += Number(summary[i + 1] ?? 0);
		if (code !== 0 && summary && Number(summary[2]) === 0) total[1] += 1;
	}
	const wall = ((wallNow() - started) / 1000).toFixed(2);
	process.stdout.write(`Time: ${wall} s, ${count} workers, ${files.length} files\n`);
	process.stdout.write(`${total[0]} passed, ${total[1]} failed${total[2] > 0 ? `, ${total[2]} skipped` : ""}\n`);
	return total[1] > 0 || total[0] === 0 ? 1 : 0;
}

async function main() {
	const options = parseArgs(process.argv.slice(2));
	// A program's --help is its usage only: no rebuild first when out/ holds it.
	const help = options.args.includes("--help") || options.args.includes("-h");
	if (options.command) checkArgs(options.command, options.args);
	if (options.build && !(help && existsSync(join(projectDir, "out")))) build();
	if (options.selfCheck) selfCheck();
	if (options.mode === "jest" && options.defaultRoot && options.workers > 1) {
		const pattern = options.testPathPattern && new RegExp(options.testPathPattern);
		const files = specFiles(projectDir).filter((file) => !pattern || pattern.test(file));
		if (files.length > 1) {
			process.exitCode = await runWorkers(files, Math.min(options.workers, files.length), options);
			return;
		}
	}
	if (options.mode === "main" && options.args.includes("--json")) npmBannerNote();
	raiseHeap(options.heap);
	filterStdout();
	deterministicClock();
	({ LuauState, InternalLuauWasmModule: LuauModule } = await import("luau-web"));
	const traces = traceMapper();
	const colour = process.stdout.isTTY && !process.env.CI;
	const paint = { MessageWarning: "\x1b[33m", MessageError: "\x1b[31m" };
	const status = statusLine();
	const report = jestReport(options.testPathPattern);
	let state;
	const chunks = compiler(() => state, report.chunk);
	const front = createFront();
	const env = {
		__host_read: (path) => {
			try {
				return readFileSync(resolve(projectDir, path), "utf8");
			} catch {
				return undefined;
			}
		},
		__host_list: (path) => {
			try {
				const full = resolve(projectDir, path);
				if (!statSync(full).isDirectory()) return undefined;
				// Symbolic links are followed, as Rojo follows them.
				const isDir = (entry) =>
					entry.isDirectory() || (entry.isSymbolicLink() && statSync(join(full, entry.name)).isDirectory());
				return readdirSync(full, { withFileTypes: true })
					.map((entry) => `${isDir(entry) ? "d" : "f"} ${entry.name}`)
					.join("\n");
			} catch {
				return undefined;
			}
		},
		__host_load: chunks.load,
		__host_unpin: chunks.unpin,
		__host_clock: () => wallNow() / 1000,
		__host_write: (kind, text) => {
			let mapped = traces.map(String(text));
			if (kind === "Report") mapped = mapped.split("\n").map(report.line).join("\n");
			if (kind === "Progress") return status.show(mapped);
			if (kind === "FileResult") return report.file(mapped);
			status.show("");
			const start = colour && paint[kind] ? paint[kind] : "";
			// With --json, stdout holds the JSON alone.
			const stream = kind === "Stderr" || (tool.json && kind !== "Json") ? process.stderr : process.stdout;
			stream.write(start + mapped + (start ? "\x1b[0m" : "") + "\n");
		},
		__host_file_map: (text) => traces.load(String(text)),
		// The loopback HTTP front of the emulated Open Cloud (front.mjs): Luau polls it, never the reverse.
		__host_front: (command, payload) =>
			front.call(String(command), payload === undefined ? undefined : String(payload)),
		__engine_dir: relative(projectDir, join(gateDir, "engine")),
		__config: JSON.stringify({
			project: options.project,
			roots: options.roots,
			jest: ["ReplicatedStorage", "rbxts_include", "node_modules", "@rbxts-js", "Jest"],
			testPathPattern: options.testPathPattern,
			verbose: options.verbose,
			terminal: Boolean(process.stdout.isTTY) && !process.env.CI,
			...terminalSize(),
			mode: options.mode,
			main: options.main,
			args: options.args,
			epoch: EPOCH,
			signals: options.signals,
			virtualDays: options.virtualDays,
			...tool,
		}),
	};
	state = await LuauState.createAsync(env);
	const boot = state.loadstring(
		`local host = { read = __host_read, list = __host_list, load = __host_load, unpin = __host_unpin, clock = __host_clock,
			write = __host_write, fileMap = __host_file_map, front = __host_front, engineDir = __engine_dir }
		local init = host.load(host.read(host.engineDir .. "/init.luau"), "=gate/init")
		if type(init) ~= "function" then error(init) end
		return init(host, __config)`,
		"=gate/boot",
		true,
	);
	let code;
	try {
		[code] = await boot();
	} catch (error) {
		process.stdout.write(
			`gate: the engine failed: ${traces.map(String(error?.message ?? error))}\n0 passed, 1 failed\n`,
		);
		code = 1;
	}
	status.show("");
	process.exitCode = typeof code === "number" ? code : 1;
}

await main();
