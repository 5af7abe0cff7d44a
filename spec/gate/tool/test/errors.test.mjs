// Errors are never silent: without --verbose, a test module that throws, a misspelt
// require, an unknown class, a spec file whose require fails and an uncaught error
// in a thread each print one line naming the file and line they came from.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..");
const project = "spec/gate/fixtures/errors/errors.project.json";
const files = "spec/gate/fixtures/errors";

function gate(...args) {
	const result = spawnSync(
		process.execPath,
		[join(root, "spec/gate/run.mjs"), "--no-build", "--project", project, ...args],
		{
			cwd: root,
			encoding: "utf8",
		},
	);
	return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

test("a test module that throws prints its cause, file and line, and exits 1", () => {
	const run = gate("--main", "ServerScriptService.Main.throws");
	assert.equal(run.code, 1);
	assert.equal(run.stdout, "");
	assert.equal(run.stderr, `gate: ${files}/main/throws.luau:4: boom from my test\n`);
});

test("a misspelt require names the member and where it was asked for", () => {
	const run = gate("--main", "ServerScriptService.Main.misspelt");
	assert.equal(run.code, 1);
	assert.equal(
		run.stderr,
		`gate: ${files}/main/misspelt.luau:2: Scroes is not a valid member of Folder "ServerScriptService.Main"\n`,
	);
});

test("a class the engine does not have is named at the script's line", () => {
	const run = gate("--main", "ServerScriptService.Main.unknownClass");
	assert.equal(run.code, 1);
	assert.equal(
		run.stderr,
		`gate: ${files}/main/unknownClass.luau:4: Unable to create an Instance of type "NoSuchClass"\n`,
	);
});

test("an uncaught error in a spawned thread is printed, and the run goes on", () => {
	const run = gate("--main", "ServerScriptService.Main.uncaught");
	assert.equal(run.code, 0);
	assert.equal(run.stderr, `gate: ${files}/main/uncaught.luau:5: uncaught in a thread\n`);
});

test("a spec file whose require fails names the innermost cause; a spec's uncaught error is printed", () => {
	const run = gate("--root", "ServerScriptService.Specs");
	assert.equal(run.code, 1);
	assert.match(
		run.stdout,
		new RegExp(`^Specs/failedRequire\\.spec failed to run: ${files}/specs/broken\\.luau:2: broken on load$`, "m"),
	);
	assert.match(run.stdout, /^1 passed, 1 failed$/m);
	assert.equal(run.stderr, `gate: ${files}/specs/uncaught.spec.luau:6: uncaught in a spec's thread\n`);
});
