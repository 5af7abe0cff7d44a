import { afterEach, beforeEach, describe, expect, it } from "@rbxts/jest-globals";
import { ANNOUNCEMENTS } from "../../plugins/leaderboards/stages/Herald/pending";
import { headlessGate } from "../gate/control";
import { leanBoards } from "../gate/servers";

// The Herald's announcements: they take turns on two topics (each under its receive limit, twice the
// announcements one topic allows), a record that finds the bucket empty goes out at its next token,
// and every wait is a kernel deadline the close cancels.

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

const now = () => DateTime.now().UnixTimestampMillis / 1000;

// One server showing the Kills page (a row seeded), its records heard on both topics by the spec too.
function oneServer() {
	gate!.dataStore.seed("CKBoard_Kills", new Map([["1", 5]]));
	const { kernel, boards } = leanBoards(gate!, 1, 1, { Boards: { Kills: {} } });
	boards.top("Kills");
	task.wait(2);
	const heard = new Array<string>();
	const messaging = game.GetService("MessagingService");
	for (const topic of ["CKBoard_Records", "CKBoard_Records2"])
		messaging.SubscribeAsync(topic, () => heard.push(topic));
	return { kernel, boards, heard };
}

// The experience's announcements bucket empty now: the next token is 60 / ANNOUNCEMENTS s away.
function emptyBucket() {
	const item = { records: [], next: 1, announced: 0, tokens: 0, tokensAt: now() };
	game.GetService("MemoryStoreService").GetHashMap("CKBoard_Records").SetAsync("pending", item, 600);
}

describeGate("the Herald's announcements", () => {
	beforeEach(() => gate!.reset());
	afterEach(() => gate!.reset());

	it("take turns on CKBoard_Records and CKBoard_Records2, and a server hears both", () => {
		const { kernel, boards, heard } = oneServer();
		boards.submit("Kills", "7", 10);
		task.wait(3);
		boards.submit("Kills", "7", 20);
		task.wait(3);
		expect(heard).toEqual(["CKBoard_Records", "CKBoard_Records2"]);
		// A record on the second topic patches the page like one on the first.
		game.GetService("MessagingService").PublishAsync("CKBoard_Records2", { v: 2, b: [["Kills", "", "8", 42]] });
		task.wait(3);
		expect(boards.top("Kills").map((entry) => `${entry.Key}=${entry.Value}`)).toEqual(["8=42", "7=20", "1=5"]);
		kernel.stop();
	});

	it("a record that finds the bucket empty goes out at the next token, asked by the server it landed on", () => {
		const { kernel, boards, heard } = oneServer();
		emptyBucket();
		const landed = new Array<number>();
		kernel.Bus.subscribe("Leaderboard.Record", () => landed.push(now()));
		boards.submit("Kills", "7", 10);
		task.wait(0.3);
		expect(landed.size()).toBe(1);
		expect(heard).toEqual([]);
		task.wait(60 / ANNOUNCEMENTS);
		expect(heard).toEqual(["CKBoard_Records"]);
		kernel.stop();
	});

	it("the close cancels an ask armed for the next token: no MemoryStore request after it", () => {
		const { kernel, boards, heard } = oneServer();
		emptyBucket();
		boards.submit("Kills", "7", 10);
		task.wait(0.3);
		kernel.stop();
		const updates = gate!.memoryStore.calls("UpdateAsync");
		task.wait(10);
		expect(gate!.memoryStore.calls("UpdateAsync")).toBe(updates);
		expect(heard).toEqual([]);
	});

	it("a subscription that returns after the close is let go: the closed server hears nothing", () => {
		gate!.latency.use({ "Messaging.SubscribeAsync": { fixed: 1 } });
		const { kernel } = leanBoards(gate!, 1, 1, { Boards: { Kills: {} } });
		kernel.stop();
		task.wait(2);
		game.GetService("MessagingService").PublishAsync("CKBoard_Records", { v: 2, b: [["Kills", "", "8", 42]] });
		task.wait(2);
		expect(gate!.messaging.counts().delivered).toBe(0);
	});

	it("an update under way at the close arms no ask when it returns", () => {
		const { kernel, boards } = oneServer();
		emptyBucket();
		gate!.latency.use({ MemoryStore: { fixed: 1 } });
		boards.submit("Kills", "7", 10);
		task.wait(0.5);
		const updates = gate!.memoryStore.calls("UpdateAsync");
		kernel.stop();
		task.wait(10);
		expect(gate!.memoryStore.calls("UpdateAsync")).toBe(updates);
	});
});

// A keep-best record is announced as its write is sent (the store holds that value or better once it
// lands); a newest or summed one as it lands. Every store request but UpdateAsync takes one frame here.
describeGate("records announced as their write is sent", () => {
	beforeEach(() => gate!.reset());
	afterEach(() => gate!.reset());

	// Two servers showing the Kills page (and a Coins sum), a row seeded on each; the writes take 3 s.
	function twoServers(options: object = {}) {
		gate!.dataStore.seed("CKBoard_Kills", new Map([["1", 5]]));
		gate!.dataStore.seed("CKBoard_Coins", new Map([["1", 5]]));
		const running = [1, 2].map((i) =>
			leanBoards(gate!, i, 1, { Boards: { Kills: {}, Coins: { Sum: true } }, ...options }),
		);
		for (const { boards } of running) {
			boards.top("Kills");
			boards.top("Coins");
		}
		task.wait(2);
		gate!.latency.use({ "DataStore.UpdateAsync": { fixed: 3 } });
		const key = tostring(running[0].players[0].UserId);
		const shown = (board: string) => running[1].boards.top(board).find((entry) => entry.Key === key)?.Value;
		return { running, key, shown };
	}

	it("a keep-best record is on the other server's page while its write is still out, announced once", () => {
		const { running, key, shown } = twoServers();
		running[0].boards.submit("Kills", running[0].players[0], 99);
		task.wait(1.5);
		expect(gate!.dataStore.snapshot("CKBoard_Kills").get(key)).toBe(undefined);
		expect(shown("Kills")).toBe(99);
		task.wait(3);
		expect(gate!.dataStore.snapshot("CKBoard_Kills").get(key)).toBe(99);
		expect(gate!.messaging.counts().published).toBe(1);
		for (const { kernel } of running) kernel.stop();
	});

	it("a page read while the write is out (RequestSeconds after the announcement) keeps the record", () => {
		const { running, shown } = twoServers({ Boards: { Kills: { CacheSeconds: 2 }, Coins: { Sum: true } } });
		running[0].boards.submit("Kills", running[0].players[0], 99);
		task.wait(2.5);
		// The shared page was read again just now, before the write landed (at 3.1 s).
		const reads = gate!.dataStore.calls("GetSortedAsync");
		expect(shown("Kills")).toBe(99);
		expect(gate!.dataStore.calls("GetSortedAsync")).toBe(reads + 1);
		for (const { kernel } of running) kernel.stop();
	});

	it("a record whose write never lands goes at the pages' first refresh after its deadline", () => {
		const { running, key, shown } = twoServers({ MaxWriteAttempts: 1 });
		gate!.dataStore.fault({ method: "UpdateAsync", failNext: 1 });
		running[0].boards.submit("Kills", running[0].players[0], 99);
		task.wait(1.5);
		expect(shown("Kills")).toBe(99);
		task.wait(60);
		// Dropped after its one attempt: the page read after the deadline shows the store.
		expect(gate!.dataStore.snapshot("CKBoard_Kills").get(key)).toBe(undefined);
		expect(shown("Kills")).toBe(undefined);
		for (const { kernel } of running) kernel.stop();
	});

	it("a summed record is announced as it lands, with the stored total", () => {
		const { running, shown } = twoServers();
		running[0].boards.submit("Coins", running[0].players[0], 60);
		task.wait(1.5);
		expect(shown("Coins")).toBe(undefined);
		task.wait(4);
		expect(shown("Coins")).toBe(60);
		for (const { kernel } of running) kernel.stop();
	});
});
