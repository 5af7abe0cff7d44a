import { MergeRule } from "../../contracts";
import { MAX_EXACT_INTEGER, sumOf } from "./rule";

const NEGATIVE = {
	reason: "negative value",
	advice: "a Sum board adds values: NegativeDeltas = true lets them subtract",
} as const;

/**
 * Sum = true: each value adds to the stored total (kills, coins earned), within
 * ±limit (2^53; the largest double on a Big board). The queue keeps one pending sum per key, a write adds it (pure: a
 * transform that reruns adds once), and a late landing is subtracted from what
 * went back. Negative values subtract only with NegativeDeltas.
 */
export function sum(ascending: boolean, negativeDeltas: boolean, limit = MAX_EXACT_INTEGER): MergeRule {
	const least = negativeDeltas ? undefined : 0;
	return {
		Kind: "Sum",
		Ascending: ascending,
		Limit: limit,
		merge: (held, incoming) => sumOf(held, incoming, limit),
		write: (stored, value) => sumOf(stored ?? 0, value, limit),
		unlanded: (pending, landed) => sumOf(pending, -landed, limit),
		covers: (_, pending) => pending === 0,
		Least: least,
		refuse: (value) => (least !== undefined && value < least ? NEGATIVE : undefined),
	};
}
