import { MergeRule } from "../../contracts";

/** KeepBest = false: the newest value wins, in the queue and in the store. */
export function keepNewest(ascending: boolean): MergeRule {
	return {
		Kind: "KeepNewest",
		Ascending: ascending,
		merge: (_, incoming) => incoming,
		write: (_, value) => value,
		unlanded: (pending) => pending,
		covers: (landed, pending) => pending === landed,
		refuse: () => undefined,
	};
}
