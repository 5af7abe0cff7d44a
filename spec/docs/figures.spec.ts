import { afterEach, describe, expect, it } from "@rbxts/jest-globals";
import { BenchRow } from "../../bench/measure";
import { clientsRow } from "../../bench/clients";
import { friendsRow } from "../../bench/friends";
import {
	budgetRow,
	drainRow,
	idleRequests,
	namesRow,
	playerWritesRow,
	readFanOutRow,
	standingRow,
	windowWallRow,
} from "../../bench/rows";
import { headlessGate } from "../gate/control";

// The figures docs/benchmarks.md quotes from `npm run bench`, for the rows cheap
// enough to run at their full size here: simulated in virtual time, they are the
// same on any machine, so a fresh run must print the quoted cells exactly. A
// change that moves one fails here; run `npm run bench -- --markdown` and copy the table.
const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;
// Boards players see at its full size (bench/run.ts).
const CLIENTS = { players: 30, minutes: 1, warmup: 30 };
// Virtual time: a row simulates minutes of play.
const VIRTUAL = 30 * 60 * 1000;

// The cells of the table row whose first cell is `name`.
function quoted(page: string, name: string): string[] | undefined {
	for (const line of page.split("\n")) {
		if (line.sub(1, name.size() + 4) !== `| ${name} |`) continue;
		return line
			.sub(3, -3)
			.split(" | ")
			.map((cell) => cell.gsub("^%s+", "")[0].gsub("%s+$", "")[0]);
	}
	return undefined;
}

describeGate("the benchmark figures the docs quote", () => {
	afterEach(() => gate!.reset());
	const page = gate?.readFile("docs/benchmarks.md") ?? "";

	const rows: [string, () => BenchRow][] = [
		[
			"writes a player costs, 20000 submits of 50 players",
			() => playerWritesRow(gate!, { submits: 20_000, players: 50, minutes: 5 }),
		],
		...[10, 50, 100].map((players): [string, () => BenchRow] => [
			`budget use, 5000 keys and ${players} players`,
			() => budgetRow(gate!, { keys: 5_000, minutes: 5, players }, idleRequests(gate!, 5)),
		]),
		[
			"where do I stand, 30 players over 1000 stored",
			() => standingRow(gate!, { players: 30, stored: 1_000, minutes: 5 }),
		],
		["read fan-out, 100 callers", () => readFanOutRow(gate!, 100)],
		["drain, 1000 keys and 20 players", () => drainRow(gate!, { keys: 1_000, players: 20 })],
		["window wall time, median of 5", () => windowWallRow(gate!, 5)],
		["names(), 1000 renders", () => namesRow(gate!, 1_000)],
		["friends(), 200 friends of whom 20 played", () => friendsRow(gate!, { friends: 200, played: 20, online: 1 })],
		["boards players see, boards starting empty", () => clientsRow(gate!, CLIENTS, false)],
		["boards players see, boards others lead", () => clientsRow(gate!, CLIENTS, true)],
	];
	for (const [what, measure] of rows) {
		it(
			`${what}: a fresh run prints the quoted row`,
			() => {
				const row = measure();
				const cells = quoted(page, row.name);
				expect(cells && [cells[1], cells[2], cells[3], cells[5]]).toEqual([
					row.ours,
					row.baseline,
					row.ratio,
					row.met === true ? "met" : "MISSED",
				]);
			},
			VIRTUAL,
		);
	}
});
