import { Priority, Scheduler } from "../kernel";
import { count } from "../spec/gate/format";
import { BenchRow, formatNumber, medianSeconds } from "./measure";

const OPERATIONS = 10_000;

// Microseconds per arm+cancel pair with `pending` other deadlines armed.
function armCancelMicros(pending: number): number {
	const scheduler = new Scheduler({ clock: () => 0 });
	const held = new Array<{ cancel(): void }>();
	for (let i = 0; i < pending; i++) held.push(scheduler.after(1_000 + i, Priority.Background, () => {}));
	const seconds = medianSeconds(5, () => {
		for (let i = 0; i < OPERATIONS; i++) scheduler.after(500 + (i % 1_000), Priority.Normal, () => {}).cancel();
	});
	for (const deadline of held) deadline.cancel();
	return (seconds / OPERATIONS) * 1e6;
}

/** Scheduler arm+cancel cost at 100 vs 100,000 pending deadlines: flat means O(log n). */
export function schedulerRow(sizes: { small: number; large: number }): BenchRow {
	const small = armCancelMicros(sizes.small);
	const large = armCancelMicros(sizes.large);
	return {
		name: `Scheduler arm+cancel, ${count(sizes.small)} vs ${count(sizes.large)} pending`,
		ours: `${formatNumber(large)} µs at ${count(sizes.large)}`,
		baseline: `${formatNumber(small)} µs at ${count(sizes.small)}`,
		ratio: formatNumber(large / small),
		bound: `flat: under 2 at ${count(sizes.large / sizes.small)}x the deadlines (a sorted array grows linearly)`,
		met: large / small < 2,
	};
}
