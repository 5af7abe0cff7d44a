#!/usr/bin/env node
// Rooms with one job each: no function in plugins/ or kernel/ over about 60 lines (70 fails), and
// no file over 300 lines but those plugins/leaderboards/README.md names. Exit 1 naming each.

import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const FUNCTION_LINES = 70;
const FILE_LINES = 300;
// The one option checker (plugins/leaderboards/README.md says why).
const LONG_FILES = new Set(["plugins/leaderboards/settings.ts"]);

const walk = (dir) =>
	readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
		entry.isDirectory() ? walk(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
	);

const problems = [];
for (const path of [...walk(join(root, "plugins")), ...walk(join(root, "kernel"))]) {
	const name = relative(root, path);
	const text = readFileSync(path, "utf8");
	const lines = text.split("\n").length;
	if (lines > FILE_LINES && !LONG_FILES.has(name)) problems.push(`${name}: ${lines} lines (over ${FILE_LINES})`);
	const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
	const visit = (node) => {
		if (ts.isFunctionLike(node) && node.body) {
			const from = source.getLineAndCharacterOfPosition(node.getStart()).line;
			const to = source.getLineAndCharacterOfPosition(node.end).line;
			if (to - from > FUNCTION_LINES)
				problems.push(`${name}:${from + 1}: a function of ${to - from} lines (over ${FUNCTION_LINES})`);
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
}
if (problems.length > 0) {
	process.stderr.write(`sizes: ${problems.length} too long\n${problems.join("\n")}\n`);
	process.exit(1);
}
process.stdout.write(
	`sizes: every function in plugins/ and kernel/ within ${FUNCTION_LINES} lines, every file within ${FILE_LINES} but the ${LONG_FILES.size} named\n`,
);
