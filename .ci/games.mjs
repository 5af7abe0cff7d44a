#!/usr/bin/env node
// The fixture games (examples/games) as a game's CI runs them (issue 43): each is copied to
// dist/games/<name>, gets its packages the way it would (the gate's tarball and the npm
// package through npm, from npm's cache when it has them; the Luau game's Leaderboards
// laid out as `wally install` does, since the Wally CLI cannot run here), and runs its
// specs with the one command, `npx leaderboards-gate test`. Then the tool's own tests of
// the installed games (spec/gate/tool/games/): a deliberately failing spec in each.
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
export const GAMES = join(dist, "games");
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

export const games = [
	{ name: "rbxts", install: installRbxts },
	{ name: "luau", install: installLuau },
];

// Runs `npx leaderboards-gate test` in a game: its output passes through; returns the summary counts.
function test(dir) {
	return new Promise((done) => {
		const child = spawn("npx", ["leaderboards-gate", "test"], { cwd: dir, stdio: ["ignore", "pipe", "inherit"] });
		let tail = "";
		child.stdout.on("data", (chunk) => {
			process.stdout.write(chunk);
			tail = (tail + chunk).slice(-4096);
		});
		child.on("close", (code) => {
			const summary = SUMMARY.exec(tail.trimEnd().split("\n").pop() ?? "");
			const [passed, failed] = summary ? [Number(summary[1]), Number(summary[2])] : [0, 1];
			done({ passed, failed: failed + (code !== 0 && failed === 0 ? 1 : 0) });
		});
	});
}

async function main() {
	if (!existsSync(join(dist, GATE_TARBALL)) || !existsSync(join(dist, "wally")))
		throw new Error("games: build the packages first: node .ci/package.mjs");
	const total = { passed: 0, failed: 0 };
	for (const game of games) {
		const dir = join(GAMES, game.name);
		rmSync(dir, { recursive: true, force: true });
		mkdirSync(dir, { recursive: true });
		cpSync(join(root, "examples", "games", game.name), dir, { recursive: true });
		const started = performance.now();
		game.install(dir);
		say(`games: installed ${relative(root, dir)} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
		say(`games: ${relative(root, dir)}$ npx leaderboards-gate test`);
		const { passed, failed } = await test(dir);
		total.passed += passed;
		total.failed += failed;
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

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
