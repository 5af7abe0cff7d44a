import { afterEach, beforeEach, describe, expect, it } from "@rbxts/jest-globals";
import { Kernel } from "../../kernel";
import { Leaderboards, attach, memoryStoreBackend } from "../../plugins/leaderboards";
import { headlessGate } from "../gate/control";
import { leanBoards } from "../gate/servers";
import { captureLogs } from "../kernel/doubles";
import { expectShareHolds } from "./experienceCases";

// Issue 26 on the gate's experience: every server spends its share of the experience's data store
// budgets, a board's page is read once a refresh for every server (a lease on a MemoryStore hash
// map item, keyed by its store; a server with no page waits for the holder's read, issue 47), records
// travel on MessagingService, and each of those may fail without losing a score.

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

describeGate("each server spends its share of the experience's budgets", () => {
	beforeEach(() => gate!.reset());
	afterEach(() => gate!.reset());

	// The larger sizes (10 x 30, 100 x 1, 100 x 30) run in npm run scale (spec/scale).
	for (const [servers, players] of [
		[1, 1],
		[1, 30],
		[10, 1],
	])
		it(
			`${servers} server(s) of ${players} player(s) under a write backlog stay within the experience: 0 throttled`,
			() => expectShareHolds(gate!, servers, players),
			600_000,
		);
});

describeGate("one read of a board's page a refresh for the whole experience", () => {
	beforeEach(() => gate!.reset());
	afterEach(() => gate!.reset());

	const seeded = () =>
		gate!.dataStore.seed(
			"CKBoard_Kills",
			new Map([
				["a", 5],
				["b", 3],
			]),
		);
	const serversOf = (count: number, cacheSeconds = 60) => {
		const running = new Array<ReturnType<typeof leanBoards>>();
		for (let i = 1; i <= count; i++)
			running.push(leanBoards(gate!, i, 1, { Boards: { Kills: { CacheSeconds: cacheSeconds } } }));
		return running;
	};
	const allAsk = (running: ReturnType<typeof serversOf>) => {
		const pages = new Array<number>();
		let done = 0;
		for (const { boards } of running)
			task.spawn(() => {
				pages.push(boards.top("Kills").size());
				done += 1;
			});
		while (done < running.size()) task.wait();
		return pages;
	};

	it("ten servers asking at once: one store read, every server the page (one refresher at a time)", () => {
		seeded();
		const running = serversOf(10);
		// Those with no page yet wait for the one refresher's read (issue 47: they returned {} before).
		expect(allAsk(running)).toEqual([2, 2, 2, 2, 2, 2, 2, 2, 2, 2]);
		expect(gate!.dataStore.calls("GetSortedAsync")).toBe(1);
		task.wait(5);
		expect(allAsk(running)).toEqual([2, 2, 2, 2, 2, 2, 2, 2, 2, 2]);
		expect(gate!.dataStore.calls("GetSortedAsync")).toBe(1);
		// A refresh later (CacheSeconds): one more read for all of them.
		task.wait(61);
		allAsk(running);
		task.wait(5);
		allAsk(running);
		expect(gate!.dataStore.calls("GetSortedAsync")).toBe(2);
		for (const { kernel } of running) kernel.stop();
	});

	it("a refresher that never returns is replaced once its lease runs out (RequestSeconds + 5 s)", () => {
		seeded();
		const running = serversOf(3, 10);
		allAsk(running);
		task.wait(11);
		// The next refresh's store read hangs: its server holds the lease and never writes back.
		gate!.dataStore.fault({ method: "GetSortedAsync", hangNext: 1 });
		gate!.dataStore.seed("CKBoard_Kills", new Map([["c", 9]]));
		running[0].boards.top("Kills");
		task.wait(1);
		const reads = gate!.dataStore.calls("GetSortedAsync");
		// The others keep the page they have while the lease holds...
		expect(running[1].boards.top("Kills").map((entry) => entry.Key)).toEqual(["a", "b"]);
		expect(gate!.dataStore.calls("GetSortedAsync")).toBe(reads);
		// ... and after it runs out, one of them refreshes.
		task.wait(16);
		expect(running[1].boards.top("Kills").map((entry) => entry.Key)).toEqual(["c", "a", "b"]);
		expect(gate!.dataStore.calls("GetSortedAsync")).toBe(reads + 1);
		for (const { kernel } of running) kernel.stop();
	});

	it("a cold server waits for a refresh that hangs at most RequestSeconds, then returns {}", () => {
		seeded();
		const [holder, cold] = serversOf(2);
		gate!.dataStore.fault({ method: "GetSortedAsync", hangNext: 1 });
		task.spawn(() => holder.boards.top("Kills"));
		task.wait(1);
		const started = gate!.now();
		expect(cold.boards.top("Kills")).toEqual([]);
		const waited = gate!.now() - started;
		expect(waited).toBeGreaterThan(5);
		expect(waited).toBeLessThanOrEqual(10); // RequestSeconds, the default
		expect(gate!.dataStore.calls("GetSortedAsync")).toBe(1);
		holder.kernel.stop();
		cold.kernel.stop();
	});

	it("a board of one name on two stores keeps a page per store", () => {
		seeded();
		const ordered = attach(new Kernel({ bindToClose: false }), { Boards: { Kills: {} }, SkipLoop: true });
		const memory = attach(new Kernel({ bindToClose: false }), {
			Boards: { Kills: {} },
			Backend: memoryStoreBackend({ MapPrefix: "Event_" }),
			SkipLoop: true,
		});
		memory.submit("Kills", "z", 7);
		memory.flushNow();
		expect(ordered.top("Kills").map((entry) => entry.Key)).toEqual(["a", "b"]);
		expect(memory.top("Kills").map((entry) => entry.Key)).toEqual(["z"]);
		expect(ordered.top("Kills").map((entry) => entry.Key)).toEqual(["a", "b"]);
		ordered.destroy();
		memory.destroy();
	});

	it("MemoryStore down: every server reads the store itself, within its own share, and says so once", () => {
		seeded();
		gate!.memoryStore.fault({ rate: 1 });
		const logs = captureLogs();
		const boards = attach(new Kernel({ bindToClose: false }), { Boards: { Kills: {} }, SkipLoop: true });
		expect(boards.top("Kills").map((entry) => entry.Key)).toEqual(["a", "b"]);
		task.wait(61);
		expect(boards.top("Kills").size()).toBe(2);
		logs.restore();
		const warnings = logs.messages("warn").filter((line) => line.find("shared pages", 1, true)[0] !== undefined);
		expect(warnings.size()).toBe(1);
		expect(gate!.dataStore.throttled()).toBe(0);
	});
});

describeGate("records travel on MessagingService; losing one costs freshness only", () => {
	beforeEach(() => gate!.reset());
	afterEach(() => gate!.reset());

	// Two servers showing the Kills page; a player on the first takes the lead.
	const twoServers = () => {
		gate!.dataStore.seed("CKBoard_Kills", new Map([["1", 5]]));
		const running = [1, 2].map((i) => leanBoards(gate!, i, 1, { Boards: { Kills: {} } }));
		for (const { boards } of running) boards.top("Kills");
		task.wait(2);
		return running;
	};
	const leaderOn = (boards: Leaderboards<string>) => boards.top("Kills")[0]?.Key;

	it("a record is written within a second and shown on the other server within seconds, with no read", () => {
		const [first, second] = twoServers();
		const reads = gate!.dataStore.calls("GetSortedAsync");
		first.boards.submit("Kills", first.players[0], 99);
		task.wait(4);
		expect(leaderOn(second.boards)).toBe(tostring(first.players[0].UserId));
		expect(gate!.dataStore.calls("GetSortedAsync")).toBe(reads);
		expect(gate!.messaging.counts().published).toBe(1);
		for (const { kernel } of [first, second]) kernel.stop();
	});

	it("thirty records landing at once travel in one message (as many as fit in 1 kB), each shown on the other server", () => {
		gate!.dataStore.seed("CKBoard_Kills", new Map([["1", 5]]));
		const [first, second] = [30, 1].map((players, i) =>
			leanBoards(gate!, i + 1, players, { Boards: { Kills: {} } }),
		);
		for (const { boards } of [first, second]) boards.top("Kills");
		task.wait(2);
		first.players.forEach((player, i) => first.boards.submit("Kills", player, 100 + i));
		task.wait(4);
		expect(gate!.messaging.counts().published).toBe(1);
		expect(second.boards.top("Kills").size()).toBe(31);
		for (const { kernel } of [first, second]) kernel.stop();
	});

	it("thirty servers' records landing in the same instant reach every server within seconds, with no poll of the Records item", () => {
		gate!.dataStore.seed("CKBoard_Kills", new Map([["1", 5]]));
		const running = new Array<ReturnType<typeof leanBoards>>();
		for (let i = 1; i <= 30; i++) running.push(leanBoards(gate!, i, 1, { Boards: { Kills: {} } }));
		for (const { boards } of running) boards.top("Kills");
		task.wait(2);
		const reads = gate!.memoryStore.calls("GetAsync");
		for (const { boards, players } of running) boards.submit("Kills", players[0], 100 + players[0].UserId);
		task.wait(5);
		for (const { boards } of running) expect(boards.top("Kills").size()).toBe(31);
		// Pages are fresh, so no server read a shared item: the records went without anyone polling.
		expect(gate!.memoryStore.calls("GetAsync")).toBe(reads);
		for (const { kernel } of running) kernel.stop();
	});

	it("a lost message: the other server shows the record at its page's next refresh (CacheSeconds)", () => {
		const [first, second] = twoServers();
		gate!.messaging.lose(1);
		first.boards.submit("Kills", first.players[0], 99);
		task.wait(4);
		expect(leaderOn(second.boards)).toBe("1");
		task.wait(60);
		expect(leaderOn(second.boards)).toBe(tostring(first.players[0].UserId));
		for (const { kernel } of [first, second]) kernel.stop();
	});

	it("a delayed message never takes a page back: a keep-best row keeps the better value", () => {
		const [first, second] = twoServers();
		gate!.messaging.delay(30);
		first.boards.submit("Kills", first.players[0], 50);
		task.wait(2);
		first.boards.submit("Kills", first.players[0], 99);
		task.wait(65);
		const row = second.boards.top("Kills").find((entry) => entry.Key === tostring(first.players[0].UserId));
		expect(row?.Value).toBe(99);
		for (const { kernel } of [first, second]) kernel.stop();
	});

	it("a duplicated message patches once; a malformed one is ignored with one warning", () => {
		gate!.dataStore.seed("CKBoard_Kills", new Map([["1", 5]]));
		const kernel = new Kernel({ bindToClose: false });
		const boards = attach(kernel, { Boards: { Kills: {} } });
		kernel.start();
		boards.top("Kills");
		task.wait(2);
		const messaging = game.GetService("MessagingService");
		const record = { v: 1, r: [["Kills", "", "7", 42]] };
		const logs = captureLogs();
		messaging.PublishAsync("CKBoard_Records", record);
		messaging.PublishAsync("CKBoard_Records", record);
		messaging.PublishAsync("CKBoard_Records", { v: 1, r: [["Kills", "", "8", "lots"]] });
		messaging.PublishAsync("CKBoard_Records", "junk");
		task.wait(4);
		logs.restore();
		expect(boards.top("Kills").map((entry) => `${entry.Key}=${entry.Value}`)).toEqual(["7=42", "1=5"]);
		expect(logs.messages("warn")).toEqual([
			"[Leaderboards] records: ignored a message that is not a records message",
		]);
		kernel.stop();
	});
});
