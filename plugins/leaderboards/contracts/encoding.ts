/** How a board writes numbers: "Plain" (as they are) or "Big" (any finite number). */
export type ValueKind = "Plain" | "Big";

/** How a keep-best board ranks equal values: "Earliest", whoever stored the value first. */
export type TieBreakRule = "Earliest";

/**
 * How a game's value becomes the number a store holds, and back. The queue and
 * the merge rules work on game values; a write encodes (a set backend's updater
 * decodes the stored number, applies the rule, encodes), every read decodes.
 * One file per encoding (plain.ts, big.ts, earliest.ts), chosen by encodingOf.
 * Every encoding keeps order: a value ranked better never stores below a worse one.
 */
export interface Encoding {
	readonly Kind: "Plain" | "Big" | "Earliest";
	/**
	 * Added to the board's name where its values are stored ("" for the values
	 * themselves), so a board switched to another encoding starts a new store
	 * instead of reading numbers it cannot decode.
	 */
	readonly Tag: string;
	/** The largest magnitude it stores: submit refuses values past ±Limit. */
	readonly Limit: number;
	/** It stores whole numbers only: submit refuses fractions. */
	readonly Integers: boolean;
	/** Stored numbers are the values themselves: nothing to encode or decode. */
	readonly Identity: boolean;
	/** The stored number of `value`, stored `since` seconds into the board's span (only a tie-break reads it). */
	readonly encode: (value: number, since: number) => number;
	/** The value a stored number holds: finite for any finite number a store returns. */
	readonly decode: (stored: number) => number;
}

/** One write's encoding, its time bound: what updaterFor and writeThrough apply. */
export interface Codec {
	readonly encode: (value: number) => number;
	readonly decode: (stored: number) => number;
}
