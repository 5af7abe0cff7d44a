/** What a rule says of a value it refuses. */
export interface Refusal {
	readonly reason: string;
	readonly advice: string;
}

/**
 * How a board merges the values of one key: what the queue keeps of two
 * pending values, what a write puts over the stored one, what a late landing
 * leaves to write, and which of two values ranks better. One file per rule
 * (keepBest.ts, keepNewest.ts, sum.ts); a backend receives it as data (`Rule`
 * on the write record), and `Kind` and `Ascending` are what it needs to apply
 * the rule its own way. Its functions are fields, called with a dot.
 */
export interface MergeRule {
	readonly Kind: "KeepBest" | "KeepNewest" | "Sum";
	/** Smaller values rank first. */
	readonly Ascending: boolean;
	/** A Sum rule's totals stop at ±Limit: 2^53, or the largest double on a Big board. */
	readonly Limit?: number;
	/** Which of two pending values for one key to keep; `incoming` is the newer. Ties keep it. */
	readonly merge: (held: number, incoming: number) => number;
	/** What to write over the stored value (undefined: none stored); undefined: no write. Pure, so a transform may rerun. */
	readonly write: (stored: number | undefined, value: number) => number | undefined;
	/** A write of `landed` landed after `pending` went back to the queue: what is left pending. */
	readonly unlanded: (pending: number, landed: number) => number;
	/** The store holding `landed` makes writing `pending` (what unlanded left) unnecessary. */
	readonly covers: (landed: number, pending: number) => boolean;
	/** The least value the rule takes (a Sum board's 0 without NegativeDeltas): with it, refuse refuses exactly the values below it. */
	readonly Least?: number;
	/** Why the rule refuses a submitted value (a warning's reason and its advice), or undefined; absent on a rule that takes every value. */
	readonly refuse?: (value: number) => Refusal | undefined;
}
