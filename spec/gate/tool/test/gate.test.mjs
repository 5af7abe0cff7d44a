// leaderboards-gate's command line (spec/gate/tool/gate.mjs), run in a fixture place
// (spec/gate/fixtures/tool: Luau specs, no jest.config, no jest-lua of its own).

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..");
const place = join(root, "spec/gate/fixtures/tool");
const errors = join(root, "spec/gate/fixtures/errors");

function gate(args, cwd = place) {
	const result = spawnSync(process.execPath, [join(root, "spec/gate/tool/gate.mjs"), ...args], {
		cwd,
		encoding: "utf8",
	});
	return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

test("--help of the tool and of each command fits 80 columns and exits 0", () => {
	for (const args of [["--help"], ["test", "--help"], ["run", "-h"]]) {
		const run = gate(args);
		assert.equal(run.code, 0);
		assert.match(run.stdout, /^usage: leaderboards-gate /);
		for (const line of run.stdout.split("\n")) assert.ok(line.length <= 80, `${args.join(" ")}: ${line}`);
	}
});

test("a usage error exits 2 with the reason on stderr and nothing on stdout", () => {
	for (const [args, reason] of [
		[["test", "--bad"], "unknown option --bad"],
		[["frobnicate"], "unknown command frobnicate (test or run)"],
		[["run"], "run needs --main A.B.C"],
		[["test", "a", "b"], "one pattern at most, not a b"],
		[["test", "--heap", "1e3"], "--heap must be a whole number from 64 to 4,095, not 1e3"],
		[
			["test", "--project", "missing.project.json"],
			`no Rojo project at ${join(place, "missing.project.json")} (--project FILE)`,
		],
	]) {
		const run = gate(args);
		assert.equal(run.code, 2, args.join(" "));
		assert.equal(run.stdout, "");
		assert.equal(run.stderr.split("\n")[0], `leaderboards-gate: ${reason}`);
	}
	const bare = gate([]);
	assert.equal(bare.code, 2);
	assert.equal(bare.stdout, "");
	assert.match(bare.stderr, /^usage: leaderboards-gate <command>/);
});

test("test finds the place's specs, brings jest-lua, and ends with jest's summary and N passed, N failed", () => {
	const run = gate(["test"]);
	assert.equal(run.code, 0, run.stdout + run.stderr);
	assert.match(run.stdout, /^ PASS {2}Game\/Sum\.spec {2}2 passed, 0 failed {2}[\d.]+ s \(virtual 60(\.\d+)? s\)$/m);
	assert.match(run.stdout, /^Tests: +3 passed, 3 total$/m);
	assert.equal(run.stdout.trimEnd().split("\n").pop(), "3 passed, 0 failed");
});

test("a pattern narrows the spec files; --json prints the results alone on stdout", () => {
	const run = gate(["test", "Late", "--json"]);
	assert.equal(run.code, 0, run.stderr);
	const results = JSON.parse(run.stdout);
	assert.deepEqual(
		{
			summary: results.summary,
			passed: results.passed,
			failed: results.failed,
			files: results.files.map((file) => file.file),
		},
		{ summary: "1 passed, 0 failed", passed: 1, failed: 0, files: ["Game/Late.spec"] },
	);
	assert.match(run.stderr, /Ran all test suites matching \/Late\/\./);
});

test("run --main runs a module's main in the place; its error prints without --verbose", () => {
	const run = gate(["run", "--project", "errors.project.json", "--main", "ServerScriptService.Main.throws"], errors);
	assert.equal(run.code, 1);
	assert.equal(run.stderr, "gate: main/throws.luau:4: boom from my test\n");
});
