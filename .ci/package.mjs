#!/usr/bin/env node
// Builds what games consume, and the consumers that prove it, since the wally
// and rojo binaries cannot run here:
//
//   node .ci/package.mjs npm        dist/npm: the @rbxts package (package-type Luau + .d.ts, and the
//                                   moderation tool cli/ as its bin)
//   node .ci/package.mjs wally      dist/wally: the Wally package (same Luau, runtime inside, and
//                                   Luau types generated from the declarations: .ci/luau-types.mjs)
//   node .ci/package.mjs consumers  dist/consumers: a plain Luau place with ServerPackages laid
//                                   out as `wally install` does, and a tiny roblox-ts game
//                                   compiled against the npm package with rbxtsc 3 and with
//                                   rbxtsc 2.3, each with the example stages (examples/stages);
//                                   the README's minimal game (examples/game) in both, and the games of
//                                   docs/boards-players-see.md (examples/clients); dist/checks: wally.toml parsed by a real TOML
//                                   parser, the Roblox class names from @rbxts/types, the peer
//                                   ranges against each compiler's types, and the declarations'
//                                   surface, for the manifest, project and types specs
//   node .ci/package.mjs gate       dist/gate: the gate as a game's tool (.ci/gate-package.mjs),
//                                   packed into dist/leaderboards-gate.tgz
//   node .ci/package.mjs            all of them (what npm test runs first)

import { spawnSync } from "node:child_process";
import {
	cpSync,
	existsSync,
	mkdirSync,
	readFileSync,
	readdirSync,
	renameSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import semver from "semver";
import { parse } from "smol-toml";
import ts from "typescript";
import { buildGate } from "./gate-package.mjs";
import { installWally } from "./wally-install.mjs";
import { luauTypes } from "./luau-types.mjs";
import { wrap } from "../spec/gate/command.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
// The compilers a game may use: the project's own, and the 2.x line games still run on.
const compilers = {
	rbxts: {
		cli: join(root, "node_modules", "roblox-ts", "out", "CLI", "cli.js"),
		types: "@rbxts/compiler-types",
		typescript: join(root, "node_modules", "typescript"),
	},
	"rbxts-2": {
		cli: join(root, "node_modules", "roblox-ts-2", "out", "CLI", "cli.js"),
		types: "rbxts-compiler-types-2",
		typescript: join(root, "node_modules", "roblox-ts-2", "node_modules", "typescript"),
	},
};
const rbxtsc = compilers.rbxts.cli;
const quiet = process.argv.includes("--quiet");

// What a build made and where, for the person who ran it.
// (npm test passes --quiet; the lines are also kept in dist/checks/built.json for the packaging spec.)
const said = [];
function say(line) {
	said.push(line);
	if (!quiet) process.stdout.write(`${shown(line)}\n`);
}

// Within 80 columns, the command to run next (after the last ": ") on a line of its own to copy.
function shown(line) {
	const at = line.lastIndexOf(": ");
	return line.length <= 80 || at < 0
		? line
		: [...wrap(line.slice(0, at + 1)), `    ${line.slice(at + 2)}`].join("\n");
}

function versionOf(packageDir) {
	return JSON.parse(readFileSync(join(root, "node_modules", packageDir, "package.json"), "utf8")).version;
}

function run(args, cwd) {
	const result = spawnSync(process.execPath, args, { cwd, stdio: "inherit" });
	if (result.status !== 0) {
		process.stderr.write(`package: ${args.join(" ")} failed in ${cwd}\n`);
		process.exit(1);
	}
}

function fresh(dir) {
	rmSync(dir, { recursive: true, force: true });
	mkdirSync(dir, { recursive: true });
}

function writeJson(path, value) {
	mkdirSync(dirname(path), { recursive: true });
	writeFileSync(path, JSON.stringify(value, null, "\t") + "\n");
}

// The npm package: package-type Luau (relative requires, the runtime from the
// consumer's TS.import) with declarations, and the package.json as published.
function buildNpm() {
	const out = join(dist, "npm");
	fresh(out);
	// rbxtsc resolves modules through a Rojo project even for a package; this one is for the build only.
	const project = join(dist, "npm.project.json");
	writeJson(project, { name: "leaderboards", tree: { $path: "npm/out" } });
	run([rbxtsc, "--type", "package", "-p", "tsconfig.package.json", "--rojo", project], root);
	const published = { ...pkg };
	delete published.scripts;
	delete published.devDependencies;
	writeJson(join(out, "package.json"), published);
	for (const file of ["README.md", "LICENSE"]) cpSync(join(root, file), join(out, file));
	// The moderation tool (package.json "bin": npx @rbxts/leaderboards): plain Node modules, no build.
	for (const dir of ["bin", "src"]) cpSync(join(root, "cli", dir), join(out, "cli", dir), { recursive: true });
	// and the contract it reads, the data file the library's constants are generated from.
	const contract = join("plugins", "leaderboards", "contracts", "outside", "contract.json");
	cpSync(join(root, contract), join(out, contract));
	say(
		`built the npm package ${pkg.name}@${pkg.version} in ${relative(root, out)} (Luau and .d.ts under out/); publish from there: npm publish ${relative(root, out)}`,
	);
}

// The Luau types, from the declarations the npm build just emitted: the package entry's, or `entry`'s.
function generateTypes(entry = pkg.types) {
	const config = ts.getParsedCommandLineOfConfigFile(
		join(root, "tsconfig.package.json"),
		{},
		{
			...ts.sys,
			onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
				throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
			},
		},
	);
	return luauTypes(join(dist, "npm", entry), config.options);
}

// The Wally package: the same Luau with the roblox-ts runtime (RuntimeLib,
// Promise) and @rbxts/services inside it, since a Luau game has no rbxts_include.
function buildWally() {
	const out = join(dist, "wally");
	fresh(out);
	const src = join(out, "src");
	cpSync(join(dist, "npm", "out"), src, { recursive: true, filter: (path) => !path.endsWith(".d.ts") });
	cpSync(join(root, "node_modules", "roblox-ts", "include"), join(src, "include"), { recursive: true });
	cpSync(join(root, "node_modules", "@rbxts", "services"), join(src, "node_modules", "@rbxts", "services"), {
		recursive: true,
		filter: (path) => !path.endsWith(".d.ts") && !path.endsWith("package.json"),
	});
	const types = generateTypes();
	// The stage author's entry (@rbxts/leaderboards/extend), typed the same way, is the package's Extend field.
	const extend = generateTypes(pkg.typesVersions["*"].extend[0]);
	writeFileSync(
		join(src, "ExtendTypes.luau"),
		extend.text.replace(
			"--- What require(Leaderboards) returns.",
			"--- Leaderboards.Extend: what a game's own stage uses.",
		),
	);
	// The client's entry (@rbxts/leaderboards/client) likewise, the package's Client field.
	const client = generateTypes(pkg.typesVersions["*"].client[0]);
	writeFileSync(
		join(src, "ClientTypes.luau"),
		client.text.replace("--- What require(Leaderboards) returns.", "--- Leaderboards.Client: boards players see."),
	);
	writeFileSync(
		join(src, "Types.luau"),
		types.text
			.replace(
				"\n\n",
				"\n\nlocal ExtendTypes = require(script.Parent.ExtendTypes)\nlocal ClientTypes = require(script.Parent.ClientTypes)\n\n",
			)
			.replace(
				"export type Package = {\n",
				"export type Package = {\n\t--- What a game's own stage (options.Stages) uses: @rbxts/leaderboards/extend in roblox-ts.\n\tExtend: ExtendTypes.Package,\n\t--- Boards players see, on a client: @rbxts/leaderboards/client in roblox-ts.\n\tClient: ClientTypes.Package,\n",
			),
	);
	// Wally forwards the entry's `export type`s into the link module a game requires.
	const forwards = types.exported.map((name) => {
		const parameters = types.parameters[name];
		return parameters
			? `export type ${name}<${parameters}> = Types.${name}<${parameters}>`
			: `export type ${name} = Types.${name}`;
	});
	writeFileSync(
		join(src, "init.luau"),
		`--!strict
-- Leaderboards for plain Luau games: require(Packages.Leaderboards).
-- The compiled roblox-ts modules get their runtime from TS.import; this entry
-- loads the runtime that ships inside the package and imports the plugin,
-- which also carries the kernel (Kernel, Logger, Bus, Scheduler, ...). Its
-- types come from Types.luau, generated from the TypeScript declarations.
local TS = require(script.include.RuntimeLib)
local Types = require(script.Types)

${forwards.join("\n")}

local Package = TS.import(script, script, "plugins", "leaderboards")
-- A game's own stage (options.Stages) takes what it needs from here; roblox-ts: @rbxts/leaderboards/extend.
Package.Extend = TS.import(script, script, "plugins", "leaderboards", "extend")
-- Boards players see, required on a client too (docs/boards-players-see.md); roblox-ts: @rbxts/leaderboards/client.
Package.Client = TS.import(script, script, "plugins", "leaderboards", "client")
return (Package :: any) :: Types.Package
`,
	);
	writeJson(join(dist, "checks", "luau-types.json"), {
		surface: types.surface,
		exported: types.exported,
		client: { surface: client.surface, exported: client.exported },
	});
	writeJson(join(out, "default.project.json"), { name: "leaderboards", tree: { $path: "src" } });
	for (const file of ["README.md", "LICENSE", "wally.toml"]) cpSync(join(root, file), join(out, file));
	say(
		`built the Wally package ${manifest.package.name}@${manifest.package.version} in ${relative(root, out)} (the runtime inside, ${types.exported.length} Luau types in src/Types.luau); publish from there: cd ${relative(root, out)} && wally publish`,
	);
}

function buildLuauConsumer(manifest) {
	const out = join(dist, "consumers", "luau");
	fresh(out);
	installWally(manifest, join(dist, "wally"), out);
	cpSync(join(root, "spec", "packaging", "fixtures", "luau"), out, { recursive: true });
	renameSync(join(out, "place.project.json"), join(out, "default.project.json"));
	cpSync(join(root, "examples", "luau", "BoardService.luau"), join(out, "Services", "BoardService.luau"));
	// The example stages a Luau game copies (docs/extending.md), run by spec/packaging/stages.spec.ts.
	cpSync(join(root, "examples", "stages", "luau"), join(out, "Stages"), { recursive: true });
}

// The README's minimal game (examples/game), unchanged: in Luau with the Wally
// package installed, and in roblox-ts compiled against the npm package.
function buildMinimalGames(manifest) {
	const out = join(dist, "consumers", "game-luau");
	fresh(out);
	cpSync(join(root, "examples", "game", "luau"), out, { recursive: true });
	installWally(manifest, join(dist, "wally"), out);
	buildRbxtsGame("rbxts", join(root, "examples", "game", "ts"), join(dist, "consumers", "game-ts"));
}

// The games of docs/boards-players-see.md (examples/clients), unchanged: the Luau one with the Wally
// package a shared dependency (ReplicatedStorage.Packages, which clients require too), the roblox-ts one.
function buildClientGames(manifest) {
	const out = join(dist, "consumers", "clients-luau");
	fresh(out);
	cpSync(join(root, "examples", "clients", "luau"), out, { recursive: true });
	installWally(manifest, join(dist, "wally"), out, "Packages");
	buildRbxtsGame("rbxts", join(root, "examples", "clients", "ts"), join(dist, "consumers", "clients-ts"));
}

// A tiny roblox-ts game that imports the package by name, compiled with one
// compiler and that compiler's own types and runtime (rbxts_include).
function buildRbxtsConsumer(compiler) {
	const out = join(dist, "consumers", compiler);
	// With the example stages a roblox-ts game copies (docs/extending.md): rbxtsc type-checks them
	// against the package, and spec/packaging/stages.spec.ts runs them.
	buildRbxtsGame(compiler, join(root, "spec", "packaging", "fixtures", "rbxts"), out, {
		stages: join(root, "examples", "stages", "ts"),
	});
	const { types, typescript } = compilers[compiler];
	// What npm checks before it installs the package into such a game: the peer ranges.
	const compilerTypes = versionOf(types);
	return {
		compiler: `roblox-ts@${versionOf(compiler === "rbxts" ? "roblox-ts" : "roblox-ts-2")}`,
		compilerTypes,
		accepted: semver.satisfies(compilerTypes, pkg.peerDependencies["@rbxts/compiler-types"]),
		typecheck: typecheck(out, typescript),
	};
}

// A roblox-ts game's files compiled in `out` with the package installed under node_modules/@rbxts;
// `sources` are more folders of the game's, by their folder under src/.
function buildRbxtsGame(compiler, fixture, out, sources = {}) {
	const { cli, types } = compilers[compiler];
	if (!existsSync(cli) || !existsSync(join(root, "node_modules", types)))
		throw new Error(`package: ${compiler}'s compiler is not installed; run npm ci (package-lock.json names it)`);
	fresh(out);
	cpSync(fixture, out, { recursive: true });
	for (const [folder, from] of Object.entries(sources)) cpSync(from, join(out, "src", folder), { recursive: true });
	if (existsSync(join(out, "place.project.json")))
		renameSync(join(out, "place.project.json"), join(out, "default.project.json"));
	const modules = join(out, "node_modules", "@rbxts");
	mkdirSync(modules, { recursive: true });
	cpSync(join(dist, "npm"), join(modules, "leaderboards"), { recursive: true });
	for (const dependency of ["services", "types"]) {
		symlinkSync(join(root, "node_modules", "@rbxts", dependency), join(modules, dependency), "dir");
	}
	symlinkSync(join(root, "node_modules", types), join(modules, "compiler-types"), "dir");
	run([cli, "--type", "game"], out);
}

// The consumer's typecheck/ files, checked (not compiled) by the compiler's own TypeScript: what a
// game's editor says. Their @ts-expect-error lines must each meet an error (roblox-ts refuses them).
function typecheck(consumer, typescript) {
	const tsc = createRequire(join(typescript, "package.json"))(typescript);
	const config = tsc.getParsedCommandLineOfConfigFile(
		join(consumer, "tsconfig.json"),
		{},
		{
			...tsc.sys,
			onUnRecoverableConfigFileDiagnostic: () => {},
		},
	);
	const dir = join(consumer, "typecheck");
	const files = readdirSync(dir).map((file) => join(dir, file));
	// As rbxtsc checks a game: the consumer's own node_modules (symlinks kept), the libraries' own errors skipped.
	const program = tsc.createProgram(files, {
		...config.options,
		rootDir: consumer,
		noEmit: true,
		preserveSymlinks: true,
		skipLibCheck: true,
	});
	const diagnostics = tsc.getPreEmitDiagnostics(program).map((diagnostic) => {
		const where = diagnostic.file
			? `${relative(consumer, diagnostic.file.fileName)}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1}: `
			: "";
		return where + tsc.flattenDiagnosticMessageText(diagnostic.messageText, " ");
	});
	const expected = files.reduce(
		(count, file) => count + (readFileSync(file, "utf8").match(/@ts-expect-error/g) ?? []).length,
		0,
	);
	return { typescript: tsc.version, files: files.length, expected, diagnostics };
}

const what = process.argv.slice(2).find((arg) => !arg.startsWith("--")) ?? "all";
const manifest = parse(readFileSync(join(root, "wally.toml"), "utf8"));
if (what === "npm" || what === "all") buildNpm();
if (what === "gate" || what === "all") say(buildGate(root, dist, pkg));
if (what === "wally" || what === "all") {
	if (!existsSync(join(dist, "npm", "out"))) buildNpm();
	buildWally();
}
if (what === "consumers" || what === "all") {
	if (!existsSync(join(dist, "wally"))) buildWally();
	fresh(join(dist, "consumers"));
	buildLuauConsumer(manifest);
	buildMinimalGames(manifest);
	buildClientGames(manifest);
	writeJson(join(dist, "checks", "peers.json"), Object.keys(compilers).map(buildRbxtsConsumer));
	writeJson(join(dist, "checks", "wally.json"), { manifest, packageJson: { name: pkg.name, version: pkg.version } });
	// The Roblox class names, for the project file checks (the declarations are too big to hand to the VM).
	const declarations = readFileSync(
		join(root, "node_modules", "@rbxts", "types", "include", "generated", "None.d.ts"),
		"utf8",
	);
	const classes = [...declarations.matchAll(/^interface (\w+) extends /gm)].map((match) => match[1]);
	writeJson(join(dist, "checks", "classes.json"), classes);
}
writeJson(join(dist, "checks", "built.json"), said);
