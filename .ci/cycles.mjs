#!/usr/bin/env node
// No import cycle in plugins/ or kernel/: a layer that imports its importer cannot be read, replaced or
// tested apart. Every import and export-from counts, type-only ones too. Exit 1 naming each cycle.

import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

const walk = (dir) =>
	readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
		entry.isDirectory() ? walk(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
	);

// A relative specifier as the compiler resolves it: the file, or the folder's index.
function resolved(from, specifier) {
	const base = resolve(dirname(from), specifier);
	return [`${base}.ts`, join(base, "index.ts")].find((path) => existsSync(path));
}

function importsOf(path) {
	const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, false);
	const found = [];
	for (const statement of source.statements) {
		const specifier = statement.moduleSpecifier;
		if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith(".")) continue;
		const target = resolved(path, specifier.text);
		if (target) found.push(target);
	}
	return found;
}

const files = [...walk(join(root, "plugins")), ...walk(join(root, "kernel"))];
const edges = new Map(files.map((path) => [path, importsOf(path)]));

// Depth-first: a file met again while still on the path closes a cycle; each cycle is named once.
const state = new Map();
const cycles = new Set();
function visit(path, trail) {
	state.set(path, "open");
	const onPath = trail.concat(path);
	for (const next of edges.get(path) ?? []) {
		if (state.get(next) === "open") {
			const loop = onPath.slice(onPath.indexOf(next)).concat(next);
			cycles.add(loop.map((file) => relative(root, file)).join(" -> "));
		} else if (!state.has(next)) visit(next, onPath);
	}
	state.set(path, "done");
}
for (const path of files) if (!state.has(path)) visit(path, []);

if (cycles.size > 0) {
	for (const cycle of cycles) console.error(`import cycle: ${cycle}`);
	process.exit(1);
}
console.log(`no import cycle in plugins/ and kernel/ (${files.length} files)`);
