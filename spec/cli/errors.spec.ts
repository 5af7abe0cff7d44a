import { afterAll, beforeAll, describe, expect, it } from "@rbxts/jest-globals";
import { DataStoreService } from "@rbxts/services";
import { headlessGate } from "../gate/control";
import { together } from "../gate/together";
import { KEY, LayoutBoard, READ_SCOPES, seedManifest, serveTool, tool, toolsAtOnce } from "./tool";

// The tool's errors name their cause (issue 30): 401 the key refused, 403 the scope the key lacks
// (named from the openapi's x-roblox-scopes), 404 no universe or manifest, 429 retried with backoff
// until the experience's budget (shared with the game servers) has room again; the key never shown.

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

const LAYOUT: Record<string, LayoutBoard> = {
	Kills: { Backend: "OrderedDataStore", Prefix: "CKBoard_", Storage: "Kills", KeepBest: true },
	Live: { Backend: "MemoryStore", Prefix: "CKBoard_", Storage: "Live", KeepBest: true },
};

describeGate("the tool's errors", () => {
	beforeAll(() => {
		gate!.reset();
		gate!.dataStore.seed("CKBoard_Kills", new Map([["105", 50]]));
		seedManifest(gate!, LAYOUT);
		serveTool(gate!, {
			"read-only-key": READ_SCOPES,
			"ordered-only-key": ["universe-datastores.objects:read", "universe.ordered-data-store.scope.entry:read"],
		});
	});
	afterAll(() => {
		gate!.front.stop();
		gate!.reset();
	});

	it("401, 403 and 404 name what to fix; a board or period the manifest has not is a usage error", () => {
		const [refused, denied, deniedRecord, deniedMap, elsewhere, noBoard, noPeriod, flag] = toolsAtOnce(gate!, [
			["top", "Kills", "--api-key", "not-the-key"],
			["remove", "Kills", "105", "--yes", "--api-key", "read-only-key"],
			["erase", "105", "--yes", "--api-key", "read-only-key"],
			["top", "Live", "--api-key", "ordered-only-key"],
			["top", "Kills", "--universe", "7"],
			["top", "Deaths"],
			["top", "Kills", "--period", "previous"],
			["top", "Kills", "--json", "--api-key", KEY],
		]);
		expect([refused.code, refused.stderr]).toEqual([
			1,
			"leaderboards: warning: --api-key leaves the key in your shell history and the process list; set LEADERBOARDS_API_KEY instead\n" +
				"leaderboards: Open Cloud refused the API key (401: Invalid API Key): check LEADERBOARDS_API_KEY; the key may be wrong, expired or revoked, or not allowed from this IP address\n",
		]);
		expect(denied.code).toBe(1);
		expect(denied.stderr).toContain(
			"leaderboards: the API key lacks the permission universe.ordered-data-store.scope.entry:write for universe 4242 (403 PERMISSION_DENIED",
		);
		expect(deniedRecord.stderr).toContain("the API key lacks the permission universe-datastores.objects:create");
		expect(deniedMap.stderr).toContain("the API key lacks the permission memory-store.sorted-map:read");
		expect(elsewhere.code).toBe(1);
		expect(elsewhere.stderr).toContain(
			'no manifest layout in universe 7 (data store CKBoard_Manifest, key "layout"): the universe does not exist',
		);
		expect([noBoard.code, noBoard.stderr]).toEqual([
			2,
			"leaderboards: no board Deaths in the manifest (it lists Kills, Live)\nleaderboards --help lists the commands and options\n",
		]);
		expect([noPeriod.code, noPeriod.stderr.split("\n")[0]]).toEqual([
			2,
			'leaderboards: Kills is an all-time board; it has no period "previous"',
		]);
		expect(flag.code).toBe(0);
		expect(gate!.dataStore.snapshot("CKBoard_Kills").get("105")).toBe(50);
		for (const run of [refused, denied, deniedRecord, deniedMap, elsewhere, noBoard, noPeriod, flag])
			expect(run.stdout + run.stderr).never.toContain(KEY);
	});

	it("429: waits out a budget the game servers spent, retrying with backoff, and then answers", () => {
		// A game server spends the experience's whole OrderedList budget (300 a minute, no players).
		DataStoreService.SetRateLimitForRequestType(Enum.DataStoreRequestType.OrderedList, 10_000, 0);
		const store = DataStoreService.GetOrderedDataStore("Elsewhere");
		expect(together(300, () => store.GetSortedAsync(false, 1))).toEqual([]);
		expect(gate!.dataStore.experienceBudget("OrderedList")).toBe(0);
		const run = tool(gate!, ["top", "Kills", "--json"]);
		expect(run.code).toBe(0);
		expect(
			run.stderr.match(
				"^Open Cloud: the experience's OrderedList budget is spent for now %(429 RESOURCE_EXHAUSTED: OrderedList request was throttled by experience limits%.; game servers share it%); retrying in %d%.%d s\n$",
			)[0],
		).toBeDefined();
		expect((run.json as { rows: { user: string }[] }).rows.map((row) => row.user)).toEqual(["105"]);
		expect(
			gate!.front
				.log()
				.filter((entry) => entry.status === 429)
				.size(),
		).toBe(1);
	});
});
