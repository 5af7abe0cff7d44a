import { describe, expect, it } from "@rbxts/jest-globals";
import { markdownTable } from "../../bench/measure";
import { drainRow } from "../../bench/rows";
import { measure } from "../../bench/run";
import { headlessGate } from "../gate/control";

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

// Keeps the benchmarks from rotting: every row at tiny sizes. Numbers are not
// asserted on time; only what holds at any size.
describeGate("the benchmarks at tiny sizes", () => {
	it(
		"measures every row",
		() => {
			const rows = measure(true);
			expect(rows.size()).toBe(10);
			const rendered = markdownTable(rows);
			expect(rendered).toMatch("| row | this project | baseline | ratio | bound / target |");
			const byStart = (start: string) => rows.find((row) => row.name.sub(1, start.size()) === start)!;
			expect(byStart("Read fan-out").ours).toMatch("^1 backend read");
			expect(byStart("names()").ours).toBe("1 call, 100 results");
			expect(byStart("Budget use").ours).toMatch("0 throttled, 0 requests idle");
			expect(byStart("Write amplification").ours).toMatch("(%d+)/%1 bests stored");
			// Virtual time: writes in flight make a window of 30 several times shorter than one at a time.
			const faster = tonumber(byStart("Window wall time").ratio.match("^([%d.]+)x faster")[0] as string);
			expect(faster).toBeGreaterThan(3);
		},
		60 * 60 * 1000,
	);

	it("measures at a published game's request latency: the realistic profile", () => {
		drainRow(gate!, { keys: 20, players: 2 });
		const profile = gate!.latency.profile().name;
		gate!.reset();
		expect(profile).toBe("realistic");
	});
});
