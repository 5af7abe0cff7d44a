// The lock file as npm itself would write it: npm ci installs from the lock without checking it
// against package.json, so a drift (a peer range edited in one file only, a `bin` the lock lacks)
// would pass CI and make `npm install` on a fresh clone rewrite package-lock.json. Two checks: the
// root's fields against package.json (naming the field), then `npm install --package-lock-only` on
// copies of both files in a scratch folder (offline, from npm's cache; no node_modules touched),
// whose lock must come out byte for byte the same. Exit 1 naming what differs.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const read = (name) => readFileSync(new URL(`../${name}`, import.meta.url), "utf8");
const manifest = JSON.parse(read("package.json"));
const lockText = read("package-lock.json");
const lock = JSON.parse(lockText);
const root = lock.packages?.[""] ?? {};
const problems = [];
for (const field of ["name", "version"]) {
	if (lock[field] !== manifest[field])
		problems.push(`${field}: package.json ${manifest[field]}, lock ${lock[field]}`);
}
for (const field of ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies", "bin"]) {
	const want = manifest[field] ?? {};
	const have = root[field] ?? {};
	for (const name of new Set([...Object.keys(want), ...Object.keys(have)])) {
		if (want[name] !== have[name])
			problems.push(`${field}.${name}: package.json ${want[name] ?? "(none)"}, lock ${have[name] ?? "(none)"}`);
	}
}

// What `npm install` would write, on copies.
if (problems.length === 0) {
	const scratch = mkdtempSync(join(tmpdir(), "lock-"));
	for (const name of ["package.json", "package-lock.json"])
		copyFileSync(new URL(`../${name}`, import.meta.url), join(scratch, name));
	const npm = spawnSync(
		"npm",
		["install", "--package-lock-only", "--ignore-scripts", "--no-audit", "--no-fund", "--prefer-offline"],
		{ cwd: scratch, encoding: "utf8" },
	);
	const written = npm.status === 0 ? readFileSync(join(scratch, "package-lock.json"), "utf8") : undefined;
	rmSync(scratch, { recursive: true, force: true });
	if (written === undefined) problems.push(`npm install --package-lock-only failed: ${npm.stderr.trim()}`);
	else if (written !== lockText) {
		const ours = lockText.split("\n");
		const line = written.split("\n").findIndex((text, i) => text !== ours[i]);
		problems.push(`npm install rewrites it from line ${line + 1}: ${JSON.stringify(ours[line])}`);
	}
}
if (problems.length > 0) {
	console.error("lock: package-lock.json is not what npm install writes (run npm install and commit the lock):");
	for (const problem of problems) console.error(`  ${problem}`);
	process.exit(1);
}
console.log("lock: package-lock.json is what npm install writes for package.json");
