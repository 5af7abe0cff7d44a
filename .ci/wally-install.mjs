// A Wally package laid out in a place as `wally install` lays out a server-realm
// dependency (the Wally CLI cannot run here): _Index/<scope>_<name>@<version>/<name>
// and a link module named by the dependency alias. .ci/package.mjs installs the
// package into its consumer places this way, .ci/games.mjs into the Luau game.

import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

// The link module `wally install` writes: it forwards the package entry's exported types.
function wallyLink(target, entry) {
	const forwards = [...readFileSync(entry, "utf8").matchAll(/^export type (\w+)(?:<([^>]*)>)?/gm)].map(
		([, name, parameters]) =>
			parameters
				? `export type ${name}<${parameters}> = MODULE.${name}<${parameters}>`
				: `export type ${name} = MODULE.${name}`,
	);
	if (forwards.length === 0) return `return require(${target})\n`;
	return `local MODULE = require(${target})\n${forwards.join("\n")}\nreturn MODULE\n`;
}

/** Installs the built Wally package (`wallyDir`, dist/wally) under `out`/`folder` as alias Leaderboards. */
export function installWally(manifest, wallyDir, out, folder = "ServerPackages") {
	const [scope, name] = manifest.package.name.split("/");
	const indexed = `${scope}_${name}@${manifest.package.version}`;
	cpSync(wallyDir, join(out, folder, "_Index", indexed, name), { recursive: true });
	writeFileSync(
		join(out, folder, "Leaderboards.lua"),
		wallyLink(`script.Parent._Index["${indexed}"]["${name}"]`, join(wallyDir, "src", "init.luau")),
	);
}
