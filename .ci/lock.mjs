// The lock file in sync with package.json: npm ci installs from the lock without checking the
// root's ranges against package.json, so a drift (a peer range edited in one file only) would pass
// CI and make `npm install` on a fresh clone rewrite package-lock.json. Exit 1 naming the field.
import { readFileSync } from "node:fs";

const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const lock = JSON.parse(readFileSync(new URL("../package-lock.json", import.meta.url), "utf8"));
const root = lock.packages?.[""] ?? {};
const problems = [];
for (const field of ["name", "version"]) {
	if (lock[field] !== manifest[field])
		problems.push(`${field}: package.json ${manifest[field]}, lock ${lock[field]}`);
}
for (const field of ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"]) {
	const want = manifest[field] ?? {};
	const have = root[field] ?? {};
	for (const name of new Set([...Object.keys(want), ...Object.keys(have)])) {
		if (want[name] !== have[name])
			problems.push(`${field}.${name}: package.json ${want[name] ?? "(none)"}, lock ${have[name] ?? "(none)"}`);
	}
}
if (problems.length > 0) {
	console.error("lock: package-lock.json disagrees with package.json (run npm install and commit the lock):");
	for (const problem of problems) console.error(`  ${problem}`);
	process.exit(1);
}
console.log("lock: package-lock.json agrees with package.json");
