import { afterEach, beforeEach, describe, expect, it } from "@rbxts/jest-globals";
import { MemoryStoreService } from "@rbxts/services";
import { headlessGate } from "./control";

// One clock (spec/gate/README.md, "One clock"): the calendar (os.time, DateTime, tick) is the
// virtual clock plus an epoch, and every date the backends keep is on it: a memory store item
// expires at the calendar time its expiration gives (MemoryStoreSortedMap and MemoryStoreHashMap
// SetAsync: "expiration: item expiration time in seconds"), Open Cloud's expireTime shows it.
// calendar.set jumps forward at will (what expires in the jump has expired) and goes back moving
// every expiry back with it, so expirations never run backwards; { strict: true } refuses to go
// back once a request has been made since the last reset.

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;
const DAY = 86_400;
const NEW_YEAR = 1_798_761_600; // 2027-01-01T00:00:00Z

describeGate("one clock: the calendar is the virtual clock plus an epoch", () => {
	beforeEach(() => gate!.reset());
	afterEach(() => gate!.reset());

	it("a calendar jump of a day expires an item of 60 s, in sorted and hash maps", () => {
		const sorted = MemoryStoreService.GetSortedMap("Clock");
		const hash = MemoryStoreService.GetHashMap("Clock");
		sorted.SetAsync("a", 1, 60);
		hash.SetAsync("a", 1, 60);
		gate!.calendar.set(os.time() + DAY);
		expect(sorted.GetAsync("a")[0]).toBeUndefined();
		expect(hash.GetAsync("a")).toBeUndefined();
		expect(gate!.memoryStore.snapshot("Clock")).toEqual([]);
	});

	it("an item lives its expiration on the calendar wherever the calendar was placed", () => {
		gate!.calendar.set(NEW_YEAR - 30);
		const map = MemoryStoreService.GetSortedMap("Clock");
		map.SetAsync("a", 1, 60);
		task.wait(59);
		expect(map.GetAsync("a")[0]).toBe(1);
		task.wait(1.1);
		expect(map.GetAsync("a")[0]).toBeUndefined();
	});

	it("Open Cloud's expireTime is the calendar time the item expires at", () => {
		gate!.calendar.set(NEW_YEAR);
		const created = gate!.openCloud.request("POST", "universes/1/memory-store/sorted-maps/Clock/items", {
			query: { id: "a" },
			body: { value: 1, ttl: "60s" },
		});
		expect((created.body as { expireTime: string }).expireTime).toBe("2027-01-01T00:01:00Z");
	});

	it("calendar.set goes back after requests, moving every expiry back with it", () => {
		// A game's spec plays an evening, then a morning (issue 47): set worked so before the strict check.
		gate!.calendar.set(NEW_YEAR + 20 * 3600);
		const sorted = MemoryStoreService.GetSortedMap("Clock");
		const hash = MemoryStoreService.GetHashMap("Clock");
		sorted.SetAsync("a", 1, 60);
		hash.SetAsync("a", 1, 60);
		task.wait(20);
		gate!.calendar.set(NEW_YEAR + 8 * 3600); // the morning of the same day: 40 s of life left
		expect(os.time()).toBe(NEW_YEAR + 8 * 3600);
		task.wait(39);
		expect(sorted.GetAsync("a")[0]).toBe(1);
		expect(hash.GetAsync("a")).toBe(1);
		task.wait(1.1);
		expect(sorted.GetAsync("a")[0]).toBeUndefined();
		expect(hash.GetAsync("a")).toBeUndefined();
	});

	it("calendar.set with strict goes back only while no request has been made since the last reset", () => {
		const start = os.time();
		gate!.calendar.set(start - DAY, { strict: true }); // nothing is dated yet
		expect(os.time()).toBe(start - DAY);
		gate!.calendar.set(start + DAY);
		MemoryStoreService.GetSortedMap("Clock").SetAsync("a", 1, 60);
		expect(() => gate!.calendar.set(os.time() - 1, { strict: true })).toThrow("cannot go back");
		expect(() => gate!.calendar.reset({ strict: true })).toThrow("requests have been made since the last reset");
		gate!.calendar.set(os.time() + DAY, { strict: true }); // forward still goes
		gate!.reset(); // a new universe: nothing dated, the default calendar again
		expect(os.time()).toBe(1_796_515_200 + math.floor(gate!.now()));
		gate!.calendar.set(os.time() - DAY, { strict: true });
	});
});
