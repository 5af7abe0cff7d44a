import { afterEach, beforeEach, describe, expect, it } from "@rbxts/jest-globals";
import { DataStoreService, MemoryStoreService } from "@rbxts/services";
import { FaultRule, GateServer, headlessGate } from "./control";

// UpdateAsync as Roblox runs it (GlobalDataStore reference, UpdateAsync: "In cases where another
// game server updated the key in the short timespan between retrieving the key's current value and
// setting the key's value, UpdateAsync() will call the function again, discarding the result of
// the previous call"; MemoryStoreSortedMap and MemoryStoreHashMap UpdateAsync alike): the
// transform runs on the calling server on the value read, the request travels, and it commits
// only if nobody wrote the key since the read. The docs set no bound on the reruns ("as many times
// as needed"); the gate stops at 5 attempts, the sorted map's UpdateConflict bound. A failed write
// "does not always guarantee that the backend write did not occur" (error-codes-and-limits), so a
// fault plan can fail an attempt before its transform runs, or after it travelled, landed or not.

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;
const BARE = "spec/gate/fixtures/bare/default.project.json";

// Runs `call` on its own thread; `done()` holds its outcome once it has returned or failed.
function started<T>(call: () => T) {
	const outcome: { finished: boolean; value?: T; problem?: string } = { finished: false };
	task.spawn(() => {
		const [ok, result] = pcall(call);
		if (ok) outcome.value = result;
		else outcome.problem = tostring(result);
		outcome.finished = true;
	});
	return () => {
		while (!outcome.finished) task.wait();
		return outcome;
	};
}

describeGate("UpdateAsync on an ordered data store", () => {
	let other: GateServer;
	beforeEach(() => {
		gate!.reset();
		gate!.latency.use({ "DataStore.UpdateAsync": { fixed: 1 } });
		other = gate!.newServer(BARE);
	});
	afterEach(() => {
		other.close();
		gate!.reset();
	});
	const store = () => DataStoreService.GetOrderedDataStore("Board");
	const otherStore = () => other.game.GetService("DataStoreService").GetOrderedDataStore("Board");

	it("runs the transform once, on the value read, and commits after one round trip", () => {
		store().SetAsync("k", 1);
		const seen = new Array<number>();
		const begun = gate!.now();
		const add = (old: number | undefined) => {
			seen.push(old ?? 0);
			return (old ?? 0) + 10;
		};
		expect(store().UpdateAsync("k", add)).toBe(11);
		expect(seen).toEqual([1]);
		expect(gate!.now() - begun).toBe(1);
	});

	it("another server's write between the read and the commit: the transform runs again on the newer value", () => {
		store().SetAsync("k", 1);
		const seen = new Array<number>();
		const add = (old: number | undefined) => {
			seen.push(old ?? 0);
			return (old ?? 0) + 10;
		};
		const done = started(() => store().UpdateAsync("k", add));
		task.wait(0.5);
		otherStore().SetAsync("k", 5);
		expect(seen).toEqual([1]); // read before the other write, not yet committed
		expect(done().value).toBe(15);
		expect(seen).toEqual([1, 5]);
		expect(gate!.dataStore.snapshot("Board").get("k")).toBe(15);
	});

	it("a key written under every attempt: it gives up after 5, committing nothing of its own", () => {
		let writing = true;
		task.spawn(() => {
			for (let i = 100; writing; i++) {
				otherStore().SetAsync("k", i);
				task.wait(0.5);
			}
		});
		let runs = 0;
		const done = started(() =>
			store().UpdateAsync("k", () => {
				runs += 1;
				return -1;
			}),
		);
		expect(done().problem).toContain(
			"was written by another server between the read and the commit of each of 5 attempts",
		);
		writing = false;
		expect(runs).toBe(5);
		expect(gate!.dataStore.snapshot("Board").get("k")).never.toBe(-1);
	});

	const positions: [string, FaultRule, number, number | undefined][] = [
		["before the transform runs: it never sees the value", { before: true }, 0, 1],
		["after it travelled, not landed: the transform ran, nothing was written", {}, 1, 1],
		["after it travelled, landed: the transform ran and its value was written", { landed: true }, 1, 11],
	];
	for (const [where, rule, runs, stored] of positions) {
		it(`a fault ${where}`, () => {
			store().SetAsync("k", 1);
			gate!.dataStore.fault({ method: "UpdateAsync", failNext: 1, ...rule });
			let transforms = 0;
			const begun = gate!.now();
			const add = (old: number | undefined) => {
				transforms += 1;
				return (old ?? 0) + 10;
			};
			expect(() => store().UpdateAsync("k", add)).toThrow("502: API Services rejected the request");
			expect(gate!.now() - begun).toBe(1); // a failed request still made its round trip
			expect(transforms).toBe(runs);
			expect(gate!.dataStore.snapshot("Board").get("k")).toBe(stored);
		});
	}
});

describeGate("UpdateAsync on a standard data store", () => {
	afterEach(() => gate!.reset());

	it("two servers taking one lease record: the later one's transform reruns and sees the lease taken", () => {
		gate!.reset();
		gate!.latency.use({ "DataStore.UpdateAsync": { fixed: 1 } });
		const servers = [gate!.newServer(BARE), gate!.newServer(BARE)];
		type Lease = { owner: string; until: number };
		const take = (server: GateServer, name: string) => () =>
			server.game
				.GetService("DataStoreService")
				.GetDataStore("Leases")
				.UpdateAsync<Lease, Lease>("board", (lease) => {
					if (lease !== undefined && lease.until > os.time()) return $tuple(undefined);
					return $tuple({ owner: name, until: os.time() + 60 });
				})[0];
		const first = started(take(servers[0], "a"));
		task.wait(0.5);
		const second = started(take(servers[1], "b"));
		expect(first().value?.owner).toBe("a");
		expect(second().value).toBeUndefined(); // its first attempt lost; the rerun found a's lease
		expect(gate!.dataStore.standard.snapshot("Leases").get("board")).toEqual(first().value);
		for (const server of servers) server.close();
	});
});

describeGate("UpdateAsync's fault positions on the memory stores", () => {
	beforeEach(() => {
		gate!.reset();
		gate!.latency.use({ "MemoryStore.UpdateAsync": { fixed: 1 } });
	});
	afterEach(() => gate!.reset());

	// The calls a sorted map and a hash map share, as one shape.
	type Map = {
		SetAsync: (this: unknown, key: string, value: unknown, expiration: number) => void;
		UpdateAsync: (this: unknown, key: string, transform: (old: number) => number, expiration: number) => void;
		GetAsync: (this: unknown, key: string) => unknown;
	};
	const maps: [string, () => Map][] = [
		["sorted map", () => MemoryStoreService.GetSortedMap("Faults") as unknown as Map],
		["hash map", () => MemoryStoreService.GetHashMap("Faults") as unknown as Map],
	];
	const positions: [string, FaultRule, number, number][] = [
		["before the transform runs", { before: true }, 0, 1],
		["after it travelled, not landed", {}, 1, 1],
		["after it travelled, landed", { landed: true }, 1, 11],
	];
	for (const [kind, mapOf] of maps) {
		for (const [where, rule, runs, stored] of positions) {
			it(`${kind}: a fault ${where}`, () => {
				const map = mapOf();
				map.SetAsync("k", 1, 60);
				gate!.memoryStore.fault({ method: "UpdateAsync", failNext: 1, ...rule });
				let transforms = 0;
				const add = (old: number) => {
					transforms += 1;
					return old + 10;
				};
				expect(() => map.UpdateAsync("k", add, 60)).toThrow("InternalError: Internal error.");
				expect(transforms).toBe(runs);
				expect(map.GetAsync("k")).toBe(stored);
			});
		}
	}
});
