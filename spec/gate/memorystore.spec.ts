import { afterEach, beforeEach, describe, expect, it } from "@rbxts/jest-globals";
import { MemoryStoreService } from "@rbxts/services";
import { headlessGate } from "./control";
import { together } from "./together";

// Each expectation follows the Roblox creator documentation: cloud-services/memory-stores
// ("Limits and quotas", the status codes), memory-stores/sorted-map (limits, ordering),
// memory-stores/per-partition-limits, and the MemoryStoreSortedMap engine reference.

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

type Transform = (value: unknown, sortKey?: number | string) => LuaTuple<[unknown, (number | string)?]> | undefined;
const update = (map: MemoryStoreSortedMap, key: string, transform: Transform, expiration = 60) =>
	(
		map as unknown as {
			UpdateAsync: (
				self: MemoryStoreSortedMap,
				k: string,
				t: Transform,
				e: number,
			) => LuaTuple<[unknown, unknown]>;
		}
	).UpdateAsync(map, key, transform, expiration);

const keysOf = (items: { key: string }[]) => items.map((item) => item.key);

describeGate("the emulated MemoryStoreService sorted map", () => {
	beforeEach(() => gate!.reset());
	afterEach(() => gate!.reset());

	describe("items and order", () => {
		it("orders numeric sort keys, then string sort keys, then none; ties by key (the docs' example)", () => {
			const map = MemoryStoreService.GetSortedMap("Order");
			const items: [string, (number | string)?][] = [
				["player7", undefined],
				["player6", "someString"],
				["player3", 3.14],
				["player5", 1],
				["player0", undefined],
				["player4", 1],
				["player2", 0],
				["player1", -1],
			];
			for (const [key, sortKey] of items) map.SetAsync(key, key, 60, sortKey);
			const expected = ["player1", "player2", "player4", "player5", "player3", "player6", "player0", "player7"];
			expect(keysOf(map.GetRangeAsync(Enum.SortDirection.Ascending, 200))).toEqual(expected);
			expect(keysOf(map.GetRangeAsync(Enum.SortDirection.Descending, 3))).toEqual([
				"player7",
				"player0",
				"player6",
			]);
		});

		it("GetAsync returns the value and sort key; nothing for a missing key; SetAsync overwrites both", () => {
			const map = MemoryStoreService.GetSortedMap("Get");
			expect(map.SetAsync("a", { kills: 3 }, 60, 3)).toBe(true);
			const [value, sortKey] = map.GetAsync("a");
			expect(value).toEqual({ kills: 3 });
			expect(sortKey).toBe(3);
			map.SetAsync("a", "plain", 60);
			const [again, none] = map.GetAsync("a");
			expect(again).toBe("plain");
			expect(none).toBeUndefined();
			expect(map.GetAsync("missing")[0]).toBeUndefined();
		});

		it("pages with exclusive { key, sortKey } bounds, at most 200 items a call", () => {
			const map = MemoryStoreService.GetSortedMap("Pages");
			together(250, (i) => map.SetAsync(`k${i}`, i, 60, i % 50));
			const seen = new Array<string>();
			let lower: { key: string; sortKey?: number | string } | undefined;
			for (;;) {
				const items = map.GetRangeAsync(Enum.SortDirection.Ascending, 100, lower);
				for (const item of items) seen.push(item.key);
				if (items.size() < 100) break;
				lower = { key: items[99].key, sortKey: items[99].sortKey };
			}
			expect(seen.size()).toBe(250);
			expect(new Set(seen).size()).toBe(250);
			const upper = map.GetRangeAsync(Enum.SortDirection.Descending, 5, undefined, { sortKey: 1 });
			expect(upper.map((item) => item.sortKey)).toEqual([0, 0, 0, 0, 0]);
			expect(() => map.GetRangeAsync(Enum.SortDirection.Ascending, 201)).toThrow("count");
			expect(() => map.GetRangeAsync(Enum.SortDirection.Ascending, 0)).toThrow("count");
		});

		it("refuses keys and string sort keys over 128 characters, values over 32 KB, bad sort keys and expirations", () => {
			const map = MemoryStoreService.GetSortedMap("Limits");
			map.SetAsync(string.rep("k", 128), 1, 60, string.rep("s", 128));
			expect(() => map.SetAsync(string.rep("k", 129), 1, 60)).toThrow("InvalidRequest");
			expect(() => map.SetAsync("", 1, 60)).toThrow("InvalidRequest");
			expect(() => map.SetAsync("a", 1, 60, string.rep("s", 129))).toThrow("InvalidRequest");
			expect(() => map.SetAsync("a", 1, 60, true as unknown as number)).toThrow(
				"InvalidRequest: Unable to convert sortKey to a valid number or string.",
			);
			expect(() => map.SetAsync("a", string.rep("v", 33 * 1024), 60)).toThrow("ItemValueSizeTooLarge");
			expect(() => map.SetAsync("a", 1, 3_888_001)).toThrow(
				"InvalidExpirationTime: The field 'expiration' time must be between 0 and 3,888,000.",
			);
			expect(() => map.SetAsync("a", 1, -1)).toThrow("InvalidExpirationTime");
			map.SetAsync("a", 1, 3_888_000);
			expect(map.GetSizeAsync()).toBe(2);
		});

		it("items expire on the virtual clock", () => {
			const map = MemoryStoreService.GetSortedMap("Expiry");
			map.SetAsync("short", 1, 10, 1);
			map.SetAsync("long", 2, 100, 2);
			task.wait(11);
			expect(map.GetAsync("short")[0]).toBeUndefined();
			expect(keysOf(map.GetRangeAsync(Enum.SortDirection.Ascending, 10))).toEqual(["long"]);
			expect(map.GetSizeAsync()).toBe(1);
			expect(gate!.memoryStore.snapshot("Expiry").map((item) => item.key)).toEqual(["long"]);
		});

		it("is one map for every server of the universe", () => {
			const other = gate!.newServer();
			const there = other.game.GetService("MemoryStoreService").GetSortedMap("Shared");
			there.SetAsync("a", 7, 60, 7);
			expect(MemoryStoreService.GetSortedMap("Shared").GetAsync("a")[0]).toBe(7);
		});
	});

	describe("UpdateAsync", () => {
		it("passes the old value and sort key, writes what the transform returns, and nothing for nil", () => {
			const map = MemoryStoreService.GetSortedMap("Update");
			map.SetAsync("a", 5, 60, 5);
			let seen: [unknown, unknown] = [undefined, undefined];
			const [value, sortKey] = update(map, "a", (old, oldSortKey) => {
				seen = [old, oldSortKey];
				return $tuple((old as number) + 1, (oldSortKey as number) + 1);
			});
			expect(seen).toEqual([5, 5]);
			expect([value, sortKey]).toEqual([6, 6]);
			const [cancelled] = update(map, "a", () => undefined);
			expect(cancelled).toBeUndefined();
			expect(map.GetAsync("a")[0]).toBe(6);
		});

		it("refuses a transform that yields", () => {
			const map = MemoryStoreService.GetSortedMap("Update");
			expect(() =>
				update(map, "a", () => {
					task.wait(1);
					return $tuple(1, 1);
				}),
			).toThrow("TransformCallbackFailed");
		});

		it("runs the transform again when another server wrote the key while it travelled", () => {
			const map = MemoryStoreService.GetSortedMap("Conflict");
			map.SetAsync("a", 1, 60, 1);
			const other = gate!.newServer().game.GetService("MemoryStoreService").GetSortedMap("Conflict");
			const seen = new Array<number>();
			let wrote = false;
			const [value] = update(map, "a", (old) => {
				seen.push(old as number);
				if (!wrote) {
					wrote = true;
					task.spawn(() => other.SetAsync("a", 10, 60, 10));
				}
				return $tuple((old as number) + 1, (old as number) + 1);
			});
			expect(seen).toEqual([1, 10]);
			expect(value).toBe(11);
			expect(map.GetAsync("a")[0]).toBe(11);
		});
	});

	describe("quotas", () => {
		it("request units a minute are 1000 + 120 x concurrent users, counted on every server", () => {
			expect(gate!.memoryStore.quota().requestUnits).toBe(1000);
			for (let id = 1; id <= 5; id++) gate!.players.join({ UserId: id });
			const other = gate!.newServer();
			for (let id = 6; id <= 10; id++) other.join({ UserId: id });
			const quota = gate!.memoryStore.quota();
			expect(quota.users).toBe(10);
			expect(quota.requestUnits).toBe(1000 + 120 * 10);
			for (const player of other.game.GetService("Players").GetPlayers()) other.leave(player);
			expect(gate!.memoryStore.quota().requestUnits).toBe(1000 + 120 * 5);
		});

		it("over the experience quota, requests fail with TotalRequestsOverLimit and refill with time", () => {
			const map = MemoryStoreService.GetSortedMap("Quota");
			const errors = together(1001, (i) => map.SetAsync(`k${i}`, i, 60));
			expect(errors.size()).toBe(1);
			expect(errors[0]).toBe("TotalRequestsOverLimit: Exceeds universe-level request unit limit.");
			expect(gate!.memoryStore.refused("TotalRequestsOverLimit")).toBe(1);
			task.wait(6); // 1000 a minute: 100 in 6 s
			expect(together(50, (i) => map.GetAsync(`k${i}`)).size()).toBe(0);
		});

		it("a range read costs one unit per item returned, and one when empty", () => {
			const map = MemoryStoreService.GetSortedMap("Units");
			together(50, (i) => map.SetAsync(`k${i}`, i, 60, i));
			const before = gate!.memoryStore.quota().available;
			map.GetRangeAsync(Enum.SortDirection.Ascending, 200);
			const spent = before - gate!.memoryStore.quota().available;
			expect(spent).toBeGreaterThan(49);
			expect(spent).toBeLessThanOrEqual(50);
			const empty = MemoryStoreService.GetSortedMap("Empty");
			const beforeEmpty = gate!.memoryStore.quota().available;
			empty.GetRangeAsync(Enum.SortDirection.Ascending, 200);
			expect(beforeEmpty - gate!.memoryStore.quota().available).toBeGreaterThan(0.5);
		});

		// The docs' exceptions are GetRangeAsync, a queue's ReadAsync, and a hash map's
		// UpdateAsync (two units at least): a sorted map's UpdateAsync costs one, like the rest.
		it("GetAsync, SetAsync, UpdateAsync and RemoveAsync cost one unit each", () => {
			const map = MemoryStoreService.GetSortedMap("One");
			const spent = (call: () => void) => {
				const before = gate!.memoryStore.quota().available;
				call();
				return before - gate!.memoryStore.quota().available; // less a frame's refill
			};
			const costs = [
				spent(() => map.SetAsync("a", 1, 60, 1)),
				spent(() => map.GetAsync("a")),
				spent(() => update(map, "a", (value) => $tuple((value as number) + 1, 2))),
				spent(() => map.RemoveAsync("a")),
			];
			for (const cost of costs) {
				expect(cost).toBeGreaterThan(0.5);
				expect(cost).toBeLessThanOrEqual(1);
			}
		});

		it("each map's partition has its own request limit: PartitionRequestsOverLimit, other maps unaffected", () => {
			gate!.memoryStore.setPartitionLimit(100);
			const hot = MemoryStoreService.GetSortedMap("Hot");
			const errors = together(101, (i) => hot.GetAsync(`k${i}`));
			expect(errors).toEqual(["PartitionRequestsOverLimit: Exceeds partition request unit limit."]);
			expect(together(50, (i) => MemoryStoreService.GetSortedMap("Cold").GetAsync(`k${i}`)).size()).toBe(0);
			gate!.reset();
			expect(gate!.memoryStore.quota().partitionLimit).toBe(50_000);
		});

		it("memory is 64 KB + 1.2 KB x users; writes that grow it past that fail, others succeed", () => {
			const map = MemoryStoreService.GetSortedMap("Memory");
			expect(gate!.memoryStore.quota().memory).toBe(64 * 1024);
			const big = string.rep("v", 30_000);
			map.SetAsync("a", big, 60);
			map.SetAsync("b", big, 60);
			expect(() => map.SetAsync("c", big, 60)).toThrow(
				"TotalMemoryOverLimit: Exceeds universe-level memory quota.",
			);
			map.SetAsync("a", string.rep("w", 30_000), 60); // the same size: not growth
			map.RemoveAsync("b");
			map.SetAsync("c", big, 60);
			gate!.players.join({ UserId: 1 });
			expect(gate!.memoryStore.quota().memory).toBeCloseTo(64 * 1024 + 1.2 * 1024);
		});
	});

	describe("the request path", () => {
		it("requests yield before they take effect", () => {
			const map = MemoryStoreService.GetSortedMap("Yield");
			let landed = false;
			task.spawn(() => {
				map.SetAsync("a", 1, 60);
				landed = true;
			});
			expect(landed).toBe(false);
			expect(gate!.memoryStore.snapshot("Yield").size()).toBe(0);
			task.wait(0.1);
			expect(landed).toBe(true);
		});

		it("the fault plan fails, lands-then-fails, or hangs calls", () => {
			const map = MemoryStoreService.GetSortedMap("Faults");
			gate!.memoryStore.fault({ method: "SetAsync", failNext: 1 });
			expect(() => map.SetAsync("a", 1, 60)).toThrow("InternalError");
			expect(map.GetAsync("a")[0]).toBeUndefined();
			gate!.memoryStore.fault({ method: "SetAsync", failNext: 1, landed: true, message: "timed out" });
			expect(() => map.SetAsync("a", 2, 60)).toThrow("timed out");
			expect(map.GetAsync("a")[0]).toBe(2);
			gate!.memoryStore.fault({ method: "GetAsync", hangNext: 1 });
			let returned = false;
			task.spawn(() => {
				map.GetAsync("a");
				returned = true;
			});
			task.wait(100);
			expect(returned).toBe(false);
		});

		it("a request still travelling when the gate resets fails as abandoned, touching nothing new", () => {
			const map = MemoryStoreService.GetSortedMap("Reset");
			let message = "";
			task.spawn(() => {
				const [ok, err] = pcall(() => map.SetAsync("a", 1, 60));
				if (!ok) message = tostring(err);
			});
			gate!.reset();
			task.wait(0.1);
			expect(message).toMatch("abandoned");
			expect(gate!.memoryStore.snapshot("Reset").size()).toBe(0);
		});
	});
});
