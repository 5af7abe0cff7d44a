import { MergeRule } from "../../contracts";
import { isBetter } from "./rule";

/**
 * The default: the best value wins, the larger (or, ascending, the smaller).
 * The queue keeps the better pending value, a write lands only an improvement,
 * and a late landing of a value at least as good as what is pending ends it.
 */
export function keepBest(ascending: boolean): MergeRule {
	return {
		Kind: "KeepBest",
		Ascending: ascending,
		merge: (held, incoming) => (isBetter(held, incoming, ascending) ? held : incoming),
		write: (stored, value) => (stored !== undefined && !isBetter(value, stored, ascending) ? undefined : value),
		unlanded: (pending) => pending,
		covers: (landed, pending) => !isBetter(pending, landed, ascending),
		refuse: () => undefined,
	};
}
