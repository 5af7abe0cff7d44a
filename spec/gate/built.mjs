// Whether out/ is what rbxtsc would build now, so the gate skips a build that would change nothing
// (rbxtsc still type-checks the program and copies every file: about 3 s of CPU, a fifth of the
// default demo). The gate's own build, once it succeeds, leaves a stamp dated when it began; out/ is
// up to date while nothing rbxtsc reads changed after that: tsconfig.json's include folders (their
// files and folders, so a deleted file counts), tsconfig.json, package.json and the lock. A build by
// other means (npm run build) leaves no stamp, so the next run of the gate builds again.

import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const stampOf = (projectDir) => join(projectDir, "node_modules", ".cache", "leaderboards-gate", "built");

// The latest modification under path (itself included), in milliseconds.
function newest(path) {
	const stat = statSync(path);
	let latest = stat.mtimeMs;
	if (stat.isDirectory()) for (const name of readdirSync(path)) latest = Math.max(latest, newest(join(path, name)));
	return latest;
}

/** out/ holds the gate's last build and nothing rbxtsc reads changed since it began. */
export function upToDate(projectDir) {
	const stamp = stampOf(projectDir);
	if (!existsSync(stamp) || !existsSync(join(projectDir, "out", "tsconfig.tsbuildinfo"))) return false;
	let include;
	try {
		include = JSON.parse(readFileSync(join(projectDir, "tsconfig.json"), "utf8")).include ?? [];
	} catch {
		return false;
	}
	const read = [...include, "tsconfig.json", "package.json", "package-lock.json"]
		.map((path) => join(projectDir, path))
		.filter((path) => existsSync(path));
	return Math.max(...read.map(newest)) < statSync(stamp).mtimeMs;
}

/** Records a build that succeeded, begun at `began` (milliseconds since the epoch). */
export function stampBuilt(projectDir, began) {
	const stamp = stampOf(projectDir);
	mkdirSync(dirname(stamp), { recursive: true });
	writeFileSync(stamp, "");
	const at = new Date(began);
	utimesSync(stamp, at, at);
}
