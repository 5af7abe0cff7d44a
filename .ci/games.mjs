#!/usr/bin/env node
// The fixture games (examples/games) as a game's CI runs them (issue 43): each is copied to
// dist/games/<name> and runs the `run:` steps of its own GitHub Actions workflow
// (.github/workflows/test.yml, the one docs/testing.md shows) in order, but the installs:
// `npm ci` installs the gate's tarball and the npm package through npm instead (neither is
// published; npm's cache first, the registry only for what it lacks), and `wally install`
// lays the Leaderboards package out as Wally does (its CLI cannot run here). Then the
// tool's own tests of the installed games (spec/gate/tool/games/): a deliberately failing
// spec in each.
// Ends with `N passed, N failed`; exit 1 on any failure.
//
//   node .ci/games.mjs            after node .ci/package.mjs (dist/npm, dist/wally, the gate tarball)

import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "smol-toml";
import { GATE_TARBALL } from "./gate-package.mjs";
import { SUMMARY } from "../spec/gate/specfiles.mjs";
import { installWally } from "./wally-install.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");
const GAMES = join(dist, "games");
const say = (line) => process.stdout.write(`${line}\n`);

function npm(args, cwd) {
	const result = spawnSync("npm", args, { cwd, encoding: "utf8" });
	if (result.status !== 0) throw new Error(`games: npm ${args.join(" ")} failed in ${cwd}\n${result.stderr}`);
}

// npm install from the cache first (--prefer-offline): the registry only for what it lacks.
const INSTALL = ["install", "--prefer-offline", "--no-audit", "--no-fund", "--no-save", "--ignore-scripts"];

function installRbxts(dir) {
	npm(["pack", "--silent", "--pack-destination", dist, join(dist, "npm")], root);
	const library = JSON.parse(readFileSync(join(dist, "npm", "package.json"), "utf8"));
	const tarball = join(dist, `rbxts-leaderboards-${library.version}.tgz`);
	npm([...INSTALL, join(dist, GATE_TARBALL), tarball], dir);
}

function installLuau(dir) {
	installWally(parse(readFileSync(join(root, "wally.toml"), "utf8")), join(dist, "wally"), dir);
	npm([...INSTALL, join(dist, GATE_TARBALL)], dir);
}

const INSTALLS = {
	"npm ci": (dir) => {
		const tarballs = [join(dist, GATE_TARBALL)];
		const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
		if (manifest.dependencies?.["@rbxts/leaderboards"]) {
			npm(["pack", "--silent", "--pack-destination", dist, join(dist, "npm")], root);
			const library = JSON.parse(readFileSync(join(dist, "npm", "package.json"), "utf8"));
			tarballs.push(join(dist, `rbxts-leaderboards-${library.version}.tgz`));
		}
		npm([...INSTALL, ...tarballs], dir);
	},
	"wally install": (dir) =>
		installWally(parse(readFileSync(join(root, "wally.toml"), "utf8")), join(dist, "wally"), dir),
};

// The `run:` steps of the game's workflow.
function steps(dir) {
	const workflow = readFileSync(join(dir, ".github", "workflows", "test.yml"), "utf8");
	return [...workflow.matchAll(/^\s*- run: (.+)$/gm)].map((match) => match[1].trim());
}

// Runs a step in a game: its output passes through; returns the summary counts it ended with.
function run(step, dir) {
	return new Promise((done) => {
		const child = spawn(step, { cwd: dir, shell: true, stdio: ["ignore", "pipe", "inherit"] });
		let tail = "";
		child.stdout.on("data", (chunk) => {
			process.stdout.write(chunk);
			tail = (tail + chunk).slice(-4096);
		});
		child.on("close", (code) => {
			const summary = SUMMARY.exec(tail.trimEnd().split("\n").pop() ?? "");
			const [passed, failed] = summary ? [Number(summary[1]), Number(summary[2])] : [0, 0];
			done({ passed, failed: failed + (code !== 0 && failed === 0 ? 1 : 0) });
		});
	});
}

async function main() {
	if (!existsSync(join(dist, GATE_TARBALL)) || !existsSync(join(dist, "wally")))
		throw new Error("games: build the packages first: node .ci/package.mjs");
	const total = { passed: 0, failed: 0 };
	for (const game of ["rbxts", "luau"]) {
		const dir = join(GAMES, game);
		rmSync(dir, { recursive: true, force: true });
		mkdirSync(dir, { recursive: true });
		cpSync(join(root, "examples", "games", game), dir, { recursive: true });
		for (const step of steps(dir)) {
			const started = performance.now();
			const install = INSTALLS[step];
			say(`games: ${relative(root, dir)}$ ${step}${install ? " (from dist/, as below)" : ""}`);
			if (install) {
				install(dir);
				say(`games: installed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
				continue;
			}
			const { passed, failed } = await run(step, dir);
			total.passed += passed;
			total.failed += failed;
		}
	}
	// The tool's own tests of the installed games: a deliberately failing spec in each.
	const tests = spawnSync(process.execPath, ["--test", "--test-reporter", "dot", "spec/gate/tool/games/"], {
		cwd: root,
		stdio: "inherit",
	});
	if (tests.status === 0) total.passed += 1;
	else total.failed += 1;
	say(`${total.passed} passed, ${total.failed} failed`);
	process.exitCode = total.failed > 0 || total.passed === 0 ? 1 : 0;
}

await main();
