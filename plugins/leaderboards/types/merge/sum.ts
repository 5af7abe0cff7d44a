import { MergeRule, sumOf } from "./rule";

const NEGATIVE = {
	reason: "negative value",
	advice: "a Sum board adds values: NegativeDeltas = true lets them subtract",
} as const;

/**
 * Sum = true: each value adds to the stored total (kills, coins earned), within
 * ±2^53. The queue keeps one pending sum per key, a write adds it (pure: a
 * transform that reruns adds once), and a late landing is subtracted from what
 * went back. Negative values subtract only with NegativeDeltas.
 */
export function sum(ascending: boolean, negativeDeltas: boolean): MergeRule {
	return {
		Kind: "Sum",
		Ascending: ascending,
		merge: (held, incoming) => sumOf(held, incoming),
		write: (stored, value) => sumOf(stored ?? 0, value),
		unlanded: (pending, landed) => sumOf(pending, -landed),
		covers: (_, pending) => pending === 0,
		refuse: (value) => (value < 0 && !negativeDeltas ? NEGATIVE : undefined),
	};
}
