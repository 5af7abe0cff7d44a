import { MAX_EXACT_INTEGER } from "../merge/rule";
import { Encoding } from "../../contracts";

const same = (value: number) => value;

/**
 * The values themselves: whole numbers or not as the store holds them (`integers`),
 * within ±`limit`: ±2^53 by default (a double counts exactly only that far); a Big
 * board on a store that holds doubles (a MemoryStore sort key) takes any finite number.
 */
export function plain(integers: boolean, limit = MAX_EXACT_INTEGER, kind: "Plain" | "Big" = "Plain"): Encoding {
	return { Kind: kind, Tag: "", Limit: limit, Integers: integers, Identity: true, encode: same, decode: same };
}
