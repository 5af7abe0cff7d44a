import { describe, expect, it } from "@rbxts/jest-globals";
import { headlessGate } from "../gate/control";
import { BACKEND_KINDS, runSeed } from "./model";

// The model test's fast share of seeds; `npm run soak -- --seeds N` runs as many as asked.
const SEEDS = 3;
const gate = headlessGate();
// A seed's virtual time: the run (at most 150 s), its drains, and the next start finishing erasures and period ends.
const RUN_LIMIT = 30 * 60_000;

describe("the model test", () => {
	for (const backend of BACKEND_KINDS) {
		for (let seed = 1; seed <= SEEDS; seed++) {
			it(
				`${backend.name}, seed ${seed}: every check holds`,
				() => {
					if (!gate) return;
					const report = runSeed(gate, seed, backend);
					expect(report.violations).toEqual([]);
					expect(report.accepted).toBeGreaterThan(0);
				},
				RUN_LIMIT,
			);
		}
	}
});
