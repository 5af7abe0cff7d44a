import { afterAll, beforeAll, describe, expect, it } from "@rbxts/jest-globals";
import { Kernel } from "../../kernel";
import { Leaderboards } from "../../plugins/leaderboards";
import { headlessGate } from "../gate/control";
import { LAYOUT, NOON, TODAY, YESTERDAY, agreed as agreedWith, playGame, shardOf } from "./game";
import { KEY, seedManifest, serveTool, tool, toolsAtOnce } from "./tool";

// The moderation tool end to end (issue 30, "Done when"): a game in the gate writes scores through
// the library; the tool, a process outside the gate, reads them through the loopback HTTP front of
// Open Cloud, removes and erases them; the game's next top() agrees with the tool's.

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

interface Row {
	rank: number;
	user: string;
	value: number;
	stored: number;
}
const rowsOf = (json: unknown) => (json as { rows: Row[] }).rows.map((row) => [row.user, row.value]);

let boards: Leaderboards;
let kernel: Kernel;
const agreed = (board: string, expected: unknown) => agreedWith(boards, board, expected);

describeGate("the moderation tool against a game in the gate", () => {
	beforeAll(() => {
		gate!.reset();
		({ boards, kernel } = playGame(gate!));
		serveTool(gate!);
	});
	afterAll(() => {
		// A started kernel would go on stepping (and drawing the gate's latencies) in the next spec files.
		kernel.stop();
		gate!.front.stop();
		gate!.reset();
	});

	it("boards, top, rank and show read what the game wrote, decoded, through the manifest", () => {
		const [listing, kills, coins, sprint, daily, text, ranked, missing, shown] = toolsAtOnce(gate!, [
			["boards", "--json"],
			...["Kills", "Coins", "Sprint", "DailyKills"].map((board) => ["top", board, "--count", "20", "--json"]),
			["top", "Coins", "--count", "2"],
			["rank", "Kills", "105", "--json"],
			["rank", "Kills", "999"],
			["show", "105", "--json"],
		]);
		// boards: the manifest's boards, their encodings and today's stores by the Date Open Cloud sends.
		expect(listing.code).toBe(0);
		const listed = (listing.json as { boards: { name: string; encoding: string; current: { store: string } }[] })
			.boards;
		expect(listed.map((board) => [board.name, board.encoding, board.current.store])).toEqual([
			["Coins", "Big", "CKBoard_Coins#Big"],
			["DailyKills", "Plain", `CKBoard_DailyKills@${TODAY}`],
			["Kills", "Plain", "CKBoard_Kills"],
			["Sprint", "Earliest", "CKBoard_Sprint#Earliest"],
		]);
		// top: the game's own top(), decoded: plain, Big codes, tie-break folds, two shards merged.
		for (const [board, run] of [
			["Kills", kills],
			["Coins", coins],
			["Sprint", sprint],
			["DailyKills", daily],
		] as const) {
			expect(`${board}: ${run.code} ${run.stderr}`).toBe(`${board}: 0 `);
			expect(rowsOf(run.json).size()).toBe(12);
			expect(agreed(board, rowsOf(run.json))).toEqual(rowsOf(run.json));
		}
		expect(text.stdout).toBe(
			"Coins (CKBoard_Coins#Big), top 2:\nrank  user     value\n   1   112   1.8e+21\n   2   111  1.65e+21\n",
		);
		// rank and show: a user on every board and period that holds him.
		const rank = ranked.json as { rank: number; value: number };
		expect([rank.rank, rank.value]).toEqual([8, 50]);
		expect([missing.code, missing.stderr]).toEqual([1, "leaderboards: 999 is not on Kills (CKBoard_Kills)\n"]);
		expect(
			(shown.json as { rows: { board: string; period?: string }[] }).rows.map(
				(row) => `${row.board} ${row.period ?? "all-time"}`,
			),
		).toEqual([
			"Coins all-time",
			`DailyKills ${YESTERDAY}`,
			`DailyKills ${TODAY}`,
			"Kills all-time",
			"Sprint all-time",
		]);
		for (const run of [listing, kills, coins, sprint, daily, text, ranked, missing, shown])
			expect(run.stdout + run.stderr).never.toContain(KEY);
	});

	it("remove shows what it will do and asks; --dry-run changes nothing; the game's next top() agrees", () => {
		const [dry, declined] = toolsAtOnce(gate!, [
			["remove", "DailyKills", "105", "--all-periods", "--dry-run"],
			["remove", "Kills", "112"],
		]);
		expect(dry.code).toBe(0);
		expect(dry.stdout).toContain(`CKBoard_DailyKills@${YESTERDAY}.${shardOf("105") + 1}/2  value 50`);
		expect(dry.stdout).toContain("dry run: nothing removed");
		// No answer (stdin at its end) is no.
		expect([declined.code, declined.stderr]).toEqual([1, "Remove? [y/N] \nleaderboards: nothing removed\n"]);
		expect(gate!.dataStore.snapshot("CKBoard_Kills").get("112")).toBe(120);

		// The bin as npx starts it, a process of its own, answering on its stdin.
		const removed = tool(gate!, ["remove", "DailyKills", "105", "--all-periods"], { input: "y\n", process: true });
		expect(removed.code).toBe(0);
		expect(removed.stdout).toContain("removed 105 from 2 stores of DailyKills");
		expect(tool(gate!, ["remove", "Kills", "112", "--yes"]).code).toBe(0);

		const [kills, daily] = toolsAtOnce(gate!, [
			["top", "Kills", "--count", "20", "--json"],
			["top", "DailyKills", "--count", "20", "--json"],
		]);
		const killsAfter = rowsOf(kills.json);
		expect(killsAfter[0]).toEqual(["111", 110]);
		expect(agreed("Kills", killsAfter)).toEqual(killsAfter);
		const dailyAfter = rowsOf(daily.json);
		expect(dailyAfter.map(([user]) => user)).never.toContain("105");
		expect(agreed("DailyKills", dailyAfter)).toEqual(dailyAfter);
	});

	it("erase writes its record first, empties every store of the user, marks it done; the game's top() agrees", () => {
		const run = tool(gate!, ["erase", "101", "--yes", "--json"]);
		expect(run.code).toBe(0);
		const result = run.json as { state: string; removed: string[] };
		expect(result.state).toBe("done");
		expect(result.removed.size()).toBe(5);
		const manifest = gate!.dataStore.standard.snapshot("CKBoard_Manifest");
		const record = manifest.get("erasure:101") as {
			State: string;
			Remaining: unknown[];
			Removed: string[];
			Finished: number;
			Holder?: string;
		};
		expect(record.State).toBe("done");
		// Finished with the state, the lease let go, the stores named as the manifest names them (no shard suffix).
		expect(typeIs(record.Finished, "number")).toBe(true);
		expect(record.Holder).toBe(undefined);
		expect(record.Remaining.size()).toBe(0);
		expect([...record.Removed].sort()).toEqual(
			[
				"CKBoard_Coins#Big",
				`CKBoard_DailyKills@${TODAY}`,
				`CKBoard_DailyKills@${YESTERDAY}`,
				"CKBoard_Kills",
				"CKBoard_Sprint#Earliest",
			].sort(),
		);
		expect((manifest.get("erasures") as { Pending: unknown[] }).Pending.size()).toBe(0);
		const boardNames = ["Kills", "Coins", "Sprint", "DailyKills"];
		const runs = toolsAtOnce(gate!, [
			...boardNames.map((board) => ["top", board, "--count", "20", "--json"]),
			["erase", "101", "--yes"],
		]);
		boardNames.forEach((board, i) => {
			const top = rowsOf(runs[i].json);
			expect(top.map(([key]) => key)).never.toContain("101");
			expect(agreed(board, top)).toEqual(top);
		});
		// Again: the record says done.
		expect(runs[4].stdout).toBe("101 was already erased (5 stores); nothing to do\n");
	});

	it("erase resumes a record the game left pending, from what Remaining still lists", () => {
		// A server began erasing 102 and stopped after the first store (its record and index as docs/manifest.md writes them).
		boards.remove("Kills", "102");
		seedManifest(
			gate!,
			LAYOUT,
			{ DailyKills: [YESTERDAY, TODAY] },
			{
				"erasure:102": {
					Version: 1,
					Key: "102",
					Requested: NOON,
					State: "pending",
					Removed: ["CKBoard_Kills"],
					Remaining: ["CKBoard_Coins#Big", "CKBoard_Sprint#Earliest"],
				},
				erasures: { Version: 1, Pending: ["102"] },
			},
		);
		const run = tool(gate!, ["erase", "102", "--yes"]);
		expect(run.code).toBe(0);
		expect(run.stdout).toContain("Resuming the erasure of 102 from 4 stores (1 store already done)");
		const record = gate!.dataStore.standard.snapshot("CKBoard_Manifest").get("erasure:102") as {
			State: string;
			Requested: number;
			Removed: string[];
		};
		expect([record.State, record.Requested, record.Removed.size()]).toEqual(["done", NOON, 5]);
		expect(gate!.dataStore.snapshot("CKBoard_Coins#Big").has("102")).toBe(false);
	});
});
