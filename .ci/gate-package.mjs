// The gate as a game's tool (issue 43): dist/gate, the package @rbxts/leaderboards-gate,
// packed into dist/leaderboards-gate.tgz (installs like a registry package until it is
// published). It holds spec/gate's runner and engine, its VM (luau-web) and the jest-lua
// runtime as dependencies, the `leaderboards-gate` bin (spec/gate/tool/gate.mjs), and for
// specs: the control's typings (lib/index.d.ts, from spec/gate/control.ts) with the compiled
// headlessGate() as the package's module, which its default.project.json alone puts in a
// place, and their Luau types (HeadlessGate.luau). Never part of the runtime package.

import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { luauTypes } from "./luau-types.mjs";

// What the package runs: run.mjs and the modules it imports, the engine, the summary and the tool.
const RUNNER = [
	"run.mjs",
	"command.mjs",
	"heap.mjs",
	"stdout.mjs",
	"front.mjs",
	"specfiles.mjs",
	"built.mjs",
	"summary.lua",
];

export const GATE_TARBALL = "leaderboards-gate.tgz";

function compiledControl(root) {
	const source = join(root, "spec", "gate", "control.ts");
	const compiled = join(root, "out", "spec", "gate", "control.luau");
	if (!existsSync(compiled) || statSync(compiled).mtimeMs < statSync(source).mtimeMs) {
		const cli = join(root, "node_modules", "roblox-ts", "out", "CLI", "cli.js");
		const result = spawnSync(process.execPath, [cli, "--type", "game"], { cwd: root, stdio: "inherit" });
		if (result.status !== 0) throw new Error("package gate: rbxtsc failed");
	}
	return readFileSync(compiled, "utf8");
}

/** Builds dist/gate and packs it into dist/leaderboards-gate.tgz. Returns the line to say. */
export function buildGate(root, dist, pkg) {
	const out = join(dist, "gate");
	rmSync(out, { recursive: true, force: true });
	mkdirSync(join(out, "lib"), { recursive: true });
	const gate = join(root, "spec", "gate");
	for (const file of RUNNER) cpSync(join(gate, file), join(out, file));
	cpSync(join(gate, "engine"), join(out, "engine"), { recursive: true });
	cpSync(join(gate, "tool", "gate.mjs"), join(out, "tool", "gate.mjs"));
	cpSync(join(root, "spec", "setup.lua"), join(out, "setup.lua"));
	cpSync(join(root, "LICENSE"), join(out, "LICENSE"));
	cpSync(join(gate, "tool", "README.md"), join(out, "README.md"));
	writeFileSync(join(out, "lib", "init.luau"), compiledControl(root));
	const control = readFileSync(join(gate, "control.ts"), "utf8");
	writeFileSync(join(out, "lib", "index.d.ts"), ts.transpileDeclaration(control, {}).outputText);
	// The control's Luau types, for a Luau game's editor: generated from the typings just written.
	const types = luauTypes(join(out, "lib", "index.d.ts"), {
		strict: true,
		noLib: true,
		typeRoots: [join(root, "node_modules", "@rbxts")],
	});
	writeFileSync(
		join(out, "HeadlessGate.luau"),
		types.text.replace("(npm run build:wally)", "(npm run build:gate, from spec/gate/control.ts)"),
	);
	writeFileSync(
		join(out, "default.project.json"),
		`${JSON.stringify({ name: "leaderboards-gate", tree: { $path: "lib" } }, null, "\t")}\n`,
	);
	const dependency = (name) => pkg.devDependencies[name];
	const manifest = {
		name: "@rbxts/leaderboards-gate",
		version: pkg.version,
		description:
			"The headless spec gate of @rbxts/leaderboards: a game's jest-roblox specs on the real Luau VM with an emulated Roblox engine, on a virtual clock.",
		license: pkg.license,
		main: "lib/init.luau",
		types: "lib/index.d.ts",
		bin: { "leaderboards-gate": "tool/gate.mjs" },
		dependencies: {
			"luau-web": dependency("luau-web"),
			"@rbxts-js/jest": dependency("@rbxts-js/jest"),
			"@rbxts-js/jest-globals": dependency("@rbxts-js/jest-globals"),
		},
		engines: { node: ">=20" },
		keywords: ["roblox", "roblox-ts", "jest", "testing"],
		publishConfig: { access: "public" },
	};
	writeFileSync(join(out, "package.json"), `${JSON.stringify(manifest, null, "\t")}\n`);
	const packed = spawnSync("npm", ["pack", "--silent", "--pack-destination", dist], { cwd: out, encoding: "utf8" });
	if (packed.status !== 0) throw new Error(`package gate: npm pack failed\n${packed.stderr}`);
	renameSync(join(dist, packed.stdout.trim()), join(dist, GATE_TARBALL));
	return `built the gate ${manifest.name}@${manifest.version} in ${relative(root, out)}, packed as ${relative(root, join(dist, GATE_TARBALL))}: npm install --save-dev ${relative(root, join(dist, GATE_TARBALL))}`;
}
