#!/usr/bin/env node
// One cancellation idiom in plugins/: every timer and wait is a kernel Scheduler deadline or a kernel
// Promise (Timers, sleep, join, within), cancelled by destroy(). Refused: task.wait and task.delay (and the
// legacy wait, delay, spawn), and a loop on a task.spawn or task.defer thread that waits each turn (a
// repetition is Timers.every). An allowed file names why; an entry that allows nothing any more is an
// error too, so it goes when its reason does. Exit 1 naming each place.

import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

// Paths (a file, or a folder ending in /) allowed their raw timers, each with why.
const ALLOWED = [];

const RAW = new Set(["task.wait", "task.delay", "wait", "delay", "spawn"]);
const THREADS = new Set(["task.spawn", "task.defer"]);
// What makes a loop's turn wait: an engine wait, or a kernel sleep awaited.
const WAITS = new Set(["task.wait", "wait", "sleep"]);

const walk = (dir) =>
	readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
		entry.isDirectory() ? walk(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
	);

const callee = (node) => (ts.isCallExpression(node) ? node.expression.getText() : undefined);
const isLoop = (node) =>
	ts.isForStatement(node) || ts.isWhileStatement(node) || ts.isDoStatement(node) || ts.isForOfStatement(node);

// Whether any call under node is one of names.
function calls(node, names) {
	let found = false;
	const visit = (child) => {
		if (found) return;
		if (names.has(callee(child))) found = true;
		else ts.forEachChild(child, visit);
	};
	visit(node);
	return found;
}

function problemsOf(path) {
	const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
	const found = [];
	const at = (node) => `${relative(root, path)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
	const visit = (node, onThread) => {
		const name = callee(node);
		if (RAW.has(name))
			found.push(`${at(node)}: ${name}(), a raw engine timer (use the kernel's Timers or sleep())`);
		if (onThread && isLoop(node) && calls(node.statement, WAITS))
			found.push(`${at(node)}: a loop on its own thread that waits each turn (use Timers.every)`);
		const thread = THREADS.has(name);
		ts.forEachChild(node, (child) => visit(child, onThread || thread));
	};
	visit(source, false);
	return found;
}

const allowed = (name) => ALLOWED.find((entry) => name === entry.path || name.startsWith(entry.path));
const problems = [];
const used = new Set();
const files = walk(join(root, "plugins"));
for (const path of files) {
	const found = problemsOf(path);
	const entry = allowed(relative(root, path));
	if (entry && found.length > 0) used.add(entry);
	else problems.push(...found);
}
for (const entry of ALLOWED)
	if (!used.has(entry))
		problems.push(`${entry.path}: allowed raw timers ("${entry.why}") but has none: drop the entry`);

if (problems.length > 0) {
	for (const problem of problems) console.error(problem);
	process.exit(1);
}
console.log(
	`one cancellation idiom in plugins/ (${files.length} files; allowed: ${ALLOWED.map((e) => `${e.path}, ${e.why}`).join("; ") || "none"})`,
);
