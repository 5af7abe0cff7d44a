import { afterEach, describe, expect, it } from "@rbxts/jest-globals";
import { DataStoreService } from "@rbxts/services";
import { Kernel } from "../../kernel";
import { Entry, attach } from "../../plugins/leaderboards";
import { headlessGate } from "../gate/control";
import { manualClock } from "../kernel/doubles";
import { readerCases } from "./cases/reader";
import { MemoryBackend, boardsWith } from "./doubles";

const gate = headlessGate();

function seeded(count: number) {
	const backend = new MemoryBackend();
	for (let i = 1; i <= count; i++) backend.storeOf("Kills").set(`p${i}`, i);
	return backend;
}

const keysOf = (entries: Entry[]) => entries.map((entry) => entry.Key);

describe("top() and scores(), as every Reader owes them (cases/reader.ts)", () =>
	readerCases(() => {
		const backend = new MemoryBackend();
		return {
			attach: (options) => boardsWith({ backend, ...options }),
			put: (board, key, value) => backend.storeOf(board).set(key, value),
			reads: () => backend.sortedCalls,
			fail: (failing) => {
				backend.failReads = failing;
				backend.failScores = failing;
			},
		};
	}));

describe("top()", () => {
	it("a hundred concurrent callers for one board and size cost exactly one read", () => {
		const backend = seeded(10);
		backend.readSeconds = 1;
		const { boards } = boardsWith({ backend });
		const sizes = new Array<number>();
		for (let i = 0; i < 100; i++) task.spawn(() => sizes.push(boards.top("Kills", 5).size()));
		task.wait(2);
		expect(backend.sortedCalls).toBe(1);
		expect(sizes.size()).toBe(100);
		expect(sizes.every((size) => size === 5)).toBe(true);
	});

	it("different sizes read separately; a cached bigger page serves a smaller size", () => {
		const backend = seeded(10);
		backend.readSeconds = 1;
		const { boards } = boardsWith({ backend });
		task.spawn(() => boards.top("Kills", 3));
		task.spawn(() => boards.top("Kills", 8));
		task.wait(2);
		expect(backend.sortedCalls).toBe(2);
		expect(keysOf(boards.top("Kills", 5))).toEqual(["p10", "p9", "p8", "p7", "p6"]);
		expect(backend.sortedCalls).toBe(2);
	});

	it("a caller cancelled while waiting does not strand the others", () => {
		const backend = seeded(3);
		backend.readSeconds = 2;
		const { boards } = boardsWith({ backend });
		let other: Entry[] | undefined;
		const first = task.spawn(() => boards.top("Kills"));
		task.spawn(() => (other = boards.top("Kills")));
		task.wait(1);
		task.cancel(first);
		task.wait(2);
		expect(other?.size()).toBe(3);
		expect(backend.sortedCalls).toBe(1);
	});

	it("an error thrown by a custom backend's sorted is raised in every waiter and does not wedge later reads", () => {
		const backend = seeded(2);
		backend.readSeconds = 1;
		backend.throwReads = "store offline";
		const { boards } = boardsWith({ backend });
		const outcomes = new Array<string>();
		for (let i = 0; i < 3; i++)
			task.spawn(() => {
				const [ok, problem] = pcall(() => boards.top("Kills"));
				outcomes.push(ok ? "ok" : tostring(problem));
			});
		task.wait(2);
		expect(outcomes).toEqual(["store offline", "store offline", "store offline"]);
		backend.throwReads = undefined;
		expect(boards.top("Kills").size()).toBe(2);
		expect(backend.sortedCalls).toBe(2);
	});

	it("destroy() releases every waiting reader with the cached page", () => {
		const time = manualClock();
		const backend = seeded(2);
		const { boards } = boardsWith({ backend, Clock: time.clock });
		boards.top("Kills");
		time.advance(61);
		backend.readSeconds = 100;
		let released: Entry[] | undefined;
		task.spawn(() => (released = boards.top("Kills")));
		const started = os.clock();
		boards.destroy();
		task.wait();
		expect(keysOf(released!)).toEqual(["p2", "p1"]);
		expect(os.clock() - started).toBeLessThan(1);
	});
});

describe("top() on the default backend", () => {
	afterEach(() => gate?.reset());

	const fillStore = (count: number) => {
		DataStoreService.SetRateLimitForRequestType(Enum.DataStoreRequestType.OrderedWrite, 10_000, 0);
		const store = DataStoreService.GetOrderedDataStore("CKBoard_Kills");
		for (let i = 1; i <= count; i++) store.SetAsync(`p${i}`, i);
	};

	it("reads further pages with AdvanceToNextPageAsync past 100 entries", () => {
		if (!gate) return;
		gate.reset();
		fillStore(260);
		const boards = attach(new Kernel({ bindToClose: false }), {
			Boards: { Kills: { MaxEntries: 250 } },
			SkipLoop: true,
		});
		const entries = boards.top("Kills");
		expect(entries.size()).toBe(250);
		expect(entries[0]).toEqual({ Key: "p260", Value: 260, Rank: 1 });
		expect(entries[249].Rank).toBe(250);
		expect(gate.dataStore.calls("GetSortedAsync")).toBe(1);
		expect(gate.dataStore.calls("AdvanceToNextPageAsync")).toBe(2);
	});

	it("stops at IsFinished when the board has fewer entries", () => {
		if (!gate) return;
		gate.reset();
		fillStore(150);
		const boards = attach(new Kernel({ bindToClose: false }), {
			Boards: { Kills: { MaxEntries: 250 } },
			SkipLoop: true,
		});
		expect(boards.top("Kills").size()).toBe(150);
		expect(gate.dataStore.calls("AdvanceToNextPageAsync")).toBe(1);
	});

	it("a read the store fails keeps the board empty and retries on the next call", () => {
		if (!gate) return;
		gate.reset();
		fillStore(3);
		gate.dataStore.fault({ method: "GetSortedAsync", failNext: 1 });
		const boards = attach(new Kernel({ bindToClose: false }), { Boards: { Kills: {} }, SkipLoop: true });
		expect(boards.top("Kills")).toEqual([]);
		expect(boards.top("Kills").size()).toBe(3);
	});
});
