import { CONTRACT, Encoding } from "../../contracts";
import { MAX_DOUBLE } from "./encoding";

// Any finite double as an integer within ±2^53, in order: its binary exponent
// and its mantissa rounded to 42 significant bits. frexp and ldexp are exact, so
// the only error is that rounding: at most 2^-42 (about 2.3e-13) of the value.
// 2098 exponents (subnormals included) x 2^41 mantissas = 4.6e15 codes < 2^53.

/** Mantissa steps an exponent holds: 2^41 (the leading bit is implied). */
const STEP = CONTRACT.Encodings.Big.Step;
/** frexp's exponents: 0.5 x 2^-1073 is the smallest subnormal, (1 - 2^-53) x 2^1024 the largest double. */
const LOWEST = CONTRACT.Encodings.Big.LowestExponent;
const HIGHEST = CONTRACT.Encodings.Big.HighestExponent;
/** The largest code: MAX_DOUBLE's. */
export const BIG_TOP = (HIGHEST - LOWEST + 1) * STEP;

// A positive finite number's code, 1..BIG_TOP.
function codeOf(value: number): number {
	let [mantissa, exponent] = math.frexp(value);
	// mantissa in [0.5, 1): 42 bits of it, rounded half up (exact: the sum needs no more than 53 bits).
	let bits = math.floor(mantissa * 2 * STEP + 0.5);
	if (bits === 2 * STEP) {
		// Rounded up to the next exponent, except past the largest double: there it rounds down.
		if (exponent === HIGHEST) bits -= 1;
		else {
			bits = STEP;
			exponent += 1;
		}
	}
	return (exponent - LOWEST) * STEP + (bits - STEP) + 1;
}

// A positive code's number; a code past BIG_TOP (no encode made it) reads as MAX_DOUBLE's.
function numberOf(code: number): number {
	const rest = math.min(code, BIG_TOP) - 1;
	const block = math.floor(rest / STEP);
	return math.ldexp(rest - block * STEP + STEP, block + LOWEST - 42);
}

/** A value's code: 0 for 0 (and -0), negative for negative values, order kept. */
export function encodeBig(value: number): number {
	if (value === 0) return 0;
	return value > 0 ? codeOf(value) : -codeOf(-value);
}

export function decodeBig(code: number): number {
	if (code === 0) return 0;
	return code > 0 ? numberOf(code) : -numberOf(-code);
}

/** Values = "Big" on a store of integers (OrderedDataStores): any finite number, 42 significant bits. */
export const big: Encoding = {
	Kind: "Big",
	Tag: CONTRACT.Encodings.Big.Tag,
	Limit: MAX_DOUBLE,
	Integers: false,
	Identity: false,
	encode: (value) => encodeBig(value),
	decode: decodeBig,
};
