// The contract with the library: what the tool must know of what a game stores (store and key names,
// the page size, the encodings' and the calendar's constants, the lease, the budgets, the manifest's
// record shapes), read from the file the library's own constants are generated from
// (plugins/leaderboards/contracts/outside/contract.json; the npm package ships it beside cli/).

import { readFileSync } from "node:fs";

/** @typedef {typeof import("../../plugins/leaderboards/contracts/outside/index.js").CONTRACT} Contract */
/** @typedef {import("../../plugins/leaderboards/contracts/outside/index.js").ErasureRecord} ErasureRecord */
/** @typedef {import("../../plugins/leaderboards/contracts/outside/index.js").ErasureIndex} ErasureIndex */
/** @typedef {import("../../plugins/leaderboards/contracts/outside/index.js").LayoutRecord} LayoutRecord */
/** @typedef {import("../../plugins/leaderboards/contracts/outside/index.js").LayoutBoard} LayoutBoard */
/** @typedef {Contract["Periods"]["Resets"][number]} Reset */
/** @typedef {Record<string, Record<string, string>>} Shapes */

const file = JSON.parse(
	readFileSync(new URL("../../plugins/leaderboards/contracts/outside/contract.json", import.meta.url), "utf8"),
);

/** The contract's data, as the library's CONTRACT holds it. */
export const CONTRACT = /** @type {Contract} */ (file);

/** The manifest's records, field by field ("Name?" optional) as docs/manifest.md gives them. */
const RECORDS = /** @type {Shapes} */ (file.Records);

/**
 * The fields of a record of the contract that `record` lacks: [] when it has every one it must
 * (a record the tool writes is checked before it is written).
 * @param {keyof typeof RECORDS & string} shape
 * @param {object} record
 */
export function missingFields(shape, record) {
	const fields = Object.keys(RECORDS[shape]).filter((name) => !name.startsWith("$") && !name.endsWith("?"));
	return fields.filter((name) => !(name in record));
}
