// A deliberately failing spec in each installed fixture game (dist/games, from .ci/games.mjs):
// without --verbose, `npx leaderboards-gate test` prints its file, line and message and exits 1.
// The spec goes into the game's src/server for the run and is taken out after it.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const games = resolve(here, "..", "..", "..", "..", "dist", "games");

function runFailing(game, file, compiled) {
	const dir = join(games, game);
	const placed = join(dir, "src", "server", file);
	copyFileSync(join(here, "fixtures", file), placed);
	try {
		return spawnSync("npx", ["leaderboards-gate", "test", "failing"], { cwd: dir, encoding: "utf8" });
	} finally {
		rmSync(placed);
		if (compiled) rmSync(join(dir, compiled), { force: true });
	}
}

test(
	"the roblox-ts game's failing spec prints its file, line and message, and exits 1",
	{ skip: !existsSync(join(games, "rbxts")) },
	() => {
		const run = runFailing("rbxts", "Wins.failing.spec.ts", "out/server/Wins.failing.spec.luau");
		assert.equal(run.status, 1, run.stdout + run.stderr);
		assert.match(run.stdout, /● Wins, deliberately wrong › expects a win that was never stored/);
		assert.match(run.stdout, /Expected: 1\n\s+Received: nil/);
		assert.match(run.stdout, /out\/server\/Wins\.failing\.spec\.luau:\d+ \(src\/server\/Wins\.failing\.spec\.ts\)/);
		assert.match(run.stdout, /^0 passed, 1 failed$/m);
	},
);

test(
	"the Luau game's failing spec prints its file, line and message, and exits 1",
	{ skip: !existsSync(join(games, "luau")) },
	() => {
		const run = runFailing("luau", "Coins.failing.spec.luau");
		assert.equal(run.status, 1, run.stdout + run.stderr);
		assert.match(run.stdout, /● expects coins that were never earned/);
		assert.match(run.stdout, /Expected: 7\n\s+Received: nil/);
		assert.match(run.stdout, /^\s+src\/server\/Coins\.failing\.spec\.luau:7$/m);
		assert.match(run.stdout, /^0 passed, 1 failed$/m);
	},
);
