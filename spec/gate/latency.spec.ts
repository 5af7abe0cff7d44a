import { afterEach, beforeEach, describe, expect, it } from "@rbxts/jest-globals";
import { DataStoreService, LogService, UserService } from "@rbxts/services";
import { headlessGate } from "./control";

// The gate's one request path (engine/request.luau) and its latency profiles
// (spec/gate/README.md, "Request latency"). Times are the gate's virtual clock.

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;
const FRAME = 1 / 64;

function unlimited() {
	for (const kind of [Enum.DataStoreRequestType.OrderedRead, Enum.DataStoreRequestType.OrderedWrite])
		DataStoreService.SetRateLimitForRequestType(kind, 10_000, 0);
}

// Starts `count` GetAsync requests at once; returns each one's latency once all are back.
function concurrentReads(count: number): number[] {
	const store = DataStoreService.GetOrderedDataStore("Latency");
	const latencies = new Array<number>(count, -1);
	const started = gate!.now();
	for (let i = 0; i < count; i++)
		task.spawn(() => {
			store.GetAsync(`k${i}`);
			latencies[i] = gate!.now() - started;
		});
	while (latencies.some((latency) => latency < 0)) task.wait(0.25);
	return latencies;
}

function sorted(values: number[]) {
	const copy = [...values];
	copy.sort();
	return copy;
}

describeGate("request latency", () => {
	beforeEach(() => gate!.reset());
	afterEach(() => gate!.reset());

	it("is one frame for every request by default", () => {
		expect(gate!.latency.profile().name).toBe("frame");
		const store = DataStoreService.GetOrderedDataStore("Latency");
		let started = gate!.now();
		store.SetAsync("a", 1);
		expect(gate!.now() - started).toBe(FRAME);
		started = gate!.now();
		UserService.GetUserInfosByUserIdsAsync([1]);
		expect(gate!.now() - started).toBe(FRAME);
	});

	it("realistic: tens to hundreds of milliseconds, with a long tail", () => {
		gate!.latency.use("realistic");
		unlimited();
		// The experience allows 300 + 40 x players reads a minute: three players cover 400 at once.
		for (let id = 1; id <= 3; id++) gate!.players.join({ UserId: id });
		const latencies = sorted(concurrentReads(400));
		const { median, p99 } = gate!.latency.profile().distributions["DataStore.GetAsync"] as {
			median: number;
			p99: number;
		};
		const observedMedian = latencies[199];
		const observedP99 = latencies[395];
		// Frames round latencies up by at most 1/64 s; 400 draws pin the median within a third.
		expect(observedMedian).toBeGreaterThan(median * 0.67);
		expect(observedMedian).toBeLessThan(median * 1.33 + FRAME);
		expect(observedP99).toBeGreaterThan(p99 * 0.5);
		expect(observedP99).toBeLessThan(p99 * 2);
		expect(latencies[399]).toBeGreaterThan(observedMedian * 4); // the tail
		expect(latencies[0]).toBeGreaterThanOrEqual(FRAME);
	});

	it("draws per service and method: UpdateAsync and UserService have their own distributions", () => {
		gate!.latency.use({
			"DataStore.UpdateAsync": { fixed: 0.5 },
			DataStore: { fixed: 0.25 },
			UserService: { fixed: 1 },
		});
		const store = DataStoreService.GetOrderedDataStore("Latency");
		const timed = (call: () => unknown) => {
			const started = gate!.now();
			call();
			return gate!.now() - started;
		};
		expect(timed(() => store.UpdateAsync("a", () => 1))).toBe(0.5);
		expect(timed(() => store.GetAsync("a"))).toBe(0.25);
		expect(timed(() => UserService.GetUserInfosByUserIdsAsync([1]))).toBe(1);
	});

	it("is seeded: the same seed gives the same latencies, another seed others", () => {
		const run = (seed: number) => {
			gate!.reset();
			gate!.latency.use("realistic", seed);
			unlimited();
			return concurrentReads(40);
		};
		const first = run(7);
		expect(run(7)).toEqual(first);
		expect(run(8)).never.toEqual(first);
	});

	it("one service's traffic never shifts another's draws", () => {
		const userLatencies = (withDataStoreTraffic: boolean) => {
			gate!.reset();
			gate!.latency.use("realistic", 3);
			unlimited();
			if (withDataStoreTraffic) concurrentReads(25);
			const latencies = new Array<number>();
			for (let i = 0; i < 10; i++) {
				const started = gate!.now();
				UserService.GetUserInfosByUserIdsAsync([i + 1]);
				latencies.push(gate!.now() - started);
			}
			return latencies;
		};
		expect(userLatencies(true)).toEqual(userLatencies(false));
	});

	it("requests in flight at once overlap: 50 writes of 1 s each take 1 s together", () => {
		gate!.latency.use({ DataStore: { fixed: 1 } });
		unlimited();
		const store = DataStoreService.GetOrderedDataStore("Overlap");
		const started = gate!.now();
		let done = 0;
		for (let i = 0; i < 50; i++)
			task.spawn(() => {
				store.SetAsync(`k${i}`, i);
				done += 1;
			});
		expect(gate!.latency.inFlight("DataStore")).toBe(50);
		task.wait(1);
		expect(done).toBe(50);
		expect(gate!.now() - started).toBe(1);
		expect(gate!.dataStore.snapshot("Overlap").size()).toBe(50);
		expect(gate!.latency.inFlight("DataStore")).toBe(0);
		expect(gate!.latency.peakInFlight("DataStore")).toBe(50);
	});

	it("realistic: concurrent requests finish out of order, as independent requests do", () => {
		gate!.latency.use("realistic");
		unlimited();
		const latencies = concurrentReads(20);
		expect(sorted(latencies)).never.toEqual(latencies);
	});

	it("the throttle queue is still honoured: over budget, requests queue, then travel; a full queue drops", () => {
		gate!.latency.use("realistic");
		const store = DataStoreService.GetOrderedDataStore("Throttle");
		const warnings: string[] = [];
		const connection = LogService.MessageOut.Connect((message, kind) => {
			if (kind === Enum.MessageType.MessageWarning) warnings.push(message);
		});
		const finished = new Map<string, number>();
		const started = gate!.now();
		// A budget of 30 writes, then a queue 30 deep.
		for (let i = 0; i < 60; i++)
			task.spawn(() => {
				store.SetAsync(`k${i}`, i);
				finished.set(`k${i}`, gate!.now() - started);
			});
		expect(() => store.SetAsync("dropped", 1)).toThrow(
			"302: SetAsync request dropped. Request was throttled but queue was full.",
		);
		task.wait(); // under Deferred signals the handlers run at the next resumption point
		connection.Disconnect();
		expect(gate!.dataStore.throttled()).toBe(30);
		expect(warnings.size()).toBe(30);
		expect(gate!.dataStore.budget("OrderedWrite")).toBe(0);
		task.wait(65); // 30 a minute refill: the last queued write leaves the queue after 60 s
		expect(finished.size()).toBe(60);
		expect(gate!.dataStore.snapshot("Throttle").get("dropped")).toBeUndefined();
		// The first queued write waited for a write's worth of refill (2 s) before it travelled.
		expect(finished.get("k30")).toBeGreaterThanOrEqual(2);
		expect(finished.get("k59")).toBeGreaterThanOrEqual(60);
	});

	it("faults still apply at realistic latency: failures, landed failures and hangs", () => {
		gate!.latency.use("realistic");
		const store = DataStoreService.GetOrderedDataStore("Faults");
		gate!.dataStore.fault({ method: "SetAsync", failNext: 1, message: "503: boom" });
		expect(() => store.SetAsync("a", 1)).toThrow("503: boom");
		expect(gate!.dataStore.snapshot("Faults").get("a")).toBeUndefined();
		gate!.dataStore.fault({ method: "UpdateAsync", failNext: 1, landed: true, message: "timeout" });
		expect(() => store.UpdateAsync("a", () => 9)).toThrow("timeout");
		expect(gate!.dataStore.snapshot("Faults").get("a")).toBe(9);
		gate!.dataStore.fault({ method: "RemoveAsync", hangNext: 1 });
		let returned = false;
		task.spawn(() => {
			store.RemoveAsync("a");
			returned = true;
		});
		task.wait(60);
		expect(returned).toBe(false);
		expect(gate!.dataStore.snapshot("Faults").get("a")).toBe(9);
		expect(gate!.latency.inFlight("DataStore")).toBe(1); // a hung request never comes back
		gate!.users.fault({ failNext: 1, message: "HTTP 503" });
		expect(() => UserService.GetUserInfosByUserIdsAsync([1])).toThrow("HTTP 503");
	});

	it("a seeded failure rate fails the same requests at realistic latency", () => {
		const run = () => {
			gate!.reset();
			gate!.latency.use("realistic", 5);
			gate!.dataStore.fault({ method: "GetAsync", rate: 0.5, seed: 9 });
			unlimited();
			const store = DataStoreService.GetOrderedDataStore("Faults");
			const outcomes = new Array<boolean>(30, false);
			let back = 0;
			for (let i = 0; i < 30; i++)
				task.spawn(() => {
					outcomes[i] = pcall(() => store.GetAsync(`k${i}`))[0];
					back += 1;
				});
			while (back < 30) task.wait(0.25);
			return outcomes;
		};
		const first = run();
		expect(run()).toEqual(first);
		expect(first.includes(true) && first.includes(false)).toBe(true);
	});

	it("a UserService lookup still travelling when users reset fails as abandoned", () => {
		gate!.latency.use({ UserService: { fixed: 1 } });
		gate!.users.register(1, "one");
		let problem: unknown;
		task.spawn(() => (problem = pcall(() => UserService.GetUserInfosByUserIdsAsync([1]))[1]));
		gate!.users.reset();
		task.wait(2);
		expect(problem).toBe("request abandoned: the gate reset UserService while it travelled");
	});

	it("gate.reset() goes back to one frame and forgets what was in flight", () => {
		gate!.latency.use("realistic", 4);
		expect(gate!.latency.profile().name).toBe("realistic");
		const store = DataStoreService.GetOrderedDataStore("Reset");
		task.spawn(() => pcall(() => store.SetAsync("a", 1)));
		expect(gate!.latency.inFlight("DataStore")).toBe(1);
		gate!.reset();
		expect(gate!.latency.profile()).toEqual({ name: "frame", distributions: {} });
		expect(gate!.latency.inFlight("DataStore")).toBe(0);
		expect(gate!.latency.peakInFlight("DataStore")).toBe(0);
		task.wait(5); // the abandoned request fails without touching the counts of the new universe
		expect(gate!.latency.inFlight("DataStore")).toBe(0);
		expect(gate!.dataStore.snapshot("Reset").get("a")).toBeUndefined();
	});

	it("refuses an unknown profile, a bad distribution and a fractional seed, keeping the active one", () => {
		gate!.latency.use("realistic");
		expect(() => gate!.latency.use("fast" as never)).toThrow("unknown latency profile 'fast'");
		expect(() => gate!.latency.use({ DataStore: { median: 0.1, p99: 0.05 } })).toThrow(
			"DataStore.p99 must be a number of seconds, at least the median",
		);
		expect(() => gate!.latency.use({ DataStore: { median: 0, p99: 1 } })).toThrow("DataStore.median");
		expect(() => gate!.latency.use({ DataStore: { fixed: -1 } })).toThrow("DataStore.fixed");
		expect(() => gate!.latency.use({ Datastore: { fixed: 1 } })).toThrow(
			"unknown service 'Datastore' in Datastore (DataStore, UserService, MemoryStore, Friends, Messaging, OpenCloud)",
		);
		expect(() => gate!.latency.use("frame", 1.5)).toThrow("latency seed must be a whole number");
		expect(gate!.latency.profile().name).toBe("realistic");
	});
});
