import { MAX_EXACT_INTEGER } from "../merge/rule";
import { CONTRACT, Encoding, ResetSchedule } from "../../contracts";

/**
 * Ticks (seconds) a tie-break folds in, by the span a board's values live in: a
 * power of ten past the longest period, so a stored number reads as the value's
 * digits followed by the time's, and a write after its period ends still has room.
 */
export const TIE_SPANS: Record<ResetSchedule | "AllTime", number> = CONTRACT.Encodings.Earliest.Spans;

/** An all-time board counts time from 2025-01-01 00:00 UTC; its 10^9 s run to 2056-09-09. */
export const TIE_EPOCH = CONTRACT.Encodings.Earliest.Epoch;

/**
 * TieBreak = "Earliest": the stored number is value x span + the time, the time
 * counted down on a descending board and up on an ascending one, so of two equal
 * values the one stored first ranks first, on any store that orders numbers.
 * Whole values within ±(2^53 / span - 1); a time past the span counts as its last second.
 */
export function earliest(ascending: boolean, span: number): Encoding {
	return {
		Kind: "Earliest",
		Tag: CONTRACT.Encodings.Earliest.Tag,
		Limit: math.floor(MAX_EXACT_INTEGER / span) - 1,
		Integers: true,
		Identity: false,
		encode: (value, since) => {
			const tick = math.clamp(math.floor(since), 0, span - 1);
			return value * span + (ascending ? tick : span - 1 - tick);
		},
		decode: (stored) => {
			// fmod is exact (a floor of stored / span may round across a whole number).
			let tick = math.fmod(stored, span);
			if (tick < 0) tick += span;
			return (stored - tick) / span;
		},
	};
}
