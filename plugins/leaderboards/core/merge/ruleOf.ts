import { keepBest } from "./keepBest";
import { keepNewest } from "./keepNewest";
import { MergeRule } from "../../contracts";
import { sum } from "./sum";

/**
 * The rule a board's options name (Sum, else KeepBest, in its direction; a Big
 * board's sums stop at `limit`). Also how a backend called the design
 * document's way (keepBest, ascending, sum) finds the rule those flags stand for.
 */
export function ruleOf(
	keepsBest: boolean,
	ascending: boolean,
	sums = false,
	negativeDeltas = false,
	limit?: number,
): MergeRule {
	if (sums) return sum(ascending, negativeDeltas, limit);
	return keepsBest ? keepBest(ascending) : keepNewest(ascending);
}
