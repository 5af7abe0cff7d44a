import { afterEach, beforeEach, describe, expect, it } from "@rbxts/jest-globals";
import { DataStoreService } from "@rbxts/services";
import { GateServer, headlessGate } from "./control";
import { together } from "./together";

// Each expectation follows create.roblox.com/docs/cloud-services/data-stores/error-codes-and-limits,
// "Access limits": experience limits shared by every server (ordered and standard alike: Read
// 300 + 40 x CCU, Write 300 + 20 x CCU, List 300 + 2 x CCU, Remove 300 + 40 x CCU a minute;
// UpdateAsync "consumes from both the read and write request budgets"), and server limits
// (OrderedRead 60 + 40 x players, ...) configurable with SetRateLimitForRequestType within the
// ranges of the DataStoreService reference ("Constraints by Request Type"). A request past the
// experience limit is "throttled by experience limits" (<Type>ExperienceThrottled in the error-code
// table), distinct from the server level's queue-full drops (301-306).

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;
const BARE = "spec/gate/fixtures/bare/default.project.json";
const RequestType = Enum.DataStoreRequestType;

// `count` servers of just the engine's services, one player each.
function onePlayerServers(count: number): GateServer[] {
	const servers = new Array<GateServer>();
	for (let i = 1; i <= count; i++) {
		const server = gate!.newServer(BARE);
		server.join({ UserId: i });
		servers.push(server);
	}
	return servers;
}

const storesOf = (server: GateServer) => server.game.GetService("DataStoreService");

// Every server reads its whole server-level OrderedRead budget, all in one frame; returns the errors.
function readFullBudgets(servers: GateServer[]): string[] {
	const reads = new Array<() => unknown>();
	for (const server of servers) {
		const store = storesOf(server).GetOrderedDataStore("Shared");
		const budget = storesOf(server).GetRequestBudgetForRequestType(RequestType.OrderedRead);
		for (let i = 1; i <= budget; i++) reads.push(() => store.GetAsync(`k${i}`));
	}
	return together(reads.size(), (i) => reads[i - 1]());
}

describeGate("the experience-level data store limits", () => {
	beforeEach(() => gate!.reset());
	afterEach(() => gate!.reset());

	it("are 300 + 40, 20, 2 and 40 x concurrent users a minute, counted over every server", () => {
		const expected = (ccu: number) => [300 + 40 * ccu, 300 + 20 * ccu, 300 + 2 * ccu, 300 + 40 * ccu];
		const limits = () =>
			["Read", "Write", "List", "Remove"].map((kind) => {
				const ordered = gate!.dataStore.experienceLimit(`Ordered${kind}`);
				expect(gate!.dataStore.experienceLimit(`Standard${kind}`)).toBe(ordered);
				return ordered;
			});
		expect(limits()).toEqual(expected(0));
		gate!.players.join({ UserId: 1 });
		const servers = onePlayerServers(3);
		expect(limits()).toEqual(expected(4));
		for (const server of servers) server.close();
	});

	it("grow their budget at once when users join: a thousand servers starting together get the minute their players allow", () => {
		const store = DataStoreService.GetOrderedDataStore("Rise");
		store.GetAsync("a"); // the bucket exists now, at 300 a minute
		expect(gate!.dataStore.experienceBudget("OrderedRead")).toBe(299);
		const servers = onePlayerServers(10);
		// 300 + 40 x 10: the rise of 400 is there to spend at once, not over the next minute.
		expect(gate!.dataStore.experienceBudget("OrderedRead")).toBe(699);
		for (const server of servers) server.close();
		// A fall takes back what the lower limit no longer holds.
		expect(gate!.dataStore.experienceBudget("OrderedRead")).toBe(300);
	});

	it("100 one-player servers each spending its full server-level read budget are throttled by the experience: OrderedReadExperienceThrottled", () => {
		const servers = onePlayerServers(100);
		// Server level: 60 + 40 x 1 each and a startup burst of 60, 16,000 in all; the experience:
		// 300 + 40 x 100 = 4,300.
		expect(storesOf(servers[0]).GetRequestBudgetForRequestType(RequestType.OrderedRead)).toBe(100 + 60);
		expect(gate!.dataStore.experienceLimit("OrderedRead")).toBe(4_300);
		const errors = readFullBudgets(servers);
		expect(errors.size()).toBeGreaterThan(0);
		expect(errors[0]).toBe(
			"OrderedReadExperienceThrottled: OrderedRead request was throttled by experience limits.",
		);
		expect(gate!.dataStore.dropped("OrderedReadExperienceThrottled")).toBe(errors.size());
		expect(gate!.dataStore.dropped("GetAsyncThrottle")).toBe(0); // no server went over its own level
		// 4,300 ran at once; 30 a server waited in its queue and ran on the experience's refill.
		expect(gate!.dataStore.calls("GetAsync") - errors.size()).toBeGreaterThan(4_300);
		expect(gate!.dataStore.throttled()).toBeGreaterThan(30);
		for (const server of servers) server.close();
	});

	it("the same servers with SetRateLimitForRequestType at 0 + 40 x players are never throttled, minute after minute", () => {
		const servers = onePlayerServers(100);
		for (const server of servers) storesOf(server).SetRateLimitForRequestType(RequestType.OrderedRead, 0, 40);
		// A base limit of 0 sizes the startup burst at 0 too.
		expect(storesOf(servers[0]).GetRequestBudgetForRequestType(RequestType.OrderedRead)).toBe(40);
		expect(readFullBudgets(servers)).toEqual([]);
		task.wait(60);
		expect(readFullBudgets(servers)).toEqual([]);
		expect(gate!.dataStore.dropped()).toBe(0);
		expect(gate!.dataStore.throttled()).toBe(0);
		for (const server of servers) server.close();
	});

	it("past the limit a request waits in its server's queue (30), runs on the experience's refill, and the 31st fails", () => {
		// One server raised to 10,000 writes a minute: the experience (300 + 20 x 0) is what holds it back.
		DataStoreService.SetRateLimitForRequestType(RequestType.OrderedWrite, 10_000, 0);
		const store = DataStoreService.GetOrderedDataStore("Writes");
		expect(together(300, (i) => store.SetAsync(`k${i}`, i))).toEqual([]);
		expect(gate!.dataStore.experienceBudget("OrderedWrite")).toBe(0);
		const started = gate!.now();
		store.SetAsync("late", 1); // 300 a minute refill one every 0.2 s
		expect(gate!.now() - started).toBeGreaterThan(0.15);
		expect(gate!.dataStore.throttled()).toBe(1);
		const errors = together(31, (i) => store.SetAsync(`q${i}`, i));
		expect(errors).toEqual([
			"OrderedWriteExperienceThrottled: OrderedWrite request was throttled by experience limits.",
		]);
		expect(gate!.dataStore.snapshot("Writes").size()).toBe(331);
	});

	it("UpdateAsync spends the experience's OrderedRead and OrderedWrite", () => {
		const store = DataStoreService.GetOrderedDataStore("Update");
		store.UpdateAsync("a", () => 1);
		expect(gate!.dataStore.experienceBudget("OrderedRead")).toBe(299);
		expect(gate!.dataStore.experienceBudget("OrderedWrite")).toBe(299);
		expect(gate!.dataStore.experienceBudget("OrderedList")).toBe(300);
	});

	it("GetRequestBudgetForRequestType reads the server level only, whatever the experience has spent", () => {
		const [first, second] = onePlayerServers(2);
		storesOf(first).SetRateLimitForRequestType(RequestType.OrderedList, 10_000, 0);
		const store = storesOf(first).GetOrderedDataStore("Lists");
		expect(together(304, () => store.GetSortedAsync(false, 10))).toEqual([]); // 300 + 2 x 2
		expect(gate!.dataStore.experienceBudget("OrderedList")).toBe(0);
		expect(storesOf(second).GetRequestBudgetForRequestType(RequestType.OrderedList)).toBe(7 + 5); // and its burst
		first.close();
		second.close();
	});

	it("SetRateLimitForRequestType takes its documented ranges and refuses UpdateAsync and OnUpdate", () => {
		const set = (kind: Enum.DataStoreRequestType, base: number, perPlayer: number) =>
			DataStoreService.SetRateLimitForRequestType(kind, base, perPlayer);
		set(RequestType.OrderedRead, 10_000, 200);
		set(RequestType.StandardList, 0, 0);
		set(RequestType.GetAsync, 60, 40);
		set(RequestType.GetSortedAsync, 5, 2);
		set(RequestType.SetIncrementSortedAsync, 30, 5);
		expect(() => set(RequestType.OrderedRead, 10_001, 0)).toThrow(
			"baseLimit for OrderedRead must be an integer in [0, 10000]",
		);
		expect(() => set(RequestType.OrderedWrite, 0, 201)).toThrow(
			"perPlayerLimit for OrderedWrite must be an integer in [0, 200]",
		);
		expect(() => set(RequestType.OrderedRemove, -1, 0)).toThrow("[0, 10000]");
		expect(() => set(RequestType.GetAsync, 61, 0)).toThrow("baseLimit for GetAsync must be an integer in [0, 60]");
		expect(() => set(RequestType.SetIncrementSortedAsync, 0, 6)).toThrow("[0, 5]");
		expect(() => set(RequestType.UpdateAsync, 1, 1)).toThrow("UpdateAsync cannot be configured");
		expect(() => set(RequestType.OnUpdate, 1, 1)).toThrow("OnUpdate cannot be configured");
		// The legacy SetIncrementSortedAsync sets the OrderedWrite budget it spends.
		set(RequestType.SetIncrementSortedAsync, 7, 0);
		expect(DataStoreService.GetRequestBudgetForRequestType(RequestType.OrderedWrite)).toBe(7);
	});
});

// "Servers receive a one-time startup burst of additional request budget when they are first
// created" (error-codes-and-limits, "Server limits"; no size given). The gate's reading: one extra
// minute at the server's base limit (its limit with no players, as when it is created; a base set
// with SetRateLimitForRequestType sizes it), spent before the refilling budget, never refilled.
describeGate("the one-time startup burst", () => {
	beforeEach(() => gate!.reset());
	afterEach(() => gate!.reset());

	it("a new server can spend one extra minute at its base limit of each type", () => {
		const [server] = onePlayerServers(1);
		expect(server.startupBurst("OrderedRead")).toBe(60);
		expect(server.startupBurst("OrderedWrite")).toBe(30);
		expect(server.startupBurst("OrderedList")).toBe(5);
		expect(server.startupBurst("StandardWrite")).toBe(60);
		expect(storesOf(server).GetRequestBudgetForRequestType(RequestType.OrderedWrite)).toBe(30 + 5 + 30);
		server.close();
	});

	it("is spent first and never refilled: a minute later the budget is one minute's again", () => {
		const [server] = onePlayerServers(1);
		const store = storesOf(server).GetOrderedDataStore("Burst");
		expect(together(30, (i) => store.SetAsync(`k${i}`, i))).toEqual([]);
		expect(server.startupBurst("OrderedWrite")).toBe(0);
		expect(server.budget("OrderedWrite")).toBe(35); // the refilling budget untouched
		expect(together(35, (i) => store.SetAsync(`m${i}`, i))).toEqual([]);
		task.wait(60);
		expect(server.budget("OrderedWrite")).toBe(35);
		server.close();
	});

	it("a base limit set at startup sizes it; the run's own server has none", () => {
		const [server] = onePlayerServers(1);
		storesOf(server).SetRateLimitForRequestType(RequestType.OrderedRead, 10, 40);
		expect(server.startupBurst("OrderedRead")).toBe(10);
		expect(gate!.dataStore.startupBurst("OrderedRead")).toBe(0);
		expect(DataStoreService.GetRequestBudgetForRequestType(RequestType.OrderedRead)).toBe(60);
		server.close();
	});
});
