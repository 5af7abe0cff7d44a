import { afterEach, describe, expect, it } from "@rbxts/jest-globals";
import { DataStoreService } from "@rbxts/services";
import { Kernel } from "../../kernel";
import { Entry, PlayerLookup, UserLookup, attach } from "../../plugins/leaderboards";
import { headlessGate } from "../gate/control";
import { captureLogs, manualClock } from "../kernel/doubles";
import { MemoryBackend, boardsWith } from "./doubles";

// Issue 13: every backend and engine call a read makes gets RequestSeconds. A
// read past it fails like a failed read: the previous page is kept, waiters go,
// and its late result never replaces newer state.

const gate = headlessGate();
const keysOf = (entries: Entry[]) => entries.map((entry) => entry.Key);

function seeded(count: number) {
	const backend = new MemoryBackend();
	for (let i = 1; i <= count; i++) backend.storeOf("Kills").set(`p${i}`, i);
	return backend;
}

/** Runs call on its own thread; the result box fills when (if) it returns. */
function started<T>(call: () => T) {
	const box: { done: boolean; value?: T } = { done: false };
	task.spawn(() => {
		box.value = call();
		box.done = true;
	});
	return box;
}

describe("top() when the backend's sorted never returns", () => {
	it("with no page: every waiter gets {} at RequestSeconds, and the next call reads again", () => {
		const backend = seeded(3);
		backend.hangReads = 1;
		const logs = captureLogs();
		const { boards } = boardsWith({ backend, RequestSeconds: 5 });
		const first = started(() => boards.top("Kills"));
		const second = started(() => boards.top("Kills"));
		task.wait(4.9);
		expect(first.done).toBe(false);
		task.wait(0.2);
		logs.restore();
		expect(first.done && second.done).toBe(true);
		expect(first.value).toEqual([]);
		expect(second.value).toEqual([]);
		expect(logs.messages("warn")).toEqual([
			"[Leaderboards] Kills: top() read past RequestSeconds (5 s); treated as failed",
		]);
		expect(keysOf(boards.top("Kills"))).toEqual(["p3", "p2", "p1"]);
		expect(backend.sortedCalls).toBe(2);
	});

	it("with a page: the previous page is served and the read retried a full window later", () => {
		const time = manualClock();
		const backend = seeded(2);
		const { boards } = boardsWith({ backend, Clock: time.clock, RequestSeconds: 3 });
		boards.top("Kills");
		time.advance(61);
		backend.hangReads = 1;
		backend.storeOf("Kills").set("p9", 9);
		const logs = captureLogs();
		expect(keysOf(boards.top("Kills"))).toEqual(["p2", "p1"]);
		logs.restore();
		time.advance(30);
		expect(keysOf(boards.top("Kills"))).toEqual(["p2", "p1"]);
		expect(backend.sortedCalls).toBe(2);
		time.advance(31);
		expect(keysOf(boards.top("Kills"))).toEqual(["p9", "p2", "p1"]);
	});

	it("a read that started earlier and finishes later never replaces the page a newer read filled", () => {
		const time = manualClock();
		const backend = seeded(5);
		const { boards } = boardsWith({ backend, Clock: time.clock });
		// A slow read of 3 rows starts first; a quick read of 5 starts and finishes while it is out.
		backend.readSeconds = 4;
		const slow = started(() => boards.top("Kills", 3));
		task.wait(1);
		backend.readSeconds = 0;
		backend.storeOf("Kills").set("p9", 9);
		expect(keysOf(boards.top("Kills", 5))).toEqual(["p9", "p5", "p4", "p3", "p2"]);
		task.wait(4);
		expect(slow.done).toBe(true);
		expect(slow.value!.size()).toBe(3);
		// The page is still the newer one: five rows, p9 first, served without a read.
		expect(keysOf(boards.top("Kills", 5))).toEqual(["p9", "p5", "p4", "p3", "p2"]);
		expect(backend.sortedCalls).toBe(2);
	});

	it("destroy() while a read hangs releases its waiters at once", () => {
		const backend = seeded(2);
		backend.hangReads = 1;
		const { boards } = boardsWith({ backend, RequestSeconds: 2 });
		const waiter = started(() => boards.top("Kills"));
		task.wait(1);
		boards.destroy();
		task.wait();
		expect(waiter.done).toBe(true);
		expect(waiter.value).toEqual([]);
		// The read's own deadline still passes (and warns) later; let it, inside this spec.
		const logs = captureLogs();
		task.wait(1.5);
		logs.restore();
	});
});

describe("scores() when the backend never returns", () => {
	it("returns nil at RequestSeconds with a warning; the next call reads again", () => {
		const backend = seeded(2);
		backend.hangScores = 1;
		const { boards } = boardsWith({ backend, RequestSeconds: 4 });
		const logs = captureLogs();
		const call = started(() => boards.scores("Kills", ["p1", "p2"]));
		task.wait(4.1);
		logs.restore();
		expect(call.done).toBe(true);
		expect(call.value).toBeUndefined();
		expect(logs.messages("warn")).toEqual([
			"[Leaderboards] Kills: scores() read past RequestSeconds (4 s); treated as failed",
		]);
		expect(boards.scores("Kills", ["p1", "p2"])).toEqual(
			new Map([
				["p1", 1],
				["p2", 2],
			]),
		);
	});
});

describe("names() when UserService never returns", () => {
	const nobodyHere: PlayerLookup = {
		GetPlayerByUserId() {
			return undefined;
		},
	};

	it("leaves entries unnamed at RequestSeconds with a warning; a later call asks again", () => {
		let hang = true;
		const userService: UserLookup = {
			GetUserInfosByUserIdsAsync(ids: number[]) {
				if (hang) coroutine.yield();
				return ids.map((id) => ({ Id: id, Username: `user${id}`, DisplayName: `User ${id}` }));
			},
		};
		const time = manualClock();
		const { boards } = boardsWith({ UserService: userService, Players: nobodyHere, Clock: time.clock });
		const logs = captureLogs();
		const rows = [{ Key: "7", Value: 1, Rank: 1 }] as Entry[];
		const first = started(() => boards.names(rows));
		const second = started(() => boards.names([{ Key: "7", Value: 1, Rank: 1 }]));
		task.wait(10.1);
		logs.restore();
		expect(first.done && second.done).toBe(true);
		expect(rows[0].DisplayName).toBeUndefined();
		expect(logs.messages("warn")).toEqual([
			"[Leaderboards] names(): UserService lookup failed, entries left unnamed: past RequestSeconds (10 s)",
		]);
		hang = false;
		time.advance(60);
		expect(boards.names(rows)[0].DisplayName).toBe("User 7");
	});
});

describe("the default backend's reads hang in the emulated engine", () => {
	afterEach(() => gate?.reset());

	it("GetSortedAsync never returns: top() gives {} at RequestSeconds", () => {
		if (!gate) return;
		gate.reset();
		DataStoreService.GetOrderedDataStore("CKBoard_Kills").SetAsync("1", 5);
		gate.dataStore.fault({ method: "GetSortedAsync", hangNext: 1 });
		const boards = attach(new Kernel({ bindToClose: false }), {
			Boards: { Kills: {} },
			SkipLoop: true,
			RequestSeconds: 2,
		});
		const logs = captureLogs();
		const call = started(() => boards.top("Kills"));
		task.wait(2.1);
		logs.restore();
		expect(call.done).toBe(true);
		expect(call.value).toEqual([]);
		expect(boards.top("Kills")).toEqual([{ Key: "1", Value: 5, Rank: 1 }]);
	});

	it("BatchGetAsync never returns: scores() gives nil at RequestSeconds", () => {
		if (!gate) return;
		gate.reset();
		gate.dataStore.fault({ method: "BatchGetAsync", hangNext: 1 });
		const boards = attach(new Kernel({ bindToClose: false }), { Boards: { Kills: {} }, SkipLoop: true });
		const logs = captureLogs();
		const call = started(() => boards.scores("Kills", ["1"]));
		task.wait(10.1);
		logs.restore();
		expect(call.done).toBe(true);
		expect(call.value).toBeUndefined();
	});

	it("GetUserInfosByUserIdsAsync never returns: names() leaves entries unnamed at RequestSeconds", () => {
		if (!gate) return;
		gate.reset();
		gate.users.register(42, "ada", "Ada");
		gate.users.fault({ hangNext: 1 });
		const boards = attach(new Kernel({ bindToClose: false }), {
			Boards: { Kills: {} },
			SkipLoop: true,
			RequestSeconds: 3,
		});
		const logs = captureLogs();
		const call = started(() => boards.names([{ Key: "42", Value: 1, Rank: 1 }]));
		task.wait(3.1);
		logs.restore();
		expect(call.done).toBe(true);
		expect(call.value![0].DisplayName).toBeUndefined();
	});
});
