// The suite's spec files as jest names them (spec/kernel/Bus.spec), fixtures left
// out as spec/jest.config leaves them out: what the gate's workers deal out and
// what npm test counts for a pattern.

import { readdirSync } from "node:fs";
import { join } from "node:path";

/** The spec files under `dir` of the project at `projectDir`, sorted. */
export function specFiles(projectDir, dir = "spec") {
	const files = [];
	for (const entry of readdirSync(join(projectDir, dir), { withFileTypes: true })) {
		const path = `${dir}/${entry.name}`;
		if (entry.isDirectory() && entry.name !== "fixtures") files.push(...specFiles(projectDir, path));
		else if (/\.spec\.(ts|lua|luau)$/.test(entry.name)) files.push(path.replace(/\.(ts|lua|luau)$/, ""));
	}
	return files.sort();
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A pattern the gate's jest matches exactly these files with. */
export function exactly(files) {
	return `(${files.map(escape).join("|")})$`;
}

/** The gate's closing line: `N passed, N failed` (`, N skipped`). */
export const SUMMARY = /^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/m;
