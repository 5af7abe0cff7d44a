import { afterAll, beforeEach, describe, expect, it } from "@rbxts/jest-globals";
import { DataStoreService } from "@rbxts/services";
import { FrontRequest, headlessGate } from "../gate/control";
import { together } from "../gate/together";
import { KEY, ToolRun, seedManifest, serveTool, tool } from "./tool";

// The tool's own rate limit (issue 30): a share of the experience's budgets, paced by a leaky bucket
// (a burst of a sixth of a minute's share, 10 at most, then the rest of the share spread over the
// minute), so a game server spending the rest of the budget meanwhile is never throttled; the same
// requests from a client with no pacing run the experience dry. The clock runs at wall speed while
// the tool runs, so the experience refills at the rate the tool paces by.

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

const ROWS = 1_600; // 16 list pages: the burst of 10 and 6 paced
const GAME_RATE = 2.5; // the game's reads a second: the other half of the experience's 300 a minute

// Runs `client` (the tool's export, or a client with no pacing) while a game server reads a page
// every 1 / GAME_RATE s; returns its run, the list requests the front answered, and the game's reads
// that waited in the throttle queue.
function beside(client: () => ToolRun) {
	gate!.reset();
	serveTool(gate!);
	const rows = new Map<string, number>();
	for (let i = 1; i <= ROWS; i++) rows.set(`u${i}`, i);
	gate!.dataStore.seed("CKBoard_Kills", rows);
	seedManifest(gate!, { Kills: { Backend: "OrderedDataStore", Prefix: "CKBoard_", Storage: "Kills" } });
	// The game has spent the experience's List budget down to 12 (of 300 a minute) before the tool starts.
	DataStoreService.SetRateLimitForRequestType(Enum.DataStoreRequestType.OrderedList, 10_000, 0);
	const empty = DataStoreService.GetOrderedDataStore("Elsewhere");
	expect(together(288, () => empty.GetSortedAsync(false, 1))).toEqual([]);
	const store = DataStoreService.GetOrderedDataStore("CKBoard_Kills");
	let reading = true;
	task.spawn(() => {
		while (reading) {
			task.spawn(() => store.GetSortedAsync(false, 10));
			task.wait(1 / GAME_RATE);
		}
	});
	gate!.front.clearLog();
	const run = client();
	reading = false;
	const lists = gate!.front.log().filter((entry) => entry.operation === "ListOrderedDataStoreEntries");
	return { run, lists, throttled: gate!.dataStore.throttled() };
}

// The most requests of `lists` in a window of `seconds` (by the virtual clock, which the experience refills on).
function busiest(lists: FrontRequest[], seconds: number) {
	let most = 0;
	lists.forEach((first, i) => {
		const within = lists.filter((entry, j) => j >= i && entry.at - first.at <= seconds).size();
		most = math.max(most, within);
	});
	return most;
}

describeGate("the tool's share of the experience's budget", () => {
	beforeEach(() => gate!.reset());
	afterAll(() => {
		gate!.front.stop();
		gate!.reset();
	});

	it("never passes its share (--share 0.5: 150 lists a minute); a game reading the rest is never throttled", () => {
		const { run, lists, throttled } = beside(() =>
			tool(gate!, ["export", "Kills", "--format", "csv", "--share", "0.5"]),
		);
		expect(run.code).toBe(0);
		expect(run.stdout.split("\n").size()).toBe(ROWS + 2);
		expect(run.stderr).never.toContain("429");
		expect(lists.size()).toBe(ROWS / 100);
		expect(lists.every((entry) => entry.status === 200)).toBe(true);
		// The bucket: 10 at once, then 140 a minute (2.33 a second): a window of w seconds holds at most
		// 10 + 2.33 w (plus one for the jitter of arrival times).
		for (const seconds of [0.5, 1, 2, 3])
			expect(busiest(lists, seconds) <= 10 + (140 / 60) * seconds + 1).toBe(true);
		expect(lists[lists.size() - 1].at - lists[0].at >= (ROWS / 100 - 10 - 1) / (140 / 60)).toBe(true);
		expect(throttled).toBe(0);
	});

	it("a client with no share of its own, the same requests at once, runs the same experience dry", () => {
		const entries = "/cloud/v2/universes/4242/ordered-data-stores/CKBoard_Kills/scopes/global/entries";
		const { lists, throttled } = beside(() => ({
			...gate!.front.invoke("spec/gate/fixtures/front/burst.mjs", [tostring(ROWS / 100), entries], {
				env: { LEADERBOARDS_API_KEY: KEY },
			}),
		}));
		expect(lists.size()).toBe(ROWS / 100);
		// Open Cloud has no queue: whoever asks first on an empty budget loses, the client (429) or
		// the game (its request queued).
		expect(lists.filter((entry) => entry.status === 429).size() + throttled > 0).toBe(true);
	});
});
