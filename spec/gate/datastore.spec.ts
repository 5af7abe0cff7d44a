import { afterEach, beforeEach, describe, expect, it } from "@rbxts/jest-globals";
import { DataStoreService, LogService } from "@rbxts/services";
import { headlessGate } from "./control";

// Each expectation follows shared/notes/engine-facts.md (the Roblox data store
// limits page and the OrderedDataStore reference). Error codes and messages
// follow the error-code table of the data store docs:
// https://create.roblox.com/docs/cloud-services/data-stores/error-codes-and-limits

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

type BatchGet = (this: unknown, keys: string[]) => Map<string, { value: number }>;
const batchGet = (store: OrderedDataStore, keys: string[]) =>
	(store as unknown as { BatchGetAsync: BatchGet }).BatchGetAsync(keys);

function fill(store: OrderedDataStore, count: number) {
	DataStoreService.SetRateLimitForRequestType(Enum.DataStoreRequestType.OrderedWrite, 10_000, 0);
	for (let i = 1; i <= count; i++) store.SetAsync(`k${i}`, i);
}

function pageKeys(pages: DataStorePages) {
	return (pages.GetCurrentPage() as unknown as { key: string; value: number }[]).map((row) => row.key);
}

describeGate("the emulated OrderedDataStore", () => {
	beforeEach(() => gate!.reset());
	afterEach(() => gate!.reset());

	describe("values and keys", () => {
		it("stores integers and refuses fractions", () => {
			const store = DataStoreService.GetOrderedDataStore("Values");
			store.SetAsync("a", 5);
			expect(store.GetAsync("a")).toBe(5);
			expect(() => store.SetAsync("a", 1.5)).toThrow("104: Can't store 1.5 in DataStore.");
			expect(() => store.SetAsync("a", "x")).toThrow("104");
			expect(store.GetAsync("a")).toBe(5);
		});

		it("refuses empty keys and keys over 50 characters", () => {
			const store = DataStoreService.GetOrderedDataStore("Keys");
			expect(() => store.SetAsync("", 1)).toThrow("101: Key name can't be empty.");
			expect(() => store.SetAsync(string.rep("k", 51), 1)).toThrow(
				"102: Key name exceeds the 50 character limit.",
			);
			store.SetAsync(string.rep("k", 50), 1);
		});

		it("refuses store names over 50 characters", () => {
			expect(() => DataStoreService.GetOrderedDataStore(string.rep("s", 51))).toThrow("50 characters");
		});

		it("UpdateAsync writes what the transform returns, and nothing when it returns nil", () => {
			const store = DataStoreService.GetOrderedDataStore("Update");
			store.UpdateAsync("a", (old) => (old ?? 0) + 10);
			expect(store.GetAsync("a")).toBe(10);
			store.UpdateAsync("a", () => undefined);
			expect(store.GetAsync("a")).toBe(10);
			expect(gate!.dataStore.snapshot("Update").get("a")).toBe(10);
		});

		it("UpdateAsync refuses a transform that yields", () => {
			const store = DataStoreService.GetOrderedDataStore("Update");
			expect(() =>
				store.UpdateAsync("a", () => {
					task.wait(1);
					return 1;
				}),
			).toThrow("cannot yield");
		});
	});

	describe("GetSortedAsync pages", () => {
		it("pages of at most 100, in order, until IsFinished", () => {
			const store = DataStoreService.GetOrderedDataStore("Pages");
			fill(store, 250);
			const pages = store.GetSortedAsync(false, 100);
			const sizes: number[] = [];
			let first: string[] = [];
			for (;;) {
				const keys = pageKeys(pages);
				if (sizes.size() === 0) first = keys;
				sizes.push(keys.size());
				if (pages.IsFinished) break;
				pages.AdvanceToNextPageAsync();
			}
			expect(sizes).toEqual([100, 100, 50]);
			expect(first[0]).toBe("k250");
			expect(() => pages.AdvanceToNextPageAsync()).toThrow("No pages to advance to");
		});

		it("sorts ascending and filters by min and max", () => {
			const store = DataStoreService.GetOrderedDataStore("Pages");
			fill(store, 10);
			expect(pageKeys(store.GetSortedAsync(true, 3))).toEqual(["k1", "k2", "k3"]);
			expect(pageKeys(store.GetSortedAsync(true, 100, 4, 6))).toEqual(["k4", "k5", "k6"]);
		});

		it("refuses page sizes outside 1..100 and bad bounds with the table's codes (106, 107)", () => {
			const store = DataStoreService.GetOrderedDataStore("Pages");
			expect(() => store.GetSortedAsync(true, 101)).toThrow("106: PageSize must be within a predefined range.");
			expect(() => store.GetSortedAsync(true, 0)).toThrow("106: PageSize must be within a predefined range.");
			expect(() => store.GetSortedAsync(true, 10, 1.5)).toThrow("106: MinValue must be an integer.");
			expect(() => store.GetSortedAsync(true, 10, 1, 2.5)).toThrow("106: MaxValue must be an integer.");
			expect(() => store.GetSortedAsync(true, 10, 5, 1)).toThrow(
				"107: MaxValue must be greater than or equal to MinValue.",
			);
		});

		it("an omitted page size is 50", () => {
			const store = DataStoreService.GetOrderedDataStore("Pages");
			fill(store, 60);
			const loose = store as unknown as { GetSortedAsync: (this: unknown, ascending: boolean) => DataStorePages };
			expect(pageKeys(loose.GetSortedAsync(true)).size()).toBe(50);
		});
	});

	describe("the error-code table", () => {
		it("101 and 102 for empty and long keys, 104 for a value that is not an integer", () => {
			const store = DataStoreService.GetOrderedDataStore("Codes");
			expect(() => store.GetAsync("")).toThrow("101: Key name can't be empty.");
			expect(() => store.IncrementAsync(string.rep("k", 51))).toThrow(
				"102: Key name exceeds the 50 character limit.",
			);
			expect(() => store.IncrementAsync("a", 0.5)).toThrow("104: Can't store 0.5 in DataStore.");
		});

		it("103 when an UpdateAsync transform returns a value of another type; nothing is written", () => {
			const store = DataStoreService.GetOrderedDataStore("Codes");
			const loose = store as unknown as {
				UpdateAsync: (this: unknown, key: string, transform: () => unknown) => unknown;
			};
			expect(() => loose.UpdateAsync("a", () => "ten")).toThrow("103: Can't allow string in DataStore.");
			expect(() => loose.UpdateAsync("a", () => 2.5)).toThrow("104: Can't store 2.5 in DataStore.");
			expect(gate!.dataStore.snapshot("Codes").get("a")).toBeUndefined();
		});

		it("502 (RequestRejected) by default when the fault plan fails a call", () => {
			const store = DataStoreService.GetOrderedDataStore("Codes");
			gate!.dataStore.fault({ method: "GetAsync", failNext: 1 });
			expect(() => store.GetAsync("a")).toThrow(
				"502: API Services rejected the request with error HTTP 500 (Internal Server Error).",
			);
		});

		it("104 for a value of another type, in the table's words", () => {
			const store = DataStoreService.GetOrderedDataStore("Codes") as unknown as {
				SetAsync: (this: unknown, key: string, value: unknown) => void;
			};
			expect(() => store.SetAsync("a", "x")).toThrow("104: Can't store string in DataStore.");
			expect(() => store.SetAsync("a", {})).toThrow("104: Can't store table in DataStore.");
		});

		// 301-306: each request type names itself when its throttle queue (30) is full.
		const ordered = Enum.DataStoreRequestType;
		const throttles: [string, Enum.DataStoreRequestType, (store: OrderedDataStore) => unknown][] = [
			["301: GetAsync", ordered.OrderedRead, (store) => store.GetAsync("k")],
			["302: SetAsync", ordered.OrderedWrite, (store) => store.SetAsync("k", 1)],
			["303: IncrementAsync", ordered.OrderedWrite, (store) => store.IncrementAsync("k", 1)],
			["304: UpdateAsync", ordered.OrderedWrite, (store) => store.UpdateAsync("k", () => 1)],
			["305: GetSorted", ordered.OrderedList, (store) => store.GetSortedAsync(true, 1)],
			["306: RemoveAsync", ordered.OrderedRemove, (store) => store.RemoveAsync("k")],
		];
		for (const [name, kind, send] of throttles) {
			it(`${name} request dropped when its throttle queue is full`, () => {
				DataStoreService.SetRateLimitForRequestType(kind, 1, 0); // one request a minute
				const store = DataStoreService.GetOrderedDataStore("Codes");
				send(store);
				for (let i = 0; i < 30; i++) task.spawn(() => send(store));
				expect(() => send(store)).toThrow(`${name} request dropped. Request was throttled but queue was full.`);
				gate!.dataStore.reset();
			});
		}
	});

	describe("BatchGetAsync", () => {
		it("returns { [key] = { value } }, leaving out missing keys", () => {
			const store = DataStoreService.GetOrderedDataStore("Batch");
			store.SetAsync("a", 1);
			store.SetAsync("b", 2);
			const result = batchGet(store, ["a", "b", "missing"]);
			expect(result.get("a")).toEqual({ value: 1 });
			expect(result.get("b")).toEqual({ value: 2 });
			expect(result.get("missing")).toBeUndefined();
		});

		it("takes 1 to 100 keys and spends one OrderedRead per key", () => {
			const store = DataStoreService.GetOrderedDataStore("Batch");
			const keys: string[] = [];
			for (let i = 1; i <= 40; i++) keys.push(`k${i}`);
			const before = DataStoreService.GetRequestBudgetForRequestType(Enum.DataStoreRequestType.OrderedRead);
			batchGet(store, keys);
			const after = DataStoreService.GetRequestBudgetForRequestType(Enum.DataStoreRequestType.OrderedRead);
			expect(before - after).toBe(40);
			// dataStore.spent counts the requests of a type servers spent, a key each.
			expect(gate!.dataStore.spent("OrderedRead")).toBe(40);
			expect(gate!.dataStore.spent("OrderedList")).toBe(0);
			keys.clear();
			for (let i = 1; i <= 101; i++) keys.push(`k${i}`);
			expect(() => batchGet(store, keys)).toThrow("1 to 100 keys");
		});
	});

	describe("request budgets", () => {
		const budget = (kind: Enum.DataStoreRequestType) => DataStoreService.GetRequestBudgetForRequestType(kind);

		it("start at one minute of requests: 30 + 5 x players writes, 60 + 40 x players reads", () => {
			expect(budget(Enum.DataStoreRequestType.OrderedWrite)).toBe(30);
			expect(budget(Enum.DataStoreRequestType.OrderedRead)).toBe(60);
			expect(budget(Enum.DataStoreRequestType.OrderedList)).toBe(5);
			gate!.dataStore.reset();
			gate!.players.join({ UserId: 1 });
			gate!.players.join({ UserId: 2 });
			expect(budget(Enum.DataStoreRequestType.OrderedWrite)).toBe(40);
			expect(budget(Enum.DataStoreRequestType.OrderedRead)).toBe(140);
		});

		it("UpdateAsync spends both OrderedRead and OrderedWrite", () => {
			const store = DataStoreService.GetOrderedDataStore("Budget");
			store.UpdateAsync("a", () => 1);
			expect(budget(Enum.DataStoreRequestType.OrderedWrite)).toBe(29);
			expect(budget(Enum.DataStoreRequestType.OrderedRead)).toBe(59);
		});

		it("refill at the per-minute rate, up to one minute's worth", () => {
			const store = DataStoreService.GetOrderedDataStore("Budget");
			for (let i = 0; i < 30; i++) store.SetAsync(`k${i}`, i);
			expect(budget(Enum.DataStoreRequestType.OrderedWrite)).toBe(0);
			task.wait(10); // 30 a minute: 5 in 10 s
			expect(budget(Enum.DataStoreRequestType.OrderedWrite)).toBe(5);
			task.wait(60);
			expect(budget(Enum.DataStoreRequestType.OrderedWrite)).toBe(30);
		});

		it("over budget, requests wait in the throttle queue with the engine's warning, then run", () => {
			const store = DataStoreService.GetOrderedDataStore("Throttle");
			const warnings: string[] = [];
			const connection = LogService.MessageOut.Connect((message, kind) => {
				if (kind === Enum.MessageType.MessageWarning) warnings.push(message);
			});
			for (let i = 0; i < 30; i++) store.SetAsync(`k${i}`, i);
			const started = os.clock();
			store.SetAsync("late", 1); // waits for a write's worth of refill: 30 a minute is one every 2 s
			connection.Disconnect();
			expect(os.clock() - started).toBeGreaterThan(1);
			expect(store.GetAsync("late")).toBe(1);
			expect(gate!.dataStore.throttled()).toBe(1);
			expect(warnings[0]).toMatch("DataStore request was added to queue");
		});

		it("a full throttle queue (30) drops the request with 30x", () => {
			const store = DataStoreService.GetOrderedDataStore("Throttle");
			for (let i = 0; i < 30; i++) store.SetAsync(`k${i}`, i);
			for (let i = 0; i < 30; i++) task.spawn(() => store.SetAsync(`q${i}`, i));
			expect(() => store.SetAsync("dropped", 1)).toThrow(
				"302: SetAsync request dropped. Request was throttled but queue was full.",
			);
			task.wait(61);
			expect(gate!.dataStore.snapshot("Throttle").get("q29")).toBe(29);
		});
	});

	describe("the fault plan", () => {
		it("fails the next N calls with the given message", () => {
			const store = DataStoreService.GetOrderedDataStore("Faults");
			gate!.dataStore.fault({ method: "SetAsync", failNext: 2, message: "503: boom" });
			expect(() => store.SetAsync("a", 1)).toThrow("503: boom");
			expect(() => store.SetAsync("a", 1)).toThrow("503: boom");
			store.SetAsync("a", 1);
			expect(store.GetAsync("a")).toBe(1);
		});

		it("fails only the named method", () => {
			const store = DataStoreService.GetOrderedDataStore("Faults");
			gate!.dataStore.fault({ method: "GetSortedAsync", failNext: 1 });
			store.SetAsync("a", 1);
			expect(() => store.GetSortedAsync(false, 10)).toThrow("502");
		});

		it("fails at a seeded rate, the same calls for the same seed", () => {
			const store = DataStoreService.GetOrderedDataStore("Faults");
			const run = () => {
				gate!.dataStore.reset();
				gate!.dataStore.fault({ rate: 0.5, seed: 7 });
				DataStoreService.SetRateLimitForRequestType(Enum.DataStoreRequestType.OrderedRead, 10_000, 0);
				const outcomes: boolean[] = [];
				for (let i = 0; i < 40; i++) outcomes.push(pcall(() => store.GetAsync("a"))[0]);
				return outcomes;
			};
			const first = run();
			const failures = first.filter((ok) => !ok).size();
			expect(failures).toBeGreaterThan(8);
			expect(failures).toBeLessThan(32);
			expect(run()).toEqual(first);
		});

		it("can let a failed write land: the value is stored but the call errors", () => {
			const store = DataStoreService.GetOrderedDataStore("Faults");
			gate!.dataStore.fault({ method: "UpdateAsync", failNext: 1, landed: true, message: "timeout" });
			expect(() => store.UpdateAsync("a", () => 9)).toThrow("timeout");
			expect(gate!.dataStore.snapshot("Faults").get("a")).toBe(9);
		});

		it("can hang a call: it never returns", () => {
			const store = DataStoreService.GetOrderedDataStore("Faults");
			gate!.dataStore.fault({ method: "UpdateAsync", hangNext: 1 });
			let returned = false;
			task.spawn(() => {
				store.UpdateAsync("a", () => 1);
				returned = true;
			});
			task.wait(100);
			expect(returned).toBe(false);
			expect(gate!.dataStore.snapshot("Faults").get("a")).toBeUndefined();
		});
	});

	it("a request still travelling when the gate resets fails as abandoned, touching nothing new", () => {
		const store = DataStoreService.GetOrderedDataStore("Reset");
		gate!.dataStore.setLatency(1);
		let problem: unknown;
		task.spawn(() => (problem = pcall(() => store.SetAsync("a", 1))[1]));
		gate!.dataStore.reset();
		task.wait(2);
		expect(problem).toBe("request abandoned: the gate reset the data stores while it travelled");
		expect(gate!.dataStore.snapshot("Reset").get("a")).toBeUndefined();
	});

	it("requests yield before they take effect", () => {
		const store = DataStoreService.GetOrderedDataStore("Yield");
		gate!.dataStore.setLatency(0.5);
		const started = os.clock();
		store.SetAsync("a", 1);
		expect(os.clock() - started).toBeCloseTo(0.5, 1);
	});
});
