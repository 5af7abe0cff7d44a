import { Kernel } from "../kernel";
import { Backend, attach } from "../plugins/leaderboards";
import { counted } from "../spec/gate/format";
import { BenchRow, formatNumber, medianSeconds } from "./measure";

/** A store of integers that answers at once (OrderedDataStores' shape): a Big board on it stores codes. */
const integers: Backend = { integers: true, maxKeyLength: 50, set: () => true, sorted: () => [] };

/**
 * submit() on a Big board against an integer board, in the same run on the same
 * boards: the same keys and call pattern, big values (to 1e300) on one, whole
 * numbers on the other. Runs alternate so a busy core or a collection falls on
 * both; the ratio is of the medians. A Big board encodes at the write, not in submit.
 */
export function bigSubmitRow(calls: number, keyCount: number): BenchRow {
	const keys = new Array<string>();
	for (let i = 1; i <= keyCount; i++) keys.push(`k${i}`);
	const boards = attach(new Kernel({ bindToClose: false }), {
		Boards: { Kills: {}, Coins: { Values: "Big" } },
		Backend: integers,
		SkipLoop: true,
	});
	const bigValues = new Array<number>();
	for (let i = 0; i < 1000; i++) bigValues.push((1 + i / 1000) * 10 ** (i % 300));
	const integer = new Array<number>();
	const big = new Array<number>();
	for (let run = 0; run < 5; run++) {
		integer.push(
			medianSeconds(1, () => {
				for (let i = 0; i < calls; i++) boards.submit("Kills", keys[i % keyCount], i % 1000);
			}),
		);
		big.push(
			medianSeconds(1, () => {
				for (let i = 0; i < calls; i++) boards.submit("Coins", keys[i % keyCount], bigValues[i % 1000]);
			}),
		);
	}
	integer.sort();
	big.sort();
	const ratio = big[2] / integer[2];
	return {
		name: `Big board submit(): ${counted(calls, "call")} across ${counted(keyCount, "key")}`,
		ours: `${formatNumber((big[2] / calls) * 1e6, 3)} µs per call (values to 1e300)`,
		baseline: `${formatNumber((integer[2] / calls) * 1e6, 3)} µs on an integer board`,
		ratio: `${formatNumber(ratio, 2)}x`,
		bound: "under 1.5x",
		met: ratio < 1.5,
	};
}
