import { keepBest } from "./keepBest";
import { keepNewest } from "./keepNewest";
import { MergeRule } from "./rule";
import { sum } from "./sum";

/**
 * The rule a board's options name (Sum, else KeepBest, in its direction). Also
 * how a backend called the design document's way (keepBest, ascending, sum)
 * finds the rule those flags stand for.
 */
export function ruleOf(keepsBest: boolean, ascending: boolean, sums = false, negativeDeltas = false): MergeRule {
	if (sums) return sum(ascending, negativeDeltas);
	return keepsBest ? keepBest(ascending) : keepNewest(ascending);
}
