// The numbers a store holds, decoded as the library decodes them
// (plugins/leaderboards/core/encodings/*.ts, docs/boards.md):
//
//   "#Big"       Values = "Big" on an OrderedDataStore: any finite double as an
//                integer within ±2^53 (its binary exponent and 42 significant bits);
//   "#Earliest"  TieBreak = "Earliest": value x span + the second it was stored
//                (counted down on a descending board), span a power of ten by period;
//   none         the values themselves (a Big board on MemoryStore stores the number).
//
// A board's storage name carries its encoding's tag (the manifest's `Storage`),
// so the tag alone says how to read it. The constants are the contract's
// (cli/src/contract.mjs); spec/cli/encodings.spec.ts encodes with the library in
// the gate and decodes with this file, so the two never drift.

import { CONTRACT } from "./contract.mjs";

const { Big, Earliest } = CONTRACT.Encodings;
/** Mantissa steps an exponent holds: 2^41 (the leading bit is implied). */
const STEP = Big.Step;
/** frexp's lowest exponent: 0.5 x 2^-1073 is the smallest subnormal. */
const LOWEST = Big.LowestExponent;
const HIGHEST = Big.HighestExponent;
/** The largest code: the largest double's. */
export const BIG_TOP = (HIGHEST - LOWEST + 1) * STEP;

/** Ticks (seconds) a tie-break folds in, by the span a board's values live in. */
export const TIE_SPANS = Earliest.Spans;

// 2^n exactly, for any n a double's exponent takes (-1074 .. 1023), built from its bits.
const bits = new DataView(new ArrayBuffer(8));
/** @param {number} n */
function pow2(n) {
	if (n >= -1022) {
		bits.setBigUint64(0, BigInt(n + 1023) << 52n);
	} else {
		bits.setBigUint64(0, 1n << BigInt(n + 1074));
	}
	return bits.getFloat64(0);
}

// m x 2^e, rounded once as C's ldexp rounds (m an integer below 2^43): the first
// product is exact (a normal double), so only the second can round.
/**
 * @param {number} m
 * @param {number} e
 */
function ldexp(m, e) {
	if (e < -900) return m * pow2(e + 600) * pow2(-600);
	if (e > 900) return m * pow2(e - 600) * pow2(600);
	return m * pow2(e);
}

/**
 * A positive code's number; a code past BIG_TOP reads as the largest double's.
 * @param {number} code
 */
function numberOf(code) {
	const rest = Math.min(code, BIG_TOP) - 1;
	const block = Math.floor(rest / STEP);
	return ldexp(rest - block * STEP + STEP, block + LOWEST - 42);
}

/**
 * A Big board's value from its stored code (0 for 0, negative for negative).
 * @param {number} code
 */
export function decodeBig(code) {
	if (code === 0) return 0;
	return code > 0 ? numberOf(code) : -numberOf(-code);
}

/**
 * A tie-break board's value from its stored number: the time folded in is dropped.
 * @param {number} stored
 * @param {number} span
 */
export function decodeEarliest(stored, span) {
	// % is fmod on doubles: exact, as the library's math.fmod.
	let tick = stored % span;
	if (tick < 0) tick += span;
	return (stored - tick) / span;
}

/**
 * How a board's stored numbers read: { kind: "Plain" | "Big" | "Earliest", decode(stored) }.
 * @typedef {{ kind: "Plain" | "Big" | "Earliest", span?: number, decode: (stored: number) => number }} Encoding
 */

/**
 * How a board's stored numbers read. `board` is the manifest's layout entry (Storage, Reset, Ascending).
 * @param {Partial<import("./contract.mjs").LayoutBoard> & { Name?: string }} board
 * @returns {Encoding}
 */
export function encodingOf(board) {
	const storage = String(board.Storage ?? "");
	if (storage.endsWith(Big.Tag)) return { kind: "Big", decode: decodeBig };
	if (storage.endsWith(Earliest.Tag)) {
		const span = /** @type {Record<string, number | undefined>} */ (TIE_SPANS)[board.Reset ?? "AllTime"];
		if (span === undefined) throw new Error(`the manifest gives ${board.Name ?? "a board"} an unknown Reset`);
		return { kind: "Earliest", span, decode: (stored) => decodeEarliest(stored, span) };
	}
	return { kind: "Plain", decode: (stored) => stored };
}
