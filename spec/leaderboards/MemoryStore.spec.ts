import { afterEach, beforeEach, describe, expect, it } from "@rbxts/jest-globals";
import { MemoryStoreService } from "@rbxts/services";
import { Topics, memoryStoreBackend } from "../../plugins/leaderboards";
import { MAX_EXPIRATION, READ_SHARE, UNITS_PER_USER } from "../../plugins/leaderboards/internal";
import { GateServer, headlessGate } from "../gate/control";
import { manualClock } from "../kernel/doubles";
import { boardsWith } from "./doubles";

// The MemoryStore backend against the behaviours the default backend meets, on
// the gate's emulated MemoryStoreService (spec/gate/memorystore.spec.ts checks
// the service itself against the Roblox documentation).

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

const sortKeys = (name: string) => gate!.memoryStore.snapshot(name).map((item) => [item.key, item.sortKey]);

function backendOf(server: GateServer, options = {}) {
	return memoryStoreBackend({
		MemoryStoreService: server.game.GetService("MemoryStoreService"),
		Players: server.game.GetService("Players"),
		...options,
	});
}

describeGate("the MemoryStore backend", () => {
	beforeEach(() => gate!.reset());
	afterEach(() => gate!.reset());

	describe("writes", () => {
		it("keeps the best on a descending board atomically: the score is the sort key", () => {
			const { boards } = boardsWith({ Backend: memoryStoreBackend() });
			boards.submit("Kills", "a", 5);
			boards._flush();
			boards.submit("Kills", "a", 3);
			boards._flush();
			expect(sortKeys("CKBoard_Kills")).toEqual([["a", 5]]);
			boards.submit("Kills", "a", 8);
			boards._flush();
			expect(sortKeys("CKBoard_Kills")).toEqual([["a", 8]]);
			expect(boards.Stats.Written).toBe(3);
		});

		it("keep-newest: a write given up on never overwrites the newer value when its request returns", () => {
			const { boards } = boardsWith({
				Backend: memoryStoreBackend(),
				Boards: { Level: { KeepBest: false } },
				RequestSeconds: 5,
			});
			gate!.latency.use({ "MemoryStore.UpdateAsync": { fixed: 30 } });
			boards.submit("Level", "a", 10);
			expect(boards._flush().Failed).toBe(1);
			boards.submit("Level", "a", 3);
			task.wait(6); // held RequestSeconds more, then given up on
			gate!.latency.use("frame");
			expect(boards._flush().Written).toBe(1);
			expect(sortKeys("CKBoard_Level")).toEqual([["a", 3]]);
			task.wait(30); // the first request returns: its transform runs, and writes nothing
			expect(sortKeys("CKBoard_Level")).toEqual([["a", 3]]);
		});

		it("keeps the smaller on an ascending board, and the newest with KeepBest = false", () => {
			const { boards } = boardsWith({
				Backend: memoryStoreBackend(),
				Boards: { BestTime: { Ascending: true }, Latest: { KeepBest: false } },
			});
			boards.submit("BestTime", "a", 42.5);
			boards.submit("Latest", "a", 10);
			boards._flush();
			boards.submit("BestTime", "a", 50);
			boards.submit("Latest", "a", 2);
			boards._flush();
			expect(sortKeys("CKBoard_BestTime")).toEqual([["a", 42.5]]);
			expect(sortKeys("CKBoard_Latest")).toEqual([["a", 2]]);
		});

		it("several servers on one map: keep-best holds across them, and they read the same board", () => {
			const servers = [gate!.newServer(), gate!.newServer(), gate!.newServer()];
			const boardsOn = servers.map((server) => boardsWith({ Backend: backendOf(server) }).boards);
			boardsOn[0].submit("Kills", "a", 10);
			boardsOn[1].submit("Kills", "a", 7);
			boardsOn[2].submit("Kills", "b", 3);
			let done = 0;
			for (const boards of boardsOn)
				task.spawn(() => {
					boards._flush();
					done += 1;
				});
			while (done < 3) task.wait();
			boardsOn[1].submit("Kills", "a", 9);
			boardsOn[1]._flush();
			expect(sortKeys("CKBoard_Kills")).toEqual([
				["b", 3],
				["a", 10],
			]);
			for (const boards of boardsOn)
				expect(boards.top("Kills").map((entry) => [entry.Key, entry.Value, entry.Rank])).toEqual([
					["a", 10, 1],
					["b", 3, 2],
				]);
		});

		it("a Sum board adds across servers (the transform runs again on a conflict); remove() deletes", () => {
			const servers = [gate!.newServer(), gate!.newServer()];
			const boardsOn = servers.map(
				(server) => boardsWith({ Backend: backendOf(server), Boards: { Total: { Sum: true } } }).boards,
			);
			boardsOn[0].submit("Total", "a", 3);
			boardsOn[1].submit("Total", "a", 4);
			let done = 0;
			for (const boards of boardsOn)
				task.spawn(() => {
					boards._flush();
					done += 1;
				});
			while (done < 2) task.wait();
			expect(sortKeys("CKBoard_Total")).toEqual([["a", 7]]);
			expect(boardsOn[0].remove("Total", "a")).toBe(true);
			boardsOn[0]._flush();
			expect(sortKeys("CKBoard_Total")).toEqual([]);
		});

		it("refuses keys over 128 characters and takes fractions (the store's own rules)", () => {
			const { boards } = boardsWith({ Backend: memoryStoreBackend() });
			expect(boards.submit("Kills", string.rep("k", 129), 1)).toBe(false);
			expect(boards.submit("Kills", string.rep("k", 128), 1.5)).toBe(true);
		});

		it("a failed write is retried in a later window and nothing is lost", () => {
			const { boards } = boardsWith({ Backend: memoryStoreBackend() });
			gate!.memoryStore.fault({ method: "UpdateAsync", failNext: 1 });
			boards.submit("Kills", "a", 4);
			expect(boards._flush().Failed).toBe(1);
			expect(sortKeys("CKBoard_Kills")).toEqual([]);
			expect(boards._flush().Written).toBe(1);
			expect(sortKeys("CKBoard_Kills")).toEqual([["a", 4]]);
		});

		it("items live for the Expiration option (default the documented maximum, 45 days)", () => {
			expect(MAX_EXPIRATION).toBe(3_888_000);
			const { boards } = boardsWith({ Backend: memoryStoreBackend({ Expiration: 60 }) });
			boards.submit("Kills", "a", 1);
			boards._flush();
			task.wait(61);
			expect(sortKeys("CKBoard_Kills")).toEqual([]);
			expect(() => memoryStoreBackend({ Expiration: MAX_EXPIRATION + 1 })).toThrow("Expiration");
			expect(() => memoryStoreBackend({ Shards: 0 })).toThrow("Shards");
			expect(() => memoryStoreBackend({ Shards: 1.5 })).toThrow("Shards");
			expect(() => memoryStoreBackend({ Expiration: 0 })).toThrow("Expiration");
			expect(() => memoryStoreBackend({ MapPrefix: 5 as unknown as string })).toThrow("MapPrefix");
		});

		it("destroy() drains what is queued into the map", () => {
			const { boards } = boardsWith({ Backend: memoryStoreBackend() });
			for (let i = 1; i <= 40; i++) boards.submit("Kills", `p${i}`, i);
			const [complete, result] = boards.destroy();
			expect(complete).toBe(true);
			expect(result.Remaining).toBe(0);
			expect(gate!.memoryStore.snapshot("CKBoard_Kills").size()).toBe(40);
		});
	});

	describe("reads", () => {
		it("sorted pages past one call's 200 items up to MaxEntries, in board order both ways", () => {
			const map = MemoryStoreService.GetSortedMap("CKBoard_Kills");
			for (let i = 1; i <= 300; i++) task.spawn(() => map.SetAsync(`p${i}`, i, 60, i));
			task.wait();
			const { boards } = boardsWith({ Backend: memoryStoreBackend(), Boards: { Kills: { MaxEntries: 250 } } });
			const top = boards.top("Kills");
			expect(top.size()).toBe(250);
			expect([top[0].Key, top[0].Value, top[249].Value]).toEqual(["p300", 300, 51]);
			const backend = memoryStoreBackend();
			const low = backend.sorted("Kills", true, 3)!;
			expect(low.map((row) => row.Value)).toEqual([1, 2, 3]);
			expect(gate!.memoryStore.calls("GetRangeAsync")).toBeGreaterThanOrEqual(3);
		});

		it("scores reads the chosen keys, leaving out missing ones; nil when a read fails", () => {
			const { boards } = boardsWith({ Backend: memoryStoreBackend({ Shards: 3 }) });
			for (const [key, value] of [
				["a", 1],
				["b", 2],
				["c", 3],
			] as const)
				boards.submit("Kills", key, value);
			boards._flush();
			const scores = boards.scores("Kills", ["a", "c", "missing"])!;
			expect([scores.get("a"), scores.get("c"), scores.has("missing")]).toEqual([1, 3, false]);
			gate!.memoryStore.fault({ method: "GetAsync", failNext: 1 });
			expect(boards.scores("Kills", ["a", "b"])).toBeUndefined();
		});

		it("a failed range read fails the whole page", () => {
			const backend = memoryStoreBackend();
			gate!.memoryStore.fault({ method: "GetRangeAsync", failNext: 1 });
			expect(backend.sorted("Kills", false, 10)).toBeUndefined();
			expect(backend.sorted("Kills", false, 10)).toEqual([]);
		});
	});

	describe("around", () => {
		// The docs' order (sorted-map page): by sort key, ties by key; a range bound is exclusive.
		it("ranks ties as top() does, on 3 shards both ways: none skipped or repeated", () => {
			for (let id = 1; id <= 30; id++) gate!.players.join({ UserId: id }); // reads for 14 calls at once
			const writer = boardsWith({
				Backend: memoryStoreBackend({ Shards: 3 }),
				WritesPerFlush: 1000,
				Boards: { Kills: {}, BestTime: { Ascending: true } },
			}).boards;
			for (let i = 1; i <= 9; i++) {
				writer.submit("Kills", `t${i}`, 50);
				writer.submit("BestTime", `t${i}`, 50);
			}
			for (let i = 1; i <= 20; i++) {
				writer.submit("Kills", `d${i}`, i * 10 + 1);
				writer.submit("BestTime", `d${i}`, i * 10 + 1);
			}
			writer._flush();
			const reader = boardsWith({
				Backend: memoryStoreBackend({ Shards: 3 }),
				Boards: { Kills: { MaxEntries: 3 }, BestTime: { Ascending: true, MaxEntries: 3 } },
			}).boards;
			for (const board of ["Kills", "BestTime"]) {
				reader.top(board);
				const order = writer.top(board).map((entry) => `${entry.Key}=${entry.Value}`);
				for (const subject of ["t1", "t2", "t5", "t8", "t9", "d4", "d5"]) {
					const at = order.findIndex(
						(row) =>
							row === `${subject}=${subject.sub(1, 1) === "t" ? 50 : tonumber(subject.sub(2))! * 10 + 1}`,
					);
					const expected = order.filter((_, i) => i >= at - 3 && i <= at + 3);
					const ranges = gate!.memoryStore.calls("GetRangeAsync");
					const rows = reader.around(board, subject, 3)!.map((row) => `${row.Key}=${row.Value}`);
					expect([board, subject, rows]).toEqual([board, subject, expected]);
					expect(gate!.memoryStore.calls("GetRangeAsync") - ranges).toBe(2 * 3);
				}
			}
		});
	});

	describe("shards", () => {
		it("spreads a board over N maps by a stable key hash and merges their heads into one ranked page", () => {
			for (let id = 1; id <= 3; id++) gate!.players.join({ UserId: id }); // 270 writes now: the 240 below in one window
			const { boards } = boardsWith({
				Backend: memoryStoreBackend({ Shards: 4 }),
				WritesPerFlush: 1000,
				Boards: { Kills: {}, BestTime: { Ascending: true } },
			});
			for (let i = 1; i <= 120; i++) {
				boards.submit("Kills", `p${i}`, (i * 37) % 101);
				boards.submit("BestTime", `p${i}`, 1000 + ((i * 53) % 97));
			}
			boards._flush();
			const sizes = [1, 2, 3, 4].map((i) => gate!.memoryStore.snapshot(`CKBoard_Kills.${i}/4`).size());
			for (const size of sizes) expect(size).toBeGreaterThan(10);
			expect(sizes.reduce((a, b) => a + b, 0)).toBe(120);
			// Another server with the same option finds every key on the same shard.
			const other = backendOf(gate!.newServer(), { Shards: 4 });
			expect(other.scores!("Kills", ["p1", "p77"])!.get("p77")).toBe((77 * 37) % 101);

			const expected = (ascending: boolean, board: string) => {
				const rows = new Array<[string, number]>();
				for (let i = 1; i <= 4; i++)
					for (const item of gate!.memoryStore.snapshot(`CKBoard_${board}.${i}/4`))
						rows.push([item.key, item.sortKey as number]);
				// The engine's order: by sort key, ties by key; descending reverses both.
				rows.sort((a, b) => {
					if (a[1] !== b[1]) return ascending ? a[1] < b[1] : a[1] > b[1];
					return ascending ? a[0] < b[0] : a[0] > b[0];
				});
				return rows.filter((_, index) => index < 100);
			};
			expect(boards.top("Kills").map((entry) => [entry.Key, entry.Value])).toEqual(expected(false, "Kills"));
			expect(boards.top("BestTime").map((entry) => [entry.Key, entry.Value])).toEqual(expected(true, "BestTime"));
		});
	});

	describe("budget", () => {
		it("is this server's share of the quota: 120 units a minute per player in it, one player's worth at least", () => {
			// Writes hold half the share and take the read half's upper half: 60 + 30 of 120.
			expect(memoryStoreBackend().budget!()).toBe(90);
			expect(memoryStoreBackend().readBudget!()).toBe(60);
			for (let id = 1; id <= 3; id++) gate!.players.join({ UserId: id });
			const { boards } = boardsWith({ Backend: memoryStoreBackend(), WritesPerFlush: 1000 });
			for (let i = 1; i <= 500; i++) boards.submit("Kills", `p${i}`, i);
			const window = boards._flush();
			expect(window.Budget).toBe(270);
			expect(window.Written).toBe(270);
			// The window's 270 writes took a frame each: about 4 s of refill at 360 a minute.
			expect(boards._flush().Budget).toBeLessThan(45);
			task.wait(30); // half a minute refills half of each bucket: 90 + 90 above the read half's half
			expect(boards._flush().Budget).toBeGreaterThanOrEqual(179);
		});

		it("refills by the attach's Clock option (the BackendCall every call gets), not os.clock", () => {
			const time = manualClock(1000);
			const { boards } = boardsWith({ Backend: memoryStoreBackend(), WritesPerFlush: 1000, Clock: time.clock });
			for (let i = 1; i <= 200; i++) boards.submit("Kills", `p${i}`, i);
			expect(boards._flush().Written).toBe(90);
			// A minute of engine time is no refill while the Clock stands still...
			task.wait(60);
			expect(boards._flush().Budget).toBe(0);
			// ...and half a minute on the Clock refills half of each bucket: 30 + 30 above the read half's half.
			time.advance(30);
			expect(boards._flush().Budget).toBe(60);
		});

		it("counts only the shards open now: one over its partition's limit is paused", () => {
			const backend = memoryStoreBackend({ Shards: 2 });
			for (let id = 1; id <= 10; id++) gate!.players.join({ UserId: id });
			gate!.memoryStore.setPartitionLimit(5);
			const full = backend.budget!()!;
			expect(full).toBe(900);
			// Keys until one lands on a shard whose partition is spent.
			let refusedKey: string | undefined;
			for (let i = 1; i <= 20 && refusedKey === undefined; i++) {
				const [ok] = pcall(() => backend.submit!("Kills", `p${i}`, i, true, false));
				if (!ok) refusedKey = `p${i}`;
			}
			expect(refusedKey).toBeDefined();
			expect(gate!.memoryStore.refused("PartitionRequestsOverLimit")).toBe(1);
			expect(backend.budget!()).toBeLessThanOrEqual(full / 2);
			// A write to the paused shard fails without a request; the value stays queued in the plugin.
			const calls = gate!.memoryStore.calls("UpdateAsync");
			expect(backend.submit!("Kills", refusedKey!, 100, true, false)).toBe(false);
			expect(gate!.memoryStore.calls("UpdateAsync")).toBe(calls);
			task.wait(61); // the pause (1 s) is over and the partition refilled
			expect(backend.budget!()).toBe(full);
			expect(backend.submit!("Kills", refusedKey!, 100, true, false)).toBe(true);
		});

		// A write load past the share, and top() of 200 rows (200 units) asked every 10 s, for
		// `minutes` on a server of `count` players: what the writes and the page got.
		const balance = (count: number, minutes: number) => {
			for (let id = 1; id <= count; id++) gate!.players.join({ UserId: id });
			const map = MemoryStoreService.GetSortedMap("CKBoard_Kills");
			for (let i = 1; i <= 300; i++) task.spawn(() => map.SetAsync(`s${i}`, i, 600, i));
			task.wait(1);
			const { boards, kernel } = boardsWith({
				Backend: memoryStoreBackend(),
				WritesPerFlush: 10_000,
				WritesInFlight: 64,
				Boards: { Kills: { MaxEntries: 200, CacheSeconds: 10 } },
				// The backend's own balance of reads and writes on one server: no shared page beside it.
				SharePages: false,
			});
			let pages = 0;
			kernel.Bus.subscribe(Topics.Updated, () => (pages += 1));
			const share = UNITS_PER_USER * count;
			let written = 0;
			for (let second = 1; second <= minutes * 60; second++) {
				for (let i = 1; i <= share / 30; i++) boards.submit("Kills", `w${i}`, 1000 + second);
				written += boards._flush().Written;
				expect(boards.top("Kills").size()).toBe(200);
				task.wait(1);
			}
			return { written, pages, share };
		};

		// MemoryStore docs ("API request limits"): 1000 + 120 x concurrent users a minute,
		// GetRangeAsync costing a unit per item returned.
		it("on a one-player server a top page dearer than the read bucket is still read, and writes keep their half", () => {
			const { written, pages, share } = balance(1, 4);
			// 60 units a minute for reads: a 200-row page every 200 s or so (and the first at once).
			expect(pages).toBeGreaterThanOrEqual(2);
			expect(written).toBeGreaterThanOrEqual((1 - READ_SHARE) * share * 4);
		}, 300_000);

		it("on a two-player server the page is read about every 100 s, and writes keep their half", () => {
			const { written, pages, share } = balance(2, 4);
			expect(pages).toBeGreaterThanOrEqual(3);
			expect(written).toBeGreaterThanOrEqual((1 - READ_SHARE) * share * 4);
		}, 300_000);

		it("on a thirty-player server every 10 s page is read and writes take what the reads leave", () => {
			const { written, pages, share } = balance(30, 2);
			expect(pages).toBe(12);
			// 3,600 a minute less the pages' 1,200: at least 90% of 2,400 a minute.
			expect(written).toBeGreaterThanOrEqual(0.9 * (share - 1200) * 2);
		}, 300_000);

		it("scores() spends the read bucket only, bounded by readBudget()", () => {
			const backend = memoryStoreBackend();
			const { boards } = boardsWith({ Backend: backend });
			const keys = new Array<string>();
			for (let i = 1; i <= 61; i++) keys.push(`p${i}`);
			expect(backend.readBudget!()).toBe(60);
			expect(boards.scores("Kills", keys)).toBeUndefined(); // refused: nothing read
			expect(gate!.memoryStore.calls("GetAsync")).toBe(0);
			keys.pop();
			expect(boards.scores("Kills", keys)!.size()).toBe(0);
			expect(gate!.memoryStore.calls("GetAsync")).toBe(60);
			expect(backend.readBudget!()).toBe(0);
			expect(backend.budget!()).toBe(60); // the writes' half, untouched
		});

		it("a write over the experience quota fails, empties the budget, and is retried later", () => {
			const { boards } = boardsWith({ Backend: memoryStoreBackend() });
			const map = MemoryStoreService.GetSortedMap("Other");
			for (let i = 1; i <= 1000; i++) task.spawn(() => pcall(() => map.SetAsync(`k${i}`, i, 60)));
			boards.submit("Kills", "a", 1);
			expect(boards._flush().Failed).toBe(1);
			expect(gate!.memoryStore.refused("TotalRequestsOverLimit")).toBe(1);
			expect(boards._flush().Budget).toBe(0);
			task.wait(10);
			expect(boards._flush().Written).toBe(1);
			expect(sortKeys("CKBoard_Kills")).toEqual([["a", 1]]);
		});
	});
});
