import { afterEach, beforeEach, describe, expect, it } from "@rbxts/jest-globals";
import { MemoryStoreService } from "@rbxts/services";
import { headlessGate } from "./control";
import { together } from "./together";

// Each expectation follows the Roblox creator documentation: cloud-services/memory-stores/hash-map
// (keys 128 characters, values 32 KB, expiration up to 3,888,000 s, UpdateAsync retried on
// contention), cloud-services/memory-stores ("API request limits": 1000 + 120 x users units a
// minute, a hash map's UpdateAsync "a minimum of two units", ListItemsAsync "[number of partitions
// scanned] + [items returned]"; memory 64 KB + 1.2 KB x users; the status codes), the
// per-partition-limits page (a hash map spreads over several partitions) and the
// MemoryStoreHashMap reference (ListItemsAsync count 1..200, UpdateAsync returns the transform's
// last value, nil cancels).

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

type Transform = (value: unknown) => unknown;
const update = (map: MemoryStoreHashMap, key: string, transform: Transform, expiration = 60) =>
	(
		map as unknown as {
			UpdateAsync: (self: MemoryStoreHashMap, k: string, t: Transform, e: number) => unknown;
		}
	).UpdateAsync(map, key, transform, expiration);

interface Entry {
	key: string;
	value: unknown;
}
const pageOf = (pages: MemoryStoreHashMapPages) => pages.GetCurrentPage() as unknown as Entry[];

// Units a call spent from the experience quota (less the frame's refill, under one unit).
function unitsOf(call: () => void): number {
	const before = gate!.memoryStore.quota().available;
	call();
	return before - gate!.memoryStore.quota().available;
}

describeGate("the emulated MemoryStoreService hash map", () => {
	beforeEach(() => gate!.reset());
	afterEach(() => gate!.reset());

	describe("items", () => {
		it("SetAsync, GetAsync and RemoveAsync; values are copies; every server sees the same map", () => {
			const map = MemoryStoreService.GetHashMap("Items");
			const value = { kills: 3 };
			expect(map.SetAsync("a", value, 60)).toBe(true);
			value.kills = 4;
			expect(map.GetAsync("a")).toEqual({ kills: 3 });
			expect(map.GetAsync("missing")).toBeUndefined();
			const other = gate!.newServer().game.GetService("MemoryStoreService").GetHashMap("Items");
			expect(other.GetAsync("a")).toEqual({ kills: 3 });
			other.RemoveAsync("a");
			expect(map.GetAsync("a")).toBeUndefined();
			// A sorted map of the same name is another data structure.
			MemoryStoreService.GetSortedMap("Items").SetAsync("a", 1, 60);
			expect(map.GetAsync("a")).toBeUndefined();
		});

		it("an item expires on the virtual clock; expiration is 0..3,888,000 s (45 days)", () => {
			const map = MemoryStoreService.GetHashMap("Expiry");
			map.SetAsync("a", 1, 10);
			task.wait(9);
			expect(map.GetAsync("a")).toBe(1);
			task.wait(2);
			expect(map.GetAsync("a")).toBeUndefined();
			expect(() => map.SetAsync("b", 1, 3_888_001)).toThrow(
				"InvalidExpirationTime: The field 'expiration' time must be between 0 and 3,888,000.",
			);
			expect(map.SetAsync("b", 1, 3_888_000)).toBe(true);
		});

		it("keys are 1..128 characters and values 32 KB (ItemValueSizeTooLarge)", () => {
			const map = MemoryStoreService.GetHashMap("Limits");
			expect(() => map.SetAsync(string.rep("k", 129), 1, 60)).toThrow("128 character limit");
			expect(() => map.SetAsync("", 1, 60)).toThrow("InvalidRequest: The key can't be empty.");
			expect(() => map.SetAsync("big", string.rep("v", 33 * 1024), 60)).toThrow(
				"ItemValueSizeTooLarge: Value size exceeds limit (32KB).",
			);
		});
	});

	describe("UpdateAsync", () => {
		it("returns the transform's value; nil cancels and keeps the item", () => {
			const map = MemoryStoreService.GetHashMap("Update");
			expect(update(map, "n", (old) => ((old as number | undefined) ?? 0) + 1)).toBe(1);
			expect(update(map, "n", () => undefined)).toBeUndefined();
			expect(map.GetAsync("n")).toBe(1);
		});

		it("is atomic per key: 5 concurrent increments all land, the transform rerunning on the newer value", () => {
			gate!.latency.use({ MemoryStore: { median: 0.05, p99: 0.4 } }, 7);
			const map = MemoryStoreService.GetHashMap("Counter");
			let runs = 0;
			// All read the key in the same frame: each landing makes the others run again.
			const errors = together(5, () =>
				update(map, "count", (old) => {
					runs += 1;
					return ((old as number | undefined) ?? 0) + 1;
				}),
			);
			expect(errors).toEqual([]);
			expect(map.GetAsync("count")).toBe(5);
			expect(runs).toBeGreaterThanOrEqual(5 + 4);
		});

		it("gives up with UpdateConflict when every attempt finds the key rewritten", () => {
			gate!.latency.use({ "MemoryStore.UpdateAsync": { fixed: 1 } });
			const map = MemoryStoreService.GetHashMap("Contended");
			let writing = true;
			task.spawn(() => {
				for (let i = 0; writing; i++) map.SetAsync("k", i, 60);
			});
			expect(() => update(map, "k", (old) => old)).toThrow("UpdateConflict: Exceeded max number of retries.");
			writing = false;
		});

		it("costs two units (the docs' minimum), where GetAsync, SetAsync and RemoveAsync cost one", () => {
			const map = MemoryStoreService.GetHashMap("Costs");
			const one = [
				unitsOf(() => map.SetAsync("a", 1, 60)),
				unitsOf(() => map.GetAsync("a")),
				unitsOf(() => map.RemoveAsync("a")),
			];
			for (const cost of one) expect(cost).toBeCloseTo(1, 0);
			expect(unitsOf(() => update(map, "a", () => 2))).toBeCloseTo(2, 0);
		});
	});

	describe("ListItemsAsync", () => {
		it("pages through every live item once; count is 1..200; past the last page it errors", () => {
			const map = MemoryStoreService.GetHashMap("List");
			together(45, (i) => map.SetAsync(`k${i}`, i, 60));
			expect(() => map.ListItemsAsync(0)).toThrow("count must be an integer from 1 to 200");
			expect(() => map.ListItemsAsync(201)).toThrow("count must be an integer from 1 to 200");
			const pages = map.ListItemsAsync(10);
			const seen = new Map<string, unknown>();
			for (;;) {
				const page = pageOf(pages);
				expect(page.size() <= 10).toBe(true);
				for (const entry of page) {
					expect(seen.has(entry.key)).toBe(false);
					seen.set(entry.key, entry.value);
				}
				if (pages.IsFinished) break;
				pages.AdvanceToNextPageAsync();
			}
			expect(seen.size()).toBe(45);
			expect(seen.get("k7")).toBe(7);
			expect(() => pages.AdvanceToNextPageAsync()).toThrow("No pages to advance to");
		});

		it("costs the partitions scanned plus the items returned", () => {
			const partitions = gate!.memoryStore.quota().hashPartitions;
			const empty = MemoryStoreService.GetHashMap("EmptyList");
			expect(unitsOf(() => empty.ListItemsAsync(200))).toBeCloseTo(partitions, 0);
			const full = MemoryStoreService.GetHashMap("FullList");
			together(30, (i) => full.SetAsync(`k${i}`, i, 60));
			expect(unitsOf(() => full.ListItemsAsync(200))).toBeCloseTo(partitions + 30, 0);
		});
	});

	describe("quotas", () => {
		it("shares the experience's request units with sorted maps: TotalRequestsOverLimit", () => {
			const sorted = MemoryStoreService.GetSortedMap("Spender");
			expect(together(1000, (i) => sorted.GetAsync(`k${i}`)).size()).toBe(0);
			expect(() => MemoryStoreService.GetHashMap("Starved").GetAsync("a")).toThrow(
				"TotalRequestsOverLimit: Exceeds universe-level request unit limit.",
			);
		});

		it("each data structure has 100,000 units a minute of its own: DataStructureRequestsOverLimit", () => {
			expect(gate!.memoryStore.quota().structureLimit).toBe(100_000);
			gate!.memoryStore.setStructureLimit(50);
			const hot = MemoryStoreService.GetHashMap("Hot");
			expect(together(51, (i) => hot.GetAsync(`k${i}`))).toEqual([
				"DataStructureRequestsOverLimit: Exceeds data structure level request unit limit (100,000 request units per minute).",
			]);
			expect(gate!.memoryStore.refused("DataStructureRequestsOverLimit")).toBe(1);
			expect(together(50, (i) => MemoryStoreService.GetHashMap("Cold").GetAsync(`k${i}`)).size()).toBe(0);
			// per-partition-limits: per-structure limits were removed; a spec may run without one.
			gate!.memoryStore.setStructureLimit(math.huge);
			expect(together(60, (i) => hot.GetAsync(`k${i}`))).toEqual([]);
		});

		it("spreads keys over partitions: one key meets PartitionRequestsOverLimit, many keys go further", () => {
			gate!.memoryStore.setPartitionLimit(10);
			const map = MemoryStoreService.GetHashMap("Spread");
			expect(together(11, () => map.GetAsync("same"))).toEqual([
				"PartitionRequestsOverLimit: Exceeds partition request unit limit.",
			]);
			gate!.reset();
			gate!.memoryStore.setPartitionLimit(10);
			const refused = together(40, (i) => map.GetAsync(`key${i}`)).size();
			expect(40 - refused).toBeGreaterThan(10); // one sorted map, on one partition, would serve 10
			const sorted = MemoryStoreService.GetSortedMap("OnePartition");
			expect(together(40, (i) => sorted.GetAsync(`key${i}`)).size()).toBe(30);
		});

		it("counts toward the experience's memory, 64 KB + 1.2 KB x users: TotalMemoryOverLimit", () => {
			const map = MemoryStoreService.GetHashMap("Memory");
			const big = string.rep("v", 30_000);
			map.SetAsync("a", big, 60);
			MemoryStoreService.GetSortedMap("Memory").SetAsync("b", big, 60);
			expect(() => map.SetAsync("c", big, 60)).toThrow(
				"TotalMemoryOverLimit: Exceeds universe-level memory quota.",
			);
			map.RemoveAsync("a");
			expect(map.SetAsync("c", big, 60)).toBe(true);
			expect(gate!.memoryStore.hashSnapshot("Memory").get("c")).toBe(big);
		});
	});

	describe("hashSnapshot", () => {
		it("gives each live item, or with a field each table item's field alone", () => {
			const map = MemoryStoreService.GetHashMap("Snapshot");
			map.SetAsync("page", { at: 12, rows: [1, 2, 3] }, 60);
			map.SetAsync("plain", "text", 60);
			map.SetAsync("other", { rows: [] }, 60);
			map.SetAsync("gone", { at: 1 }, 1);
			task.wait(2);
			const whole = gate!.memoryStore.hashSnapshot("Snapshot");
			expect(whole.get("page")).toEqual({ at: 12, rows: [1, 2, 3] });
			expect(whole.get("plain")).toBe("text");
			expect(whole.has("gone")).toBe(false);
			const at = gate!.memoryStore.hashSnapshot("Snapshot", "at");
			expect(at.get("page")).toBe(12);
			expect(at.has("plain")).toBe(false);
			expect(at.has("other")).toBe(false);
			expect(at.has("gone")).toBe(false);
		});
	});
});
