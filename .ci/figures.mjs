#!/usr/bin/env node
// The demo run docs/demo.md quotes is the demo's own output: the run is
// deterministic for a seed (virtual time), so a fresh `npm run demo` must print
// the quoted block exactly. CI runs this after npm test (about 25 s); the cheap
// bench rows are checked in npm test itself (spec/docs/figures.spec.ts).
//
//   node .ci/figures.mjs          exit 1 with a diff hint when the block differs
//   node .ci/figures.mjs --write  puts a fresh run in the block

import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const page = join(root, "docs", "demo.md");
const MARKER = "<!-- generated: npm run demo -->\n```\n$ npm run demo\n";

const run = spawnSync(
	process.execPath,
	["spec/gate/run.mjs", "--no-build", "--main", "ServerScriptService.Leaderboards.examples.demo.main", "--"],
	{ cwd: root, encoding: "utf8", env: { ...process.env, CI: "true" } },
);
if (run.status !== 0) {
	process.stderr.write(`figures: npm run demo failed (exit ${run.status})\n${run.stdout}${run.stderr}`);
	process.exit(1);
}
const fresh = run.stdout.trimEnd();
const text = readFileSync(page, "utf8");
const start = text.indexOf(MARKER);
const end = text.indexOf("\n```", start + MARKER.length);
if (start < 0 || end < 0) {
	process.stderr.write(`figures: docs/demo.md has no block starting ${JSON.stringify(MARKER)}\n`);
	process.exit(1);
}
const quoted = text.slice(start + MARKER.length, end);
if (process.argv.includes("--write")) {
	writeFileSync(page, text.slice(0, start + MARKER.length) + fresh + text.slice(end));
	process.stdout.write("figures: docs/demo.md has a fresh demo run\n");
} else if (quoted !== fresh) {
	const a = quoted.split("\n");
	const b = fresh.split("\n");
	const line = a.findIndex((value, i) => value !== b[i]);
	process.stderr.write(
		`figures: docs/demo.md quotes a demo run that a fresh one no longer prints (first at line ${line + 1}):\n` +
			`  quoted: ${a[line]}\n  fresh:  ${b[line]}\nrun node .ci/figures.mjs --write and commit\n`,
	);
	process.exit(1);
} else process.stdout.write("figures: the demo run docs/demo.md quotes is what a fresh run prints\n");
