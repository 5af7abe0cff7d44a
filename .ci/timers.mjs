#!/usr/bin/env node
// One cancellation idiom in plugins/: every timer and wait is a kernel Scheduler deadline or a kernel
// Promise (Timers, sleep, join, within), cancelled by destroy(). Refused: task.wait and task.delay (and the
// legacy wait, delay, spawn), and a loop that waits each turn on a wait destroy() does not cancel (an engine
// wait, or a kernel sleep() its owner must cancel by hand), wherever the loop is: on a task.spawn thread, in
// a function or method, or reached through the file's own functions and methods (a loop calling
// this.pause(), which sleeps). A repetition is Timers.every; a loop's wait is Timers.sleep, which
// destroy() cancels. An allowed file names why; an entry that allows nothing any more is an error too, so
// it goes when its reason does. Exit 1 naming each place.
//
//   node .ci/timers.mjs      (.ci/run runs it; .ci/test/timers.test.mjs tests the rule)

import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

// Paths (a file, or a folder ending in /) allowed their raw timers, each with why.
const ALLOWED = [
	{
		path: "plugins/leaderboards/stages/Drainer/Drainer.ts",
		why: "the drain is destroy() itself: its pause between windows ends by ShutdownSeconds, nothing to cancel it",
	},
];

const RAW = new Set(["task.wait", "task.delay", "wait", "delay", "spawn"]);
// What makes a loop's turn wait on something destroy() does not cancel: an engine wait, a kernel sleep().
const WAITS = new Set(["task.wait", "wait", "sleep"]);

const walk = (dir) =>
	readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
		entry.isDirectory() ? walk(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
	);

const callee = (node) => (ts.isCallExpression(node) ? node.expression.getText() : undefined);
const isLoop = (node) =>
	ts.isForStatement(node) ||
	ts.isWhileStatement(node) ||
	ts.isDoStatement(node) ||
	ts.isForOfStatement(node) ||
	ts.isForInStatement(node);
const isFunction = (node) => node && (ts.isArrowFunction(node) || ts.isFunctionExpression(node));

// The file's own functions and methods, by the name a call reaches them with (`name`, `this.name`).
function callablesOf(source) {
	const found = new Map();
	const visit = (node) => {
		if (ts.isFunctionDeclaration(node) && node.name && node.body) found.set(node.name.text, node.body);
		if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && isFunction(node.initializer))
			found.set(node.name.text, node.initializer.body);
		if ((ts.isMethodDeclaration(node) || ts.isGetAccessor(node)) && node.name && node.body)
			found.set(`this.${node.name.getText()}`, node.body);
		if (ts.isPropertyDeclaration(node) && isFunction(node.initializer))
			found.set(`this.${node.name.getText()}`, node.initializer.body);
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

/**
 * The places in one file's text that break the rule, each "line: what". `name` is how the file is named
 * in them.
 */
export function problemsOf(name, text) {
	const source = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
	const callables = callablesOf(source);
	// Whether a body waits: itself, or through a function or method of the file it calls (each looked at once).
	const memo = new Map();
	const waits = (body) => {
		if (memo.has(body)) return memo.get(body);
		memo.set(body, false);
		let found = false;
		const visit = (child) => {
			if (found) return;
			const called = callee(child);
			if (WAITS.has(called) || (callables.has(called) && waits(callables.get(called)))) found = true;
			else ts.forEachChild(child, visit);
		};
		visit(body);
		memo.set(body, found);
		return found;
	};
	const found = [];
	const at = (node) => `${name}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
	const visit = (node) => {
		const called = callee(node);
		if (RAW.has(called))
			found.push(`${at(node)}: ${called}(), a raw engine timer (use the kernel's Timers or sleep())`);
		if (isLoop(node) && waits(node.statement))
			found.push(
				`${at(node)}: a loop that waits each turn on a wait destroy() does not cancel (use Timers.every, or Timers.sleep)`,
			);
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

function main() {
	const allowed = (name) => ALLOWED.find((entry) => name === entry.path || name.startsWith(entry.path));
	const problems = [];
	const used = new Set();
	const files = walk(join(root, "plugins"));
	for (const path of files) {
		const name = relative(root, path);
		const found = problemsOf(name, readFileSync(path, "utf8"));
		const entry = allowed(name);
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
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
