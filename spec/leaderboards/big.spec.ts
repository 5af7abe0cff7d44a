import { afterEach, beforeEach, describe, expect, it } from "@rbxts/jest-globals";
import { Kernel } from "../../kernel";
import { Backend, Entry, Topics, attach } from "../../plugins/leaderboards";
import { MAX_DOUBLE, MAX_EXACT_INTEGER, decodeBig, encodeBig } from "../../plugins/leaderboards/internal";
import { headlessGate } from "../gate/control";
import { captureLogs } from "../kernel/doubles";
import { MemoryBackend, boardsWith } from "./doubles";
import { STORE_KINDS, boardsOn, storedOn } from "./stores";

// Big boards (issue 28): any finite number, on OrderedDataStores as an integer
// code within ±2^53 (42 significant bits), on MemoryStore as the number itself;
// every read gives decoded numbers.

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

/** What a Big board gives back for `value` on a store: the code's 42 bits on OrderedDataStores, else the value. */
const kept = (kind: string, value: number) => (kind === "OrderedDataStore" ? decodeBig(encodeBig(value)) : value);

const VALUES: [string, number][] = [
	["a", 1.5e20],
	["b", 3.25e45],
	["c", -2e30],
	["d", 7],
	["e", 1e308],
	["f", 5e-300],
];

describeGate('Big boards (Values = "Big")', () => {
	beforeEach(() => gate!.reset());
	afterEach(() => gate!.reset());

	for (const kind of STORE_KINDS) {
		describe(`on ${kind}`, () => {
			it("stores any finite number; top, scores, rank, around and Updated give decoded numbers", () => {
				const kernel = new Kernel({ bindToClose: false });
				// Deep: a page of 2, so rank and around past it ask the store (around at the value's code).
				const boards = boardsOn(
					kind,
					{ Coins: { Values: "Big" }, Deep: { Values: "Big", MaxEntries: 2 } },
					undefined,
					{},
					kernel,
				);
				let updated: Entry[] | undefined;
				kernel.Bus.subscribe(Topics.Updated, (_, _board, entries) => (updated = entries));
				for (const [key, value] of VALUES) {
					expect(boards.submit("Coins", key, value)).toBe(true);
					boards.submit("Deep", key, value);
				}
				boards._flush();
				const expected = [...VALUES]
					.sort((x, y) => x[1] > y[1])
					.map(([key, value]) => [key, kept(kind, value)]);
				expect(boards.top("Coins").map((entry) => [entry.Key, entry.Value])).toEqual(expected);
				expect(updated!.map((entry) => [entry.Key, entry.Value])).toEqual(expected);
				expect(boards.scores("Coins", ["b", "c"])).toEqual(
					new Map([
						["b", kept(kind, 3.25e45)],
						["c", kept(kind, -2e30)],
					]),
				);
				expect(boards.rank("Coins", "a")).toEqual({ Key: "a", Value: kept(kind, 1.5e20), Rank: 3 });
				const near = [kept(kind, 3.25e45), kept(kind, 1.5e20), kept(kind, 7)];
				expect(boards.around("Coins", "a", 1)!.map((row) => row.Value)).toEqual(near);
				expect(boards.rank("Deep", "a")).toEqual({ Key: "a", Value: kept(kind, 1.5e20) });
				expect(boards.around("Deep", "a", 1)!.map((row) => [row.Key, row.Value])).toEqual([
					["b", near[0]],
					["a", near[1]],
					["d", near[2]],
				]);
				for (const [key, value] of VALUES) {
					const back = boards.scores("Coins", [key])!.get(key)!;
					expect(math.abs(back - value) <= 2 ** -42 * math.abs(value)).toBe(true);
				}
			});

			it("keeps the best in both directions and the newest, in the store itself", () => {
				const boards = boardsOn(kind, {
					Power: { Values: "Big" },
					Time: { Values: "Big", Ascending: true },
					Level: { Values: "Big", KeepBest: false },
				});
				boards.submit("Power", "a", 1e40);
				boards.submit("Time", "a", 1e30);
				boards.submit("Level", "a", 1e40);
				boards._flush();
				boards.submit("Power", "a", 9e39);
				boards.submit("Time", "a", 2e30);
				boards.submit("Level", "a", 1e10);
				boards._flush();
				expect(boards.scores("Power", ["a"])!.get("a")).toBe(kept(kind, 1e40));
				expect(boards.scores("Time", ["a"])!.get("a")).toBe(kept(kind, 1e30));
				expect(boards.scores("Level", ["a"])!.get("a")).toBe(kept(kind, 1e10));
			});

			it("sums on decoded values past 2^53, stopping at the largest double", () => {
				const boards = boardsOn(kind, { Earned: { Values: "Big", Sum: true } });
				boards.submit("Earned", "a", 2 ** 60);
				boards._flush();
				boards.submit("Earned", "a", 2 ** 60);
				boards.submit("Earned", "b", 1e308);
				boards._flush();
				boards.submit("Earned", "b", 1e308);
				boards._flush();
				const totals = boards.scores("Earned", ["a", "b"])!;
				expect(totals.get("a")).toBe(2 ** 61);
				expect(totals.get("b")).toBe(kept(kind, MAX_DOUBLE));
			});
		});
	}

	it("where each store holds it: integer codes in their own store on OrderedDataStores, the numbers themselves on MemoryStore", () => {
		for (const kind of STORE_KINDS) {
			const boards = boardsOn(kind, { Coins: { Values: "Big" } }, gate!.newServer());
			boards.submit("Coins", "a", 1.5e20);
			boards._flush();
		}
		const code = storedOn(gate!, "OrderedDataStore", "Coins#Big").get("a")!;
		expect(code).toBe(encodeBig(1.5e20));
		expect(code % 1 === 0 && code <= MAX_EXACT_INTEGER).toBe(true);
		expect(storedOn(gate!, "OrderedDataStore", "Coins").size()).toBe(0);
		expect(storedOn(gate!, "MemoryStore", "Coins").get("a")).toBe(1.5e20);
	});

	it("a plain board refuses a value past 2^53, naming Big; a Big board takes it (and refuses only NaN and infinities)", () => {
		const { boards } = boardsWith({ Boards: { Kills: {}, Coins: { Values: "Big" } } });
		const logs = captureLogs();
		expect(boards.submit("Kills", "a", 1e20)).toBe(false);
		expect(boards.submit("Coins", "a", 1e20)).toBe(true);
		expect(boards.submit("Coins", "a", 12.5)).toBe(true);
		expect(boards.submit("Coins", "a", math.huge)).toBe(false);
		expect(boards.submit("Coins", "a", 0 / 0)).toBe(false);
		logs.restore();
		expect(logs.messages("warn").join("\n")).toContain('Values = "Big" takes any finite number');
		expect(boards.Stats.Refused).toBe(3);
	});

	it("attach refuses what a Big board cannot do: a tie-break, and a Sum on a store of integers with no set()", () => {
		const kernel = () => new Kernel({ bindToClose: false });
		expect(() =>
			attach(kernel(), { Boards: { Coins: { Values: "Big", TieBreak: "Earliest" } }, SkipLoop: true }),
		).toThrow('options.Boards.Coins.TieBreak needs whole values: not with Values = "Big"');
		expect(() => attach(kernel(), { Boards: { Coins: { Values: "Huge" as "Big" } }, SkipLoop: true })).toThrow(
			'options.Boards.Coins.Values must be "Plain" or "Big" (got "Huge")',
		);
		const submitOnly: Backend = {
			...new MemoryBackend().asSubmitBackend(),
			set: undefined,
			sums: true,
			integers: true,
		};
		expect(() =>
			attach(kernel(), { Boards: { Coins: { Values: "Big", Sum: true } }, Backend: submitOnly, SkipLoop: true }),
		).toThrow(
			"options.Boards.Coins.Values on a Sum board needs a backend with set() where the store holds integers",
		);
	});
});
