import { describe, expect, it } from "@rbxts/jest-globals";
import { FreshnessWatch } from "./freshness";

// The freshness rule the demo and the bench share (issue 47): a percentile counts every record, one
// never seen at its age when play stopped; one pushed out of the visible top before every page showed
// it is displaced, and one a better value of the same key replaced is superseded.

const rows = (...given: Array<[string, number]>) => given.map(([Key, Value]) => ({ Key, Value }));

describe("FreshnessWatch", () => {
	it("counts every record: seen, displaced, superseded, never seen at its age when play stopped", () => {
		let now = 0;
		const watch = new FreshnessWatch(2, () => now);
		watch.page(1, rows(["x", 10], ["y", 9]));
		watch.page(2, rows(["x", 10], ["y", 9]));
		// Seen on both pages 3 s after its submit.
		watch.record("a", 20, 0, [1, 2]);
		now = 2;
		watch.page(1, rows(["a", 20], ["x", 10]));
		now = 3;
		watch.page(2, rows(["a", 21], ["x", 10]));
		// Displaced: server 1 showed it, server 2's visible top filled with two others above it.
		watch.record("b", 15, 3, [1, 2]);
		now = 4;
		watch.page(1, rows(["a", 21], ["b", 15]));
		now = 5;
		watch.page(2, rows(["c", 30], ["e", 20]));
		// Superseded by the same key's better value, which is never seen.
		watch.record("d", 25, 5, [1, 2]);
		watch.record("d", 40, 6, [1, 2]);
		now = 16;
		watch.stop();
		now = 100; // after play: nothing more counts
		watch.page(1, rows(["d", 40]));
		expect(watch.figures()).toEqual({
			records: 4,
			seen: 1,
			superseded: 1,
			displaced: 1,
			neverSeen: 1,
			p50: 3,
			p99: 10,
			max: 10,
		});
	});

	it("while play goes on, a record still watched counts at its age so far", () => {
		let now = 0;
		const watch = new FreshnessWatch(10, () => now);
		watch.record("a", 1, 0, [1]);
		now = 7;
		expect(watch.figures().p99).toBe(7);
		expect(watch.figures().neverSeen).toBe(0);
	});
});
