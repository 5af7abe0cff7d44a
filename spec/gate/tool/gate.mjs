#!/usr/bin/env node
// leaderboards-gate: the headless gate as a game's own tool (issue 43). Runs in the
// game's folder (the one holding its Rojo project), never copied into it:
//
//   leaderboards-gate test [pattern] [--verbose] [--json] ...   the game's jest-roblox specs
//   leaderboards-gate run --main A.B.C [-- args]                one module's main(args)
//
// A game with a tsconfig.json is compiled with its own rbxtsc first (--no-build skips it).
// The run itself is spec/gate/run.mjs, as this repository runs it, on the game's folder
// (GATE_PLACE_DIR), with what the engine finds in the place told by GATE_TOOL
// (engine/discover.luau): the spec roots, and the tool's jest-lua where the game has none.

import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse, usage } from "../command.mjs";

const gateDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const NAME = "leaderboards-gate";

const COMMON = [
	{ name: "project", value: "FILE", help: "the game's Rojo project (default default.project.json)" },
	{ name: "no-build", help: "do not compile first (a roblox-ts game runs its rbxtsc unless told)" },
	{ name: "verbose", help: "show the game's print and warn output" },
	{
		name: "signals",
		value: "B",
		kind: "choice",
		choices: ["Default", "Immediate", "Deferred", "AncestryDeferred"],
		help: "Workspace.SignalBehavior: default, immediate, deferred or ancestrydeferred",
	},
	{ name: "heap", value: "MB", kind: "integer", min: 64, max: 4095, help: "the Luau VM's heap (default 512)" },
	{ name: "virtual-days", value: "N", kind: "integer", min: 1, max: 3650, help: "fail past N virtual days (30)" },
];
const COMMANDS = {
	test: {
		flags: [
			...COMMON,
			{ name: "json", help: "print the results as JSON alone on stdout (jest's report on stderr)" },
		],
		synopsis: `${NAME} test [pattern] [options]`,
		about: [
			"Runs the game's jest-roblox specs (*.spec modules) found in its Rojo project:",
			"under each jest.config, else each top-level folder holding specs. The pattern",
			"(a regular expression) narrows the spec files. Ends with jest's summary, then",
			"`N passed, N failed`; exit 0 only when every spec passed.",
		],
	},
	run: {
		flags: [{ name: "main", value: "A.B.C", help: "the ModuleScript whose main(args) runs (required)" }, ...COMMON],
		synopsis: `${NAME} run --main A.B.C [options] [-- args]`,
		about: [
			"Runs one ModuleScript's main(args) in a server of the game's place; the exit",
			"code is what main returned. Arguments after -- are main's.",
		],
	},
};
const HELP = [
	`usage: ${NAME} <command> [options]`,
	"",
	"The headless spec gate: a game's specs on the real Luau VM with an emulated",
	"Roblox engine (DataStores, MemoryStore, MessagingService, players) on a",
	"virtual clock. Run it in the folder of the game's Rojo project.",
	"",
	"  test [pattern]      run the game's jest-roblox specs",
	"  run --main A.B.C    run a module's main(args)",
	"",
	`${NAME} <command> --help lists a command's options.`,
].join("\n");

function usageError(problem, command) {
	process.stderr.write(`${NAME}: ${problem}\n${NAME} ${command ? `${command} ` : ""}--help lists the options\n`);
	process.exit(2);
}

// The folder holding the tool's jest-lua runtime (@rbxts-js: Jest, JestGlobals, ...).
function jestRuntime() {
	const jest = createRequire(import.meta.url).resolve("@rbxts-js/jest/package.json");
	return dirname(dirname(jest));
}

// A roblox-ts game (a tsconfig.json beside its project) compiles with its own rbxtsc.
function build(placeDir) {
	if (!existsSync(join(placeDir, "tsconfig.json"))) return;
	let cli;
	try {
		cli = join(
			dirname(createRequire(join(placeDir, "package.json")).resolve("roblox-ts/package.json")),
			"out/CLI/cli.js",
		);
	} catch {
		process.stderr.write(
			`${NAME}: ${placeDir} has a tsconfig.json but no roblox-ts installed (npm install, or --no-build)\n`,
		);
		process.exit(1);
	}
	// rbxtsc's output goes to stderr, so that --json leaves stdout to the JSON.
	const result = spawnSync(process.execPath, [cli, "--type", "game"], { cwd: placeDir, stdio: ["ignore", 2, 2] });
	if (result.status !== 0) {
		process.stdout.write(`${NAME}: rbxtsc failed\n0 passed, 1 failed\n`);
		process.exit(1);
	}
}

function main(argv) {
	const [command, ...rest] = argv;
	if (command === "--help" || command === "-h") {
		process.stdout.write(`${HELP}\n`);
		process.exit(0);
	}
	if (command === undefined) {
		process.stderr.write(`${HELP}\n`);
		process.exit(2);
	}
	const spec = COMMANDS[command];
	if (!spec) usageError(`unknown command ${command} (test or run)`);
	const parsed = parse(spec.flags, rest);
	if (parsed.help) {
		process.stdout.write(`${usage(spec.synopsis, spec.about, spec.flags)}\n`);
		process.exit(0);
	}
	if (parsed.problem) usageError(parsed.problem, command);
	const { values, positional } = parsed;
	if (command === "test" && positional.length > 1)
		usageError(`one pattern at most, not ${positional.join(" ")}`, command);
	if (command === "test" && parsed.rest.length > 0)
		usageError(`unexpected arguments after --: ${parsed.rest.join(" ")}`, command);
	if (command === "run" && positional.length > 0) usageError(`unexpected argument ${positional[0]}`, command);
	if (command === "run" && !values.main) usageError("run needs --main A.B.C", command);
	const project = resolve(values.project ?? "default.project.json");
	if (!existsSync(project)) usageError(`no Rojo project at ${project} (--project FILE)`, command);
	const placeDir = dirname(project);
	if (!values["no-build"]) build(placeDir);

	const args = [join(gateDir, "run.mjs"), "--no-build", "--project", basename(project)];
	if (command === "run") args.push("--main", values.main);
	else if (positional[0] !== undefined) args.push(positional[0]);
	if (values.verbose) args.push("--verbose");
	for (const flag of ["signals", "heap", "virtual-days"])
		if (values[flag] !== undefined) args.push(`--${flag}`, String(values[flag]));
	if (command === "run") args.push("--", ...parsed.rest);
	const setup = [join(gateDir, "setup.lua"), join(gateDir, "..", "setup.lua")].find((path) => existsSync(path));
	const tool =
		command === "test" ? { discover: true, jestRuntime: jestRuntime(), setup, json: values.json === true } : {};
	const result = spawnSync(process.execPath, args, {
		stdio: "inherit",
		env: { ...process.env, GATE_PLACE_DIR: placeDir, GATE_TOOL: JSON.stringify(tool) },
	});
	process.exit(result.status ?? 1);
}

main(process.argv.slice(2));
