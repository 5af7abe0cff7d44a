import { afterEach, describe, expect, it } from "@rbxts/jest-globals";
import { DataStoreService, Players } from "@rbxts/services";
import { Kernel } from "../../kernel";
import { PlayerLookup, Standing, Topics, attach, memoryStoreBackend } from "../../plugins/leaderboards";
import { AROUND_COST, AROUND_RESERVE } from "../../plugins/leaderboards/internal";
import { headlessGate } from "../gate/control";
import { captureLogs, manualClock } from "../kernel/doubles";
import { MemoryBackend, boardsWith } from "./doubles";

// p1..pN on Kills, pI holding I: p N ranks first.
function seeded(count: number) {
	const backend = new MemoryBackend();
	for (let i = 1; i <= count; i++) backend.storeOf("Kills").set(`p${i}`, i);
	return backend;
}

const gate = headlessGate();

const keysOf = (rows: ReadonlyArray<Standing>) => rows.map((row) => row.Key);

// Players with friends: GetFriendsAsync pages of `perPage`, counting requests; players join no server.
function friendsDouble(friendsOf: Map<number, number[]>, perPage = 2) {
	const calls = { requests: 0, fail: 0 };
	const players = {
		GetPlayerByUserId: () => undefined,
		GetFriendsAsync(userId: number) {
			calls.requests += 1;
			if (calls.fail > 0) {
				calls.fail -= 1;
				error("HTTP 500 (Internal Server Error)");
			}
			const ids = friendsOf.get(userId) ?? [];
			let start = 0;
			const pages = {
				IsFinished: ids.size() <= perPage,
				GetCurrentPage: () => {
					const page = new Array<{ Id: number }>();
					for (let i = start; i < math.min(ids.size(), start + perPage); i++) page.push({ Id: ids[i] });
					return page;
				},
				AdvanceToNextPageAsync: () => {
					calls.requests += 1;
					start += perPage;
					pages.IsFinished = start + perPage >= ids.size();
				},
			};
			return pages as unknown as FriendPages;
		},
	};
	return { players: players as PlayerLookup, calls };
}

describe("rank()", () => {
	it("within the loaded top page: the rank and value, with no read past the page", () => {
		const { boards, backend } = boardsWith({ backend: seeded(5), Boards: { Kills: { MaxEntries: 3 } } });
		expect(boards.rank("Kills", "p4")).toEqual({ Key: "p4", Value: 4, Rank: 2 });
		expect(backend.sortedCalls).toBe(1);
		expect(backend.scoresCalls).toBe(0);
	});

	it("past the page: the stored value and no rank (one scores() read); nothing stored: no value", () => {
		const { boards, backend } = boardsWith({ backend: seeded(5), Boards: { Kills: { MaxEntries: 3 } } });
		expect(boards.rank("Kills", "p1")).toEqual({ Key: "p1", Value: 1 });
		expect(boards.rank("Kills", "ghost")).toEqual({ Key: "ghost" });
		expect(backend.scoresCalls).toBe(2);
	});

	it("a subject resolves to its storage key as submit() resolves it", () => {
		const backend = new MemoryBackend();
		backend.storeOf("Kills").set("42", 7);
		const { boards } = boardsWith({ backend });
		expect(boards.rank("Kills", 42)).toEqual({ Key: "42", Value: 7, Rank: 1 });
	});

	it("caches each subject's value for CacheSeconds, by the Clock option", () => {
		const time = manualClock(10);
		const { boards, backend } = boardsWith({
			backend: seeded(5),
			Clock: time.clock,
			Boards: { Kills: { MaxEntries: 2, CacheSeconds: 30 } },
		});
		boards.rank("Kills", "p1");
		time.advance(29);
		boards.rank("Kills", "p1");
		expect(backend.scoresCalls).toBe(1);
		boards.rank("Kills", "p2");
		expect(backend.scoresCalls).toBe(2);
		time.advance(1);
		boards.rank("Kills", "p1");
		expect(backend.scoresCalls).toBe(3);
	});

	it("concurrent callers for one subject share one read", () => {
		const backend = seeded(5);
		const { boards } = boardsWith({ backend, Boards: { Kills: { MaxEntries: 2 } } });
		boards.top("Kills");
		backend.lookupSeconds = 1;
		const answers = new Array<number>();
		for (let i = 0; i < 20; i++) task.spawn(() => answers.push(boards.rank("Kills", "p1")?.Value ?? -1));
		task.wait(2);
		expect(answers.size()).toBe(20);
		expect(answers.every((value) => value === 1)).toBe(true);
		expect(backend.scoresCalls).toBe(1);
	});

	it("a failed read is nil, never an error, and is not cached", () => {
		const backend = seeded(5);
		const { boards } = boardsWith({ backend, Boards: { Kills: { MaxEntries: 2 } } });
		backend.failScores = true;
		expect(boards.rank("Kills", "p1")).toBeUndefined();
		backend.failScores = false;
		expect(boards.rank("Kills", "p1")).toEqual({ Key: "p1", Value: 1 });
	});

	it("a backend scores() that raises: nil, never an error, and the next call reads again", () => {
		const backend = seeded(5);
		const own = backend.asSetBackend();
		let raise = true;
		own.scores = (store, keys) => {
			if (raise) error("store exploded");
			return backend.asSetBackend().scores!(store, keys);
		};
		const { boards } = boardsWith({ Backend: own, Boards: { Kills: { MaxEntries: 2 } } });
		expect(boards.rank("Kills", "p1")).toBeUndefined();
		raise = false;
		expect(boards.rank("Kills", "p1")).toEqual({ Key: "p1", Value: 1 });
	});

	it("a page read that throws still answers with the stored value", () => {
		const backend = seeded(5);
		backend.throwReads = "store offline";
		const { boards } = boardsWith({ backend });
		expect(boards.rank("Kills", "p5")).toEqual({ Key: "p5", Value: 5 });
	});

	it("a read that never returns is nil after RequestSeconds", () => {
		const backend = seeded(5);
		const { boards } = boardsWith({ backend, RequestSeconds: 2, Boards: { Kills: { MaxEntries: 2 } } });
		boards.top("Kills");
		backend.lookupSeconds = 1000;
		let answer: unknown = "waiting";
		task.spawn(() => (answer = boards.rank("Kills", "p1")));
		task.wait(1);
		expect(answer).toBe("waiting");
		task.wait(1.5);
		expect(answer).toBeUndefined();
	});

	it("an unknown board is nil; a key no store can hold has no value and costs nothing", () => {
		const { boards, backend } = boardsWith({ backend: seeded(2) });
		expect(boards.rank("Nope", "p1")).toBeUndefined();
		expect(backend.sortedCalls + backend.scoresCalls).toBe(0);
		const long = string.rep("x", 60);
		const { boards: ods } = boardsWith({
			Backend: { ...new MemoryBackend().asSetBackend(), maxKeyLength: 50 },
		});
		expect(ods.rank("Kills", long)).toEqual({ Key: long });
	});

	it("after destroy(): cached answers only, nothing read", () => {
		const backend = seeded(5);
		const { boards } = boardsWith({ backend, Boards: { Kills: { MaxEntries: 2 } } });
		boards.rank("Kills", "p1");
		boards.destroy();
		const reads = backend.scoresCalls + backend.sortedCalls;
		expect(boards.rank("Kills", "p1")).toEqual({ Key: "p1", Value: 1 });
		expect(boards.rank("Kills", "p5")).toEqual({ Key: "p5", Value: 5, Rank: 1 });
		expect(boards.rank("Kills", "p2")).toBeUndefined();
		expect(backend.scoresCalls + backend.sortedCalls).toBe(reads);
	});

	it("a backend without scores() is refused with a clear error, past the page only", () => {
		const own = seeded(3).asSetBackend();
		own.scores = undefined;
		const { boards } = boardsWith({ Backend: own, Boards: { Kills: { MaxEntries: 1 } } });
		expect(boards.rank("Kills", "p3")?.Rank).toBe(1);
		expect(() => boards.rank("Kills", "p1")).toThrow("need a backend with scores()");
	});
});

describe("around()", () => {
	it("from the top page when it holds the subject and its neighbours: ranks, no list read", () => {
		const { boards, backend } = boardsWith({ backend: seeded(10) });
		expect(boards.around("Kills", "p5", 2)).toEqual([
			{ Key: "p7", Value: 7, Rank: 4 },
			{ Key: "p6", Value: 6, Rank: 5 },
			{ Key: "p5", Value: 5, Rank: 6 },
			{ Key: "p4", Value: 4, Rank: 7 },
			{ Key: "p3", Value: 3, Rank: 8 },
		]);
		expect(keysOf(boards.around("Kills", "p10", 2)!)).toEqual(["p10", "p9", "p8"]);
		expect(keysOf(boards.around("Kills", "p1", 2)!)).toEqual(["p3", "p2", "p1"]);
		expect(backend.aroundCalls).toBe(0);
	});

	it("past the page: one backend around() read, ranks where the page knows them", () => {
		const { boards, backend } = boardsWith({ backend: seeded(20), Boards: { Kills: { MaxEntries: 5 } } });
		const rows = boards.around("Kills", "p15", 2)!;
		expect(rows).toEqual([
			{ Key: "p17", Value: 17, Rank: 4 },
			{ Key: "p16", Value: 16, Rank: 5 },
			{ Key: "p15", Value: 15 },
			{ Key: "p14", Value: 14 },
			{ Key: "p13", Value: 13 },
		]);
		expect(backend.aroundCalls).toBe(1);
		// The subject on the page, its neighbours past it: ranks follow from the subject's.
		expect(boards.around("Kills", "p16", 2)).toEqual([
			{ Key: "p18", Value: 18, Rank: 3 },
			{ Key: "p17", Value: 17, Rank: 4 },
			{ Key: "p16", Value: 16, Rank: 5 },
			{ Key: "p15", Value: 15, Rank: 6 },
			{ Key: "p14", Value: 14, Rank: 7 },
		]);
	});

	it("an Ascending board: smaller values are ahead", () => {
		const backend = new MemoryBackend();
		for (let i = 1; i <= 20; i++) backend.storeOf("BestTime").set(`p${i}`, i * 1000);
		const { boards } = boardsWith({ backend, Boards: { BestTime: { Ascending: true, MaxEntries: 5 } } });
		expect(keysOf(boards.around("BestTime", "p10", 1)!)).toEqual(["p9", "p10", "p11"]);
	});

	it("caches per subject and count for CacheSeconds; concurrent callers share one read", () => {
		const time = manualClock();
		const backend = seeded(20);
		const { boards } = boardsWith({ backend, Clock: time.clock, Boards: { Kills: { MaxEntries: 5 } } });
		boards.rank("Kills", "p10");
		backend.lookupSeconds = 1;
		let answered = 0;
		for (let i = 0; i < 10; i++)
			task.spawn(() => {
				if (boards.around("Kills", "p10", 3)?.size() === 7) answered += 1;
			});
		task.wait(2);
		expect(answered).toBe(10);
		expect(backend.aroundCalls).toBe(1);
		boards.around("Kills", "p10", 3);
		expect(backend.aroundCalls).toBe(1);
		boards.around("Kills", "p10", 2);
		expect(backend.aroundCalls).toBe(2);
		time.advance(60);
		boards.around("Kills", "p10", 3);
		expect(backend.aroundCalls).toBe(3);
	});

	it("count: 5 when nil, floored, at most 50 a side, 0 or less is the subject alone", () => {
		const { boards } = boardsWith({ backend: seeded(200), Boards: { Kills: { MaxEntries: 10 } } });
		expect(boards.around("Kills", "p100")!.size()).toBe(11);
		expect(boards.around("Kills", "p100", 2.9)!.size()).toBe(5);
		expect(boards.around("Kills", "p100", 1000)!.size()).toBe(101);
		expect(boards.around("Kills", "p100", 0)).toEqual([{ Key: "p100", Value: 100 }]);
		expect(boards.around("Kills", "p100", -3)).toEqual([{ Key: "p100", Value: 100 }]);
	});

	it("nothing stored for the subject: an empty list; a failed or refused read: nil, then a retry", () => {
		const backend = seeded(20);
		const { boards } = boardsWith({ backend, Boards: { Kills: { MaxEntries: 5 } } });
		expect(boards.around("Kills", "ghost", 2)).toEqual([]);
		backend.failAround = true;
		expect(boards.around("Kills", "p3", 2)).toBeUndefined();
		backend.failAround = false;
		expect(boards.around("Kills", "p3", 2)!.size()).toBe(5);
		expect(boards.around("Nope", "p3", 2)).toBeUndefined();
	});

	it("a backend without around() is refused with a clear error when the page cannot answer", () => {
		const own = seeded(20).asSetBackend();
		own.around = undefined;
		const { boards } = boardsWith({ Backend: own, Boards: { Kills: { MaxEntries: 5 } } });
		expect(boards.around("Kills", "p19", 1)!.size()).toBe(3);
		expect(() => boards.around("Kills", "p3", 1)).toThrow("needs a backend with around()");
	});

	it("after destroy(): cached answers only", () => {
		const backend = seeded(20);
		const { boards } = boardsWith({ backend, Boards: { Kills: { MaxEntries: 5 } } });
		const before = boards.around("Kills", "p10", 2);
		boards.destroy();
		expect(boards.around("Kills", "p10", 2)).toEqual(before);
		expect(boards.around("Kills", "p9", 2)).toBeUndefined();
		expect(backend.aroundCalls).toBe(1);
	});
});

describe("friends()", () => {
	it("the player and their friends with a stored value, ranked among themselves, in one scores() read", () => {
		const backend = new MemoryBackend();
		const store = backend.storeOf("Kills");
		store.set("1", 10);
		store.set("2", 30);
		store.set("3", 20);
		store.set("9", 99);
		const { players, calls } = friendsDouble(new Map([[1, [2, 3, 4, 5, 6]]]));
		const { boards } = boardsWith({ backend, Players: players, Boards: { Kills: { MaxEntries: 1 } } });
		const [rows, unread] = boards.friends("Kills", 1);
		expect(rows).toEqual([
			{ Key: "2", Value: 30, Rank: 1 },
			{ Key: "3", Value: 20, Rank: 2 },
			{ Key: "1", Value: 10, Rank: 3 },
		]);
		expect(unread).toBe(0);
		expect(backend.scoresCalls).toBe(1);
		expect(calls.requests).toBe(3);
	});

	it("values on the loaded top page cost no read: only friends past it are read", () => {
		const backend = seeded(0);
		const store = backend.storeOf("Kills");
		for (const [key, value] of [
			["1", 10],
			["2", 30],
			["3", 20],
		] as const)
			store.set(key, value);
		const { players } = friendsDouble(new Map([[1, [2, 3, 4, 5]]]));
		const { boards } = boardsWith({ backend, Players: players });
		boards.top("Kills");
		expect(keysOf(boards.friends("Kills", 1)[0]!)).toEqual(["2", "3", "1"]);
		expect(backend.keysRead).toBe(2);
	});

	it("a list past the read budget: what was read, ranked, and how many are unread; later calls fill it in", () => {
		const time = manualClock();
		const backend = new MemoryBackend();
		// 70 held: 40 for friends(), WritesPerFlush (30) kept.
		backend.readBudgetValue = 70;
		const friends = new Array<number>();
		for (let id = 2; id <= 100; id++) friends.push(id);
		for (let id = 1; id <= 100; id++) backend.storeOf("Kills").set(tostring(id), id);
		const { players } = friendsDouble(new Map([[1, friends]]), 50);
		const { boards } = boardsWith({
			backend,
			Players: players,
			Clock: time.clock,
			Boards: { Kills: { MaxEntries: 1 } },
		});
		// The page holds "100"; the player is read first, then the list in order.
		const [first, left] = boards.friends("Kills", 1);
		expect(left).toBe(100 - 1 - 40);
		expect(first!.size()).toBe(41);
		expect(first![0]).toEqual({ Key: "100", Value: 100, Rank: 1 });
		expect(first![40]).toEqual({ Key: "1", Value: 1, Rank: 41 });
		expect(backend.keysRead).toBe(40);
		const [, after] = boards.friends("Kills", 1);
		expect(after).toBe(19);
		const [all, none] = boards.friends("Kills", 1);
		expect([all!.size(), none]).toEqual([100, 0]);
		expect(backend.keysRead).toBe(99);
		// Complete and fresh: no read. Past CacheSeconds the stalest are read again, 40 a call.
		boards.friends("Kills", 1);
		expect(backend.keysRead).toBe(99);
		time.advance(60);
		backend.storeOf("Kills").set("1", 1000);
		const [again, stillNone] = boards.friends("Kills", 1);
		expect(backend.keysRead).toBe(139);
		expect([again![0], stillNone]).toEqual([{ Key: "1", Value: 1000, Rank: 1 }, 0]);
	});

	it("leaves WritesPerFlush of the read budget (half of it when it holds less) to writes and other reads", () => {
		const backend = new MemoryBackend();
		backend.readBudgetValue = 50;
		const friends = new Array<number>();
		for (let id = 2; id <= 40; id++) friends.push(id);
		const { players } = friendsDouble(new Map([[1, friends]]), 50);
		const { boards } = boardsWith({ backend, Players: players, WritesPerFlush: 20 });
		expect(boards.friends("Kills", 1)[1]).toBe(40 - 30);
		backend.readBudgetValue = 11;
		expect(boards.friends("Kills", 1)[1]).toBe(10 - 6);
		backend.readBudgetValue = 1;
		expect(boards.friends("Kills", 1)[1]).toBe(3);
		backend.readBudgetValue = 0;
		expect(boards.friends("Kills", 1)[1]).toBe(3);
		expect(backend.keysRead).toBe(37);
	});

	it("cached for CacheSeconds; the friend list for FRIENDS_SECONDS", () => {
		const time = manualClock();
		const backend = seeded(3);
		backend.storeOf("Kills").set("1", 5);
		const { players, calls } = friendsDouble(new Map([[1, [2]]]));
		const { boards } = boardsWith({ backend, Players: players, Clock: time.clock });
		boards.friends("Kills", 1);
		boards.friends("Kills", 1);
		expect(backend.scoresCalls).toBe(1);
		time.advance(60);
		boards.friends("Kills", 1);
		expect(backend.scoresCalls).toBe(2);
		expect(calls.requests).toBe(1);
	});

	it("concurrent callers for one player share one read", () => {
		const backend = new MemoryBackend();
		backend.lookupSeconds = 1;
		backend.storeOf("Kills").set("1", 5);
		const { players } = friendsDouble(new Map([[1, [2]]]));
		const { boards } = boardsWith({ backend, Players: players });
		let other: unknown;
		task.spawn(() => (other = boards.friends("Kills", 1)[0]));
		expect(boards.friends("Kills", 1)[0]).toEqual([{ Key: "1", Value: 5, Rank: 1 }]);
		expect(other).toEqual([{ Key: "1", Value: 5, Rank: 1 }]);
		expect(backend.scoresCalls).toBe(1);
	});

	it("a failed friends request or scores read is nil, never an error; then a retry", () => {
		const backend = new MemoryBackend();
		backend.storeOf("Kills").set("1", 5);
		const { players, calls } = friendsDouble(new Map([[1, [2]]]));
		const { boards } = boardsWith({ backend, Players: players });
		calls.fail = 1;
		expect(boards.friends("Kills", 1)[0]).toBeUndefined();
		backend.failScores = true;
		expect(boards.friends("Kills", 1)[0]).toBeUndefined();
		backend.failScores = false;
		expect(boards.friends("Kills", 1)[0]).toEqual([{ Key: "1", Value: 5, Rank: 1 }]);
	});

	it("nil for an unknown board; errors for a player that is no UserId and without GetFriendsAsync", () => {
		const { players } = friendsDouble(new Map());
		const { boards } = boardsWith({ Players: players });
		const logs = captureLogs();
		expect(boards.friends("Nope", 1)[0]).toBeUndefined();
		logs.restore();
		expect(logs.messages("warn")).toEqual([
			'[Leaderboards] "Nope": friends() names no board (the boards: BestTime, Kills); this warning shows once per board',
		]);
		expect(() => boards.friends("Kills", "guild")).toThrow(
			`Leaderboards: friends() player must be a Player, this game's User, a session with a Player or a UserId (got "guild")`,
		);
		expect(() => boards.friends("Kills", 0)).toThrow("(got 0)");
		const { boards: bare } = boardsWith({
			Players: { GetPlayerByUserId: () => undefined } as unknown as PlayerLookup,
		});
		expect(() => bare.friends("Kills", 1)).toThrow("GetFriendsAsync");
	});

	it("after destroy(): what was read only", () => {
		const backend = new MemoryBackend();
		backend.storeOf("Kills").set("1", 5);
		const { players, calls } = friendsDouble(new Map([[1, [2]]]));
		const { boards } = boardsWith({ backend, Players: players });
		boards.friends("Kills", 1);
		boards.destroy();
		expect(boards.friends("Kills", 1)[0]?.size()).toBe(1);
		expect(boards.friends("Kills", 2)[0]).toBeUndefined();
		expect(calls.requests).toBe(1);
		expect(backend.scoresCalls).toBe(1);
	});
});

describe("remove()", () => {
	it("drops what is queued, hides the key from every read at once, and the next window removes it", () => {
		const backend = seeded(5);
		const { boards, kernel } = boardsWith({ backend, Boards: { Kills: { MaxEntries: 3 } } });
		expect(boards.top("Kills")[0].Key).toBe("p5");
		boards.submit("Kills", "p5", 50);
		const removed = new Array<string>();
		kernel.Bus.subscribe(Topics.Removed, (_, board, key) => removed.push(`${board}:${key}`));
		expect(boards.remove("Kills", "p5")).toBe(true);
		expect(keysOf(boards.top("Kills"))).toEqual(["p4", "p3"]);
		expect(boards.rank("Kills", "p5")).toEqual({ Key: "p5" });
		expect(backend.get("Kills", "p5")).toBe(5);
		boards._flush();
		expect(backend.removes).toEqual([{ board: "Kills", key: "p5" }]);
		expect(backend.get("Kills", "p5")).toBeUndefined();
		expect(backend.writes.size()).toBe(0);
		expect(removed).toEqual(["Kills:p5"]);
		expect(boards.Stats.Written).toBe(1);
	});

	it("a page read in flight when remove() is called does not bring the key back", () => {
		const backend = seeded(5);
		backend.readSeconds = 1;
		const { boards } = boardsWith({ backend });
		let page: Standing[] = [];
		task.spawn(() => (page = boards.top("Kills")));
		boards.remove("Kills", "p5");
		task.wait(2);
		expect(keysOf(page)).toEqual(["p4", "p3", "p2", "p1"]);
	});

	it("a later submit for the key is written after the removal, whatever was stored", () => {
		const backend = seeded(5);
		const { boards } = boardsWith({ backend });
		boards.remove("Kills", "p5");
		boards.submit("Kills", "p5", 2);
		boards._flush();
		expect(backend.get("Kills", "p5")).toBe(2);
		expect(boards.top("Kills").find((entry) => entry.Key === "p5")?.Value).toBe(2);
		// And once removed, the key works as usual: keep-best against what is stored now.
		boards.submit("Kills", "p5", 1);
		boards._flush();
		expect(backend.get("Kills", "p5")).toBe(2);
	});

	it("a failed removal is retried like a write, and dropped (with the key shown again) at MaxWriteAttempts", () => {
		const backend = seeded(3);
		const { boards } = boardsWith({ backend, MaxWriteAttempts: 3 });
		backend.failRemoves = 1;
		boards.remove("Kills", "p3");
		boards._flush();
		expect(boards.Stats.Failed).toBe(1);
		expect(backend.get("Kills", "p3")).toBe(3);
		boards._flush();
		expect(backend.get("Kills", "p3")).toBeUndefined();
		backend.failRemoves = 3;
		boards.remove("Kills", "p2");
		for (let i = 0; i < 3; i++) boards._flush();
		expect(boards.Stats.Dropped).toBe(1);
		expect(backend.removes.size()).toBe(5);
		expect(boards.rank("Kills", "p2")).toEqual({ Key: "p2", Value: 2, Rank: 1 });
	});

	it("a write taken before remove() and failing is not written after the removal", () => {
		const backend = seeded(3);
		const { boards } = boardsWith({ backend });
		boards.submit("Kills", "p1", 10);
		backend.failWrites = 1;
		backend.duringWrite = () => {
			backend.duringWrite = undefined;
			boards.remove("Kills", "p1");
		};
		boards._flush();
		boards._flush();
		expect(backend.get("Kills", "p1")).toBeUndefined();
		expect(boards.Stats.Dropped).toBe(0);
	});

	it("destroy() drains a queued removal; after it remove() is false", () => {
		const backend = seeded(3);
		const { boards } = boardsWith({ backend });
		boards.remove("Kills", "p1");
		const [complete] = boards.destroy();
		expect(complete).toBe(true);
		expect(backend.get("Kills", "p1")).toBeUndefined();
		expect(boards.remove("Kills", "p2")).toBe(false);
	});

	it("false for an unknown board or an unstorable key; a clear error for a backend without remove()", () => {
		const { boards } = boardsWith({ Backend: { ...new MemoryBackend().asSetBackend(), maxKeyLength: 50 } });
		expect(boards.remove("Nope", "p1")).toBe(false);
		expect(boards.remove("Kills", "")).toBe(false);
		expect(boards.remove("Kills", string.rep("x", 51))).toBe(false);
		const own = new MemoryBackend().asSetBackend();
		own.remove = undefined;
		const { boards: bare } = boardsWith({ Backend: own });
		expect(() => bare.remove("Kills", "p1")).toThrow("needs a backend with remove()");
	});
});

describe("RefreshSeconds", () => {
	it("keeps the top page fresh on a timer while the kernel runs, until destroy()", () => {
		const backend = seeded(3);
		const { boards, kernel } = boardsWith({
			backend,
			Clock: os.clock,
			Boards: { Kills: { RefreshSeconds: 5, CacheSeconds: 5 }, BestTime: {} },
		});
		const updates = new Array<string>();
		kernel.Bus.subscribe(Topics.Updated, (_, name) => updates.push(name as string));
		kernel.start();
		task.wait(11);
		expect(updates).toEqual(["Kills", "Kills"]);
		boards.destroy();
		task.wait(10);
		expect(backend.sortedCalls).toBe(2);
	});

	it("a refresh that throws does not stop the timer", () => {
		const backend = seeded(3);
		backend.throwReads = "store offline";
		const { kernel } = boardsWith({
			backend,
			Clock: os.clock,
			Boards: { Kills: { RefreshSeconds: 2, CacheSeconds: 2 } },
		});
		kernel.start();
		task.wait(5);
		expect(backend.sortedCalls).toBe(2);
		kernel.stop();
	});

	it("is off unless set", () => {
		const { kernel: quiet, backend: idle } = boardsWith({ backend: seeded(3) });
		quiet.start();
		task.wait(10);
		expect(idle.sortedCalls).toBe(0);
		quiet.stop();
	});

	it("is checked at attach", () => {
		expect(() => boardsWith({ Boards: { Kills: { RefreshSeconds: 0 } } })).toThrow("RefreshSeconds");
		expect(() => boardsWith({ Boards: { Kills: { RefreshSeconds: "often" as unknown as number } } })).toThrow(
			"options.Boards.Kills.RefreshSeconds must be a positive number",
		);
	});
});

describe("rank, around, friends and remove on the default backend (OrderedDataStore)", () => {
	afterEach(() => gate?.reset());

	// p1..pN holding 10 x I on CKBoard_Kills, written outside the write budget.
	const fillStore = (count: number) => {
		DataStoreService.SetRateLimitForRequestType(Enum.DataStoreRequestType.OrderedWrite, 10_000, 0);
		const store = DataStoreService.GetOrderedDataStore("CKBoard_Kills");
		for (let i = 1; i <= count; i++) store.SetAsync(`p${i}`, i * 10);
	};
	const boardsOn = (maxEntries = 10) =>
		attach(new Kernel({ bindToClose: false }), { Boards: { Kills: { MaxEntries: maxEntries } }, SkipLoop: true });

	it("around() past the page reads two value-bounded GetSortedAsync pages (OrderedList)", () => {
		if (!gate) return;
		gate.reset();
		fillStore(40);
		const boards = boardsOn();
		expect(keysOf(boards.around("Kills", "p20", 3)!)).toEqual(["p23", "p22", "p21", "p20", "p19", "p18", "p17"]);
		expect(gate.dataStore.calls("GetSortedAsync")).toBe(1 + AROUND_COST);
		expect(gate.dataStore.calls("BatchGetAsync")).toBe(1);
	});

	it("around() is refused (nil), not throttled, when the OrderedList budget is short; it serves again once refilled", () => {
		if (!gate) return;
		gate.reset();
		fillStore(40);
		const boards = boardsOn();
		boards.top("Kills");
		// 5 a minute with no players: 4 left after the page (a shared page's refresh, paid from the
		// experience's base); this server's share of the experience's lists holds 2 (one around()).
		const answers = new Array<string>();
		for (const key of ["p20", "p21", "p22"]) answers.push(boards.around("Kills", key, 2) ? "ok" : "nil");
		expect(answers).toEqual(["ok", "nil", "nil"]);
		expect(gate.dataStore.budget("OrderedList")).toBeLessThan(AROUND_COST + AROUND_RESERVE);
		expect(gate.dataStore.throttled()).toBe(0);
		// The share refills at 0.9 x 2 a minute (one player's worth): two more lists in 67 s.
		task.wait(67);
		expect(boards.around("Kills", "p22", 2)?.size()).toBe(5);
	});

	it("remove() spends OrderedRemove through RemoveAsync, and the key leaves the board", () => {
		if (!gate) return;
		gate.reset();
		fillStore(5);
		const boards = boardsOn();
		const before = gate.dataStore.budget("OrderedRemove");
		boards.remove("Kills", "p5");
		boards._flush();
		expect(gate.dataStore.calls("RemoveAsync")).toBe(1);
		expect(gate.dataStore.budget("OrderedRemove")).toBe(before - 1);
		expect(gate.dataStore.snapshot("CKBoard_Kills").get("p5")).toBeUndefined();
		expect(boards.rank("Kills", "p5")).toEqual({ Key: "p5" });
		expect(boards.top("Kills")[0].Key).toBe("p4");
	});

	it("remove() with the OrderedRemove budget spent is refused, not throttled, and retried once it refills", () => {
		if (!gate) return;
		gate.reset();
		fillStore(3);
		const boards = boardsOn();
		DataStoreService.SetRateLimitForRequestType(Enum.DataStoreRequestType.OrderedRemove, 0, 0);
		boards.remove("Kills", "p3");
		expect(boards._flush().Failed).toBe(1);
		expect(gate.dataStore.calls("RemoveAsync")).toBe(0);
		expect(gate.dataStore.throttled()).toBe(0);
		DataStoreService.SetRateLimitForRequestType(Enum.DataStoreRequestType.OrderedRemove, 30, 5);
		task.wait(5);
		expect(boards._flush().Written).toBe(1);
		expect(gate.dataStore.snapshot("CKBoard_Kills").get("p3")).toBeUndefined();
	});

	it("a RemoveAsync the store fails is retried the next window", () => {
		if (!gate) return;
		gate.reset();
		fillStore(3);
		const boards = boardsOn();
		gate.dataStore.fault({ method: "RemoveAsync", failNext: 1 });
		boards.remove("Kills", "p3");
		expect(boards._flush().Failed).toBe(1);
		expect(boards._flush().Written).toBe(1);
		expect(gate.dataStore.snapshot("CKBoard_Kills").get("p3")).toBeUndefined();
	});

	it("friends() reads GetFriendsAsync pages (who played failing), then BatchGetAsync calls of at most 100 keys", () => {
		if (!gate) return;
		gate.reset();
		DataStoreService.SetRateLimitForRequestType(Enum.DataStoreRequestType.OrderedWrite, 10_000, 0);
		const store = DataStoreService.GetOrderedDataStore("CKBoard_Kills");
		// N keys spend N OrderedRead requests: five players' share of the experience's holds 0.9 x 40 x 5.
		for (let id = 2; id <= 150; id++) gate.friends.befriend(1, id);
		gate.friends.fault({ method: "GetFriendsWhoPlayedAsync", failNext: 1 });
		for (let id = 1; id <= 150; id += 10) store.SetAsync(tostring(id), id);
		const player = gate.players.join({ UserId: 1, Name: "one" });
		for (let id = 2; id <= 5; id++) gate.players.join({ UserId: 100_000 + id });
		const boards = boardsOn();
		const [rows, unread] = boards.friends("Kills", player);
		expect(unread).toBe(0);
		expect(rows!.size()).toBe(15);
		expect(rows![0]).toEqual({ Key: "141", Value: 141, Rank: 1 });
		expect(rows!.find((row) => row.Key === "1")).toEqual({ Key: "1", Value: 1, Rank: 15 });
		// The 10 on the page cost nothing: 140 keys read.
		expect(gate.dataStore.calls("BatchGetAsync")).toBe(2);
		expect(gate.friends.calls()).toBe(1 + math.ceil(149 / gate.friends.perPage));
		expect(Players.GetPlayerByUserId(1)).toBe(player);
	});

	// A player with `friends` friends (every third with kills) on a server of `online` players, asking
	// every 10 s as a friends board would: each answer within the budget, never throttled, complete in the end.
	for (const [friends, online] of [
		[200, 1],
		[200, 20],
		[1000, 1],
		[1000, 20],
	]) {
		it(`friends() of ${friends} friends on a ${online}-player server: answers at once, fills in, never throttled`, () => {
			if (!gate) return;
			gate.reset();
			for (let id = 2; id <= friends + 1; id++) gate.friends.befriend(1, id);
			// Stored before the run: SetAsync would meet the experience's 300 writes a minute.
			const stored = new Map<string, number>();
			for (let id = 1; id <= friends + 1; id += 3) stored.set(tostring(id), id);
			gate.dataStore.seed("CKBoard_Kills", stored);
			const player = gate.players.join({ UserId: 1, Name: "one" });
			for (let i = 2; i <= online; i++) gate.players.join({ UserId: 100_000 + i });
			const boards = boardsOn(100);
			const logs = captureLogs();
			const answers = new Array<number>();
			for (;;) {
				const [rows, unread] = boards.friends("Kills", player);
				expect(gate.dataStore.throttled()).toBe(0);
				answers.push(rows!.size());
				if (unread === 0) break;
				task.wait(10);
			}
			logs.restore();
			expect(logs.messages("warn")).toEqual([]);
			expect(answers[answers.size() - 1]).toBe(math.ceil((friends + 1) / 3));
			// An answer at the first call, growing with each.
			expect(answers[0]).toBeGreaterThan(0);
			// Reads a minute: the server's 60 + 40 x players, or its share of the experience's when smaller.
			const perMinute = math.min(60 + 40 * online, 0.9 * 40 * online);
			// Every key not on the page read once: the budget's first minute, then its refill.
			const unread = friends + 1 - math.min(100, math.ceil((friends + 1) / 3));
			const seconds = math.max(0, unread - perMinute) / (perMinute / 60);
			expect(answers.size()).toBeLessThanOrEqual(math.ceil(seconds / 10) + 2);
			// Virtual time: up to 25 minutes of asking (1,000 friends at 36 reads a minute).
		}, 1_800_000);
	}
});

describe("around and remove on the MemoryStore backend (range bounds)", () => {
	afterEach(() => gate?.reset());

	// p1..p40 holding 10 x I (and p0 tied with p20 at 200), written through the backend.
	const filled = (shards: number, ascending = false) => {
		const { boards } = boardsWith({
			Backend: memoryStoreBackend({ Shards: shards }),
			Boards: { Kills: { MaxEntries: 5, Ascending: ascending } },
		});
		for (let i = 1; i <= 40; i++) boards.submit("Kills", `p${i}`, i * 10);
		boards.submit("Kills", "p0", 200);
		while (boards._flush().Attempted > 0);
		return boards;
	};

	for (const shards of [1, 3]) {
		it(`around() past the page reads the rows nearest the value, ties included (${shards} shard(s))`, () => {
			if (!gate) return;
			gate.reset();
			const boards = filled(shards);
			boards.rank("Kills", "p20");
			const ranges = gate.memoryStore.calls("GetRangeAsync");
			expect(boards.around("Kills", "p20", 2)).toEqual([
				{ Key: "p22", Value: 220 },
				{ Key: "p21", Value: 210 },
				{ Key: "p20", Value: 200 },
				{ Key: "p0", Value: 200 },
				{ Key: "p19", Value: 190 },
			]);
			expect(gate.memoryStore.calls("GetRangeAsync") - ranges).toBe(2 * shards);
		});
	}

	it("an Ascending board on the MemoryStore backend: smaller scores are ahead", () => {
		if (!gate) return;
		gate.reset();
		const boards = filled(1, true);
		expect(keysOf(boards.around("Kills", "p30", 1)!)).toEqual(["p29", "p30", "p31"]);
	});

	it("rank() reads the maps' scores past the page", () => {
		if (!gate) return;
		gate.reset();
		const boards = filled(3);
		expect(boards.rank("Kills", "p40")).toEqual({ Key: "p40", Value: 400, Rank: 1 });
		expect(boards.rank("Kills", "p2")).toEqual({ Key: "p2", Value: 20 });
		expect(boards.rank("Kills", "nobody")).toEqual({ Key: "nobody" });
	});

	it("remove() is RemoveAsync on the key's shard", () => {
		if (!gate) return;
		gate.reset();
		const boards = filled(3);
		boards.remove("Kills", "p40");
		boards._flush();
		expect(gate.memoryStore.calls("RemoveAsync")).toBe(1);
		expect(boards.top("Kills")[0].Key).toBe("p39");
		expect(boards.rank("Kills", "p40")).toEqual({ Key: "p40" });
	});
});
