import { describe, expect, it } from "@rbxts/jest-globals";
import { BenchRow, markdownTable, terminalTable, width } from "../../bench/measure";
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
			expect(rows.size()).toBe(12 + 1 + 3 + 1 + 1 + 1 + 2);
			const rendered = markdownTable(rows);
			expect(rendered).toMatch("| row | this project | baseline | ratio | goal | |");
			// Every row is held to its goal, but the one that times submit()'s checks, which informs.
			expect(rows.filter((row) => row.met === undefined).map((row) => row.name)).toEqual([
				"submit()'s checks, each alone: 2,000 calls",
			]);
			const terminal = terminalTable(rows);
			for (const line of terminal.split("\n")) expect(width(line) <= 100).toBe(true);
			// At 80 columns, every row's measured figures as a block: no line wider, no word split.
			const narrow = terminalTable(rows, 80).split("\n");
			expect(narrow.filter((line) => width(line) > 80)).toEqual([]);
			const labelled = narrow.filter((line) => line.sub(1, 16) === "  this project  ");
			expect(labelled.size()).toBe(rows.size());
			expect(terminal).toMatch("^row +this project +baseline +ratio +goal +mark\n");
			expect(terminal).toMatch(" met\n");
			const held = rows.filter((row) => row.met !== undefined).size();
			const met = rows.filter((row) => row.met === true).size();
			expect(terminal).toMatch(`\n${met} of ${held} goals met`);
			const byStart = (start: string) => rows.find((row) => row.name.sub(1, start.size()) === start)!;
			expect(byStart("Read fan-out").ours).toMatch("^1 backend read");
			expect(byStart("names()").ours).toBe("1 call, 100 results");
			expect(byStart("Where do I stand").ours).toMatch(" 0 throttled$");
			expect(byStart("friends()").ours).toMatch("^21 reads, 2 calls to complete");
			expect(byStart("Budget use").ours).toMatch("0 throttled, 0 requests idle");
			expect(byStart("Writes a player costs").ours).toMatch("(%d+)/%1 bests stored$");
			// Virtual time: writes in flight make a window of 30 several times shorter than one at a time.
			const faster = tonumber(byStart("Window wall time").ratio.match("^([%d.]+)x faster")[0] as string);
			expect(faster).toBeGreaterThan(3);
			expect(byStart("Writes a game sustains").ours).toMatch("^MemoryStore: %d+ writes/min");
			// Past one partition's limit, four shards write more than one.
			const perMinute = (shards: number) =>
				tonumber(byStart(`MemoryStore, ${shards} shard`).ours.match("^(%d+)")[0])!;
			expect(perMinute(4)).toBeGreaterThan(perMinute(1) * 2);
		},
		60 * 60 * 1000,
	);

	it("runs submit()'s own rows alone (--only submit): its cost, a Big board's, its memory", () => {
		const rows = measure(true, undefined, "submit");
		expect(rows.map((row) => row.name.split(":")[0])).toEqual([
			"submit() cost",
			"submit()'s checks, each alone",
			"Big board submit()",
			"Memory per queued key at 1,000 keys",
		]);
	}, 600_000);

	it("runs the writes a player costs alone (--only writes)", () => {
		const rows = measure(true, undefined, "writes");
		expect(rows.map((row) => row.name.split(":")[0])).toEqual(["Writes a player costs"]);
	}, 600_000);

	it("runs boards players see alone (--only clients): clients cause no store request, the tutorial's a list an invoke", () => {
		const rows = measure(true, undefined, "clients");
		expect(rows.map((row) => row.name.split(":")[0])).toEqual(["Boards players see", "Boards players see"]);
		for (const row of rows) {
			expect(row.ours).toMatch("; 0 store requests by clients$");
			// 5 clients, 3 boards, an invoke every 3 s: 300 lists a minute.
			expect(row.baseline).toMatch("; 300 lists %(");
		}
	}, 600_000);

	it("runs the thousand-server experience only alone (--only thousand), at its tiny size", () => {
		const rows = measure(true, undefined, "thousand");
		expect(rows.map((row) => row.name.match("^An experience: ([%d,]+) servers")[0])).toEqual(["20"]);
		expect(measure(true, undefined, "experiences").map((row) => row.name)).never.toContain(rows[0].name);
	}, 600_000);

	it("measures at a published game's request latency: the realistic profile", () => {
		drainRow(gate!, { keys: 20, players: 2 });
		const profile = gate!.latency.profile().name;
		gate!.reset();
		expect(profile).toBe("realistic");
	});
});

describe("the bench table", () => {
	const row = (name: string, met: boolean | undefined, long = false): BenchRow => ({
		name,
		ours: "9.61 µs per call",
		baseline: long ? string.rep("write-through: 20000 writes (18295 failed, throttled); ", 4) : "0.38 µs",
		ratio: "9.62x",
		bound: "under 5x",
		met,
	});

	it("fits 100 columns: long cells wrap at words within their column, each row gets its mark, the verdict names what missed", () => {
		const rows = [
			row("Read fan-out: 100 concurrent top() callers", true, true),
			row("submit() cost: 1000000 calls across 10000 keys", false),
			row("Memory per queued key at 100000 keys", undefined),
		];
		const lines = terminalTable(rows).split("\n");
		for (const line of lines) expect(width(line) <= 100).toBe(true);
		expect(lines.filter((line) => line.match("^Read fan%-out: 100")[0] !== undefined).size()).toBe(1);
		expect(lines.some((line) => line.match("  met$")[0] !== undefined)).toBe(true);
		expect(lines.some((line) => line.match("  MISSED$")[0] !== undefined)).toBe(true);
		expect(lines.some((line) => line.match("  %-$")[0] !== undefined)).toBe(true);
		expect(lines[lines.size() - 1]).toBe("1 of 2 goals met; missed: submit() cost");
		// The long baseline wrapped onto several lines rather than widening the table.
		expect(lines.size()).toBeGreaterThan(10);
		expect(markdownTable(rows).split("\n")[3]).toMatch("| under 5x | MISSED |$");
	});

	it("never splits a word: a column is at least its widest word", () => {
		const rows = [{ ...row("Writes a player costs", false), baseline: "write-through: 20,000 writes" }];
		const words = (text: string) => text.split(" ").filter((word) => word !== "");
		for (const columns of [100, 120]) {
			const text = terminalTable(rows, columns);
			expect(words(text)).toContain("write-through:");
			for (const line of text.split("\n")) expect(width(line) <= columns).toBe(true);
		}
	});

	it("below 100 columns prints one block a row, every line within the terminal (80 and up)", () => {
		const rows = [
			row("Read fan-out: 100 concurrent top() callers", true, true),
			row("submit() cost: 1000000 calls across 10000 keys", false),
			row("Memory per queued key at 100000 keys", undefined),
		];
		for (const columns of [80, 99]) {
			const lines = terminalTable(rows, columns).split("\n");
			expect(lines.filter((line) => width(line) > columns)).toEqual([]);
			expect(lines).toContain("Read fan-out: 100 concurrent top() callers: met");
			expect(lines).toContain("submit() cost: 1000000 calls across 10000 keys: MISSED");
			expect(lines).toContain("  ratio         9.62x");
			expect(lines).toContain("  goal          under 5x");
			expect(lines[lines.size() - 1]).toBe("1 of 2 goals met; missed: submit() cost");
			// The long baseline wraps at words under its label.
			const wrapped = lines.filter((line) => line.sub(1, 16) === string.rep(" ", 16));
			expect(wrapped.size()).toBeGreaterThan(1);
		}
	});
});
