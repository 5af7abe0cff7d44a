import { afterAll, beforeEach, describe, expect, it } from "@rbxts/jest-globals";
import { HttpService } from "@rbxts/services";
import { Kernel } from "../../kernel";
import { headlessGate } from "../gate/control";
import { NOON, TODAY, YESTERDAY, playGame } from "./game";
import { LayoutBoard, READ_SCOPES, seedManifest, serveTool, tool } from "./tool";

// The tool's erasure and the game's are one protocol (issue 47, item 10; docs/manifest.md): a record
// another holder leases is left alone, a Custom-backend board is left to a game server, and a game
// server finishes an erasure the tool started and could not finish.

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

interface Record {
	State: string;
	Removed: string[];
	Remaining: string[];
	Holder?: string;
	Until?: number;
	Finished?: number;
}
const recordOf = (key: string) => gate!.dataStore.standard.snapshot("CKBoard_Manifest").get(`erasure:${key}`) as Record;
const pendingOf = () =>
	(gate!.dataStore.standard.snapshot("CKBoard_Manifest").get("erasures") as { Pending: string[] }).Pending;

const ORDERED: LayoutBoard = { Backend: "OrderedDataStore", Prefix: "CKBoard_", Storage: "Kills", KeepBest: true };

describeGate("the tool's erasure and the game's, one protocol", () => {
	beforeEach(() => {
		gate!.reset();
		gate!.calendar.set(NOON);
		gate!.dataStore.seed("CKBoard_Kills", new Map([["105", 50]]));
	});
	afterAll(() => {
		gate!.front.stop();
		gate!.reset();
	});

	it("refuses a record a live server holds, saying who holds it until when, and changes nothing", () => {
		const lease = {
			Version: 1,
			Key: "105",
			Requested: NOON - 10,
			State: "pending",
			Removed: [],
			Remaining: ["CKBoard_Kills"],
			Holder: "server-a",
			Until: NOON + 50,
		};
		seedManifest(
			gate!,
			{ Kills: ORDERED },
			{},
			{ "erasure:105": lease, erasures: { Version: 1, Pending: ["105"] } },
		);
		serveTool(gate!);
		const run = tool(gate!, ["erase", "105", "--yes"]);
		expect(run.code).toBe(1);
		expect(run.stderr).toContain(
			"leaderboards: erasure:105 is held by server-a until 2026-12-06T12:00:50.000Z (Until), which is erasing 105 now: nothing done",
		);
		expect(HttpService.JSONEncode(recordOf("105"))).toBe(HttpService.JSONEncode(lease));
		expect(gate!.dataStore.snapshot("CKBoard_Kills").get("105")).toBe(50);
	});

	it("leaves a Custom-backend board's stores to a game server: the record stays pending and indexed", () => {
		seedManifest(gate!, {
			Kills: ORDERED,
			Deaths: { Backend: "Custom", Prefix: "", Storage: "Deaths", KeepBest: true },
		});
		serveTool(gate!);
		const run = tool(gate!, ["erase", "105", "--yes"]);
		expect([run.code, run.stderr]).toEqual([
			0,
			"leaderboards: Deaths is on a Custom backend: a game server removes 105 from it\n",
		]);
		expect(run.stdout).toContain(
			"erased 105 from 1 store; 1 store of Custom-backend boards left to a game server (Deaths): erasure:105 stays pending until one finishes it",
		);
		const record = recordOf("105");
		expect([record.State, record.Removed, record.Remaining, record.Holder, record.Until]).toEqual([
			"pending",
			["CKBoard_Kills"],
			["Deaths"],
			undefined,
			undefined,
		]);
		expect(pendingOf()).toEqual(["105"]);
		expect(gate!.dataStore.snapshot("CKBoard_Kills").has("105")).toBe(false);
	});
});

describeGate("a game server finishes an erasure the tool started", () => {
	let kernel: Kernel;
	afterAll(() => {
		kernel.stop();
		gate!.front.stop();
		gate!.reset();
	});

	it("the tool stops at a store its key cannot write; the game's Eraser takes the record over and finishes it", () => {
		gate!.reset();
		({ kernel } = playGame(gate!));
		// A key that writes ordered data stores and the manifest, not memory stores.
		const writes = ["universe-datastores.objects:create", "universe-datastores.objects:update"];
		serveTool(gate!, {
			"ordered-key": [...READ_SCOPES, ...writes, "universe.ordered-data-store.scope.entry:write"],
		});
		const run = tool(gate!, ["erase", "101", "--yes"], { key: "ordered-key" });
		expect(run.code).toBe(1);
		expect(run.stderr).toContain("the API key lacks the permission memory-store.sorted-map:write");
		const stopped = recordOf("101");
		// Handed back with the stores named as the manifest names them (no shard suffix), so a server knows them.
		expect([stopped.State, stopped.Holder, stopped.Until]).toEqual(["pending", undefined, undefined]);
		const all = [
			"CKBoard_Coins#Big",
			`CKBoard_DailyKills@${YESTERDAY}`,
			`CKBoard_DailyKills@${TODAY}`,
			"CKBoard_Kills",
			"CKBoard_Sprint#Earliest",
		];
		expect([...stopped.Removed, ...stopped.Remaining].sort()).toEqual(all);
		expect(pendingOf()).toEqual(["101"]);

		// The game polls the index every minute, takes the record, removes what is left, sweeps, and finishes.
		let record = recordOf("101");
		for (let waited = 0; waited < 600 && record.State !== "done"; waited += 5) {
			task.wait(5);
			record = recordOf("101");
		}
		expect(record.State).toBe("done");
		expect(typeIs(record.Finished, "number")).toBe(true);
		expect([...record.Removed].sort()).toEqual(all);
		expect(pendingOf()).toEqual([]);
		for (const store of ["CKBoard_Kills", "CKBoard_Coins#Big", "CKBoard_Sprint#Earliest"])
			expect(gate!.dataStore.snapshot(store).has("101")).toBe(false);
		for (const day of [TODAY, YESTERDAY])
			for (const shard of [1, 2])
				expect(
					gate!.memoryStore
						.snapshot(`CKBoard_DailyKills@${day}.${shard}/2`)
						.some((item) => item.key === "101"),
				).toBe(false);
	});
});
