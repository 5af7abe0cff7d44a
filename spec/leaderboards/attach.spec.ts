import { describe, expect, it } from "@rbxts/jest-globals";
import { Kernel } from "../../kernel";
import {
	Backend,
	FlusherStage,
	LeaderboardOptions,
	PendingWrite,
	QueueStage,
	StageContext,
	Topics,
	WindowSummary,
	attach,
} from "../../plugins/leaderboards";
import { subjectKey } from "../../plugins/leaderboards/internal";
import { captureLogs } from "../kernel/doubles";
import { MemoryBackend, boardsWith } from "./doubles";

const kernel = () => new Kernel({ bindToClose: false });
const backend = () => new MemoryBackend().asSetBackend();
const attachWith = (options: Partial<LeaderboardOptions>) => () =>
	attach(kernel(), { Boards: { Kills: {} }, Backend: backend(), ...options } as LeaderboardOptions);

describe("attach", () => {
	it("fails loudly naming the field", () => {
		expect(() => attach(kernel(), {} as LeaderboardOptions)).toThrow(
			"Leaderboards.attach: options.Boards is required",
		);
		expect(attachWith({ Boards: {} })).toThrow("options.Boards has no boards");
		expect(attachWith({ Boards: { Kills: { Ascending: "yes" as unknown as boolean } } })).toThrow(
			'options.Boards.Kills.Ascending must be a boolean (got "yes")',
		);
		expect(attachWith({ Boards: { Kills: { MaxEntries: 0 } } })).toThrow(
			"options.Boards.Kills.MaxEntries must be a positive integer (got 0)",
		);
		expect(attachWith({ Boards: { Kills: { Colour: 1 } as object } })).toThrow(
			"options.Boards.Kills.Colour is not an option",
		);
		expect(attachWith({ FlushSeconds: 0 })).toThrow("options.FlushSeconds must be a positive number (got 0)");
		expect(attachWith({ WritesPerFlush: -3 })).toThrow(
			"options.WritesPerFlush must be a positive integer (got -3)",
		);
		expect(attachWith({ MaxWriteAttempts: 2.5 })).toThrow(
			"options.MaxWriteAttempts must be a positive integer (got 2.5)",
		);
		expect(attachWith({ ShutdownSeconds: math.huge })).toThrow(
			"options.ShutdownSeconds must be finite and not negative (got inf)",
		);
		expect(attachWith({ ShutdownSeconds: -1 })).toThrow(
			"options.ShutdownSeconds must be finite and not negative (got -1)",
		);
		expect(attachWith({ RequestSeconds: 0 })).toThrow("options.RequestSeconds must be a positive number (got 0)");
		expect(attachWith({ FlushSecond: 3 } as object)).toThrow("options.FlushSecond is not an option");
	});

	it("checks the backend: it needs sorted plus submit or set", () => {
		const noSorted = { set: () => true } as unknown as Backend;
		expect(attachWith({ Backend: noSorted })).toThrow("options.Backend needs sorted()");
		const noWrite = { sorted: () => [] } as unknown as Backend;
		expect(attachWith({ Backend: noWrite })).toThrow("options.Backend needs submit() or set()");
	});

	it("refuses board names the default backend cannot store", () => {
		const long = string.rep("B", 45);
		expect(() => attach(kernel(), { Boards: { [long]: {} } })).toThrow(
			`options.Boards.${long} makes a store name over 50 characters`,
		);
	});

	it("a storage name's limit is the backend's own (refuseName), a game's backend's as the default's", () => {
		const backend: Backend = {
			...new MemoryBackend().asSetBackend(),
			refuseName: (store) => (store.size() > 8 ? `is too long for this store (${store})` : undefined),
		};
		expect(attachWith({ Backend: backend, Boards: { LongBoardName: {} } })).toThrow(
			"options.Boards.LongBoardName is too long for this store (LongBoardName)",
		);
		// A Reset board is checked with its longest period id.
		expect(attachWith({ Backend: backend, Boards: { Kills: { Reset: "Daily" } } })).toThrow(
			"options.Boards.Kills is too long for this store (Kills@0000000000000)",
		);
		expect(attachWith({ Backend: { ...backend, refuseName: 5 } as unknown as Backend })).toThrow(
			"options.Backend.refuseName must be a function (got 5)",
		);
	});

	it("a call the backend cannot serve raises one error naming the call and the backend", () => {
		const { boards } = boardsWith({ Backend: { ...new MemoryBackend().asSetBackend(), scores: undefined } });
		expect(() => boards.scores("Kills", ["1"])).toThrow(
			"Leaderboards: scores() needs a backend with scores(); options.Backend has none",
		);
		expect(() => boards.rank("Kills", "1")).toThrow(
			"Leaderboards: rank() and around() need a backend with scores(); options.Backend has none",
		);
	});

	it("nothing runs until the first submit", () => {
		const { kernel: k, backend: memory } = boardsWith({ SkipLoop: false });
		task.wait(60);
		expect(k.Scheduler.pending()).toBe(0);
		expect(memory.writes.size()).toBe(0);
		expect(memory.sortedCalls).toBe(0);
	});

	it("registers the stages and the Leaderboards service with the kernel", () => {
		const { kernel: k, boards } = boardsWith();
		expect(k.get("Leaderboards")).toBe(boards);
		for (const stage of ["Queue", "Flusher", "Reader", "NameResolver", "Drainer"])
			expect(k.find(`Leaderboards.${stage}`)).toBeDefined();
	});

	it("options.Stages replaces the Queue and the Flusher with a game's own; the rest still works", () => {
		// A tiny queue: newest value per key, no limits; a flusher that writes everything at once.
		const ownQueue = (context: StageContext): QueueStage => {
			const order = new Array<{ board: string; key: string; value: number }>();
			let closed = false;
			const find = (board: string, key?: string) =>
				order.findIndex((item) => item.board === board && (key === undefined || item.key === key));
			// A failed write's value comes back; destroy() refuses later submits. Writes here run one at a
			// time: no key is out when another is taken (Leaderboard.Settled is not heard).
			context.kernel.Bus.subscribe(Topics.WriteFailed, (_, write: PendingWrite) =>
				order.push({ board: write.Board, key: write.Key, value: write.Value }),
			);
			context.kernel.Bus.subscribe(Topics.Draining, () => (closed = true));
			return {
				Name: "Game.Queue",
				submit(board, subject, value) {
					if (closed || !context.settings.boards.has(board) || !typeIs(value, "number")) return false;
					const config = context.settings.boards.get(board)!;
					const [key] = subjectKey(subject);
					if (key === undefined) return false;
					const index = find(board, key);
					if (index === -1) order.push({ board, key, value });
					else order[index].value = config.Rule.merge(order[index].value, value);
					return true;
				},
				pending() {
					return order.size();
				},
				pendingOn(board) {
					return order.filter((item) => item.board === board).size();
				},
				take(board) {
					const index = find(board);
					if (index === -1) return undefined;
					const item = order.remove(index)!;
					return { Board: item.board, Key: item.key, Value: item.value, Failures: 0 };
				},
				waiting() {
					return 0;
				},
			};
		};
		const ownFlusher = (context: StageContext): FlusherStage => {
			const runWindow = (): WindowSummary => {
				let written = 0;
				for (const board of context.settings.boardNames) {
					let write = context.stages.Queue.take(board);
					while (write) {
						context.settings.backend.set!(write.Board, write.Key, () => write!.Value);
						written += 1;
						write = context.stages.Queue.take(board);
					}
				}
				return { Attempted: written, Written: written, Failed: 0, Budget: math.huge };
			};
			return {
				Name: "Game.Flusher",
				flushNow() {
					return runWindow();
				},
				runWindow() {
					return runWindow();
				},
				inFlight() {
					return 0;
				},
				unresolved() {
					return 0;
				},
				landed() {
					return Promise.resolve();
				},
				isWriting() {
					return false;
				},
				armed() {
					return false;
				},
			};
		};
		const memory = new MemoryBackend();
		const k = kernel();
		const boards = attach(k, {
			Boards: { Kills: {} },
			Backend: memory.asSetBackend(),
			Stages: { Queue: ownQueue, Flusher: ownFlusher },
		});
		expect(k.find("Game.Queue")).toBeDefined();
		boards.submit("Kills", "a", 3);
		boards.submit("Kills", "b", 8);
		boards.submit("Kills", "a", 5);
		expect(boards.flushNow()?.Written).toBe(2);
		// The default Reader and Drainer work over the game's stages.
		expect(boards.top("Kills").map((e) => `${e.Key}=${e.Value}`)).toEqual(["b=8", "a=5"]);
		boards.submit("Kills", "c", 1);
		const [complete, result] = boards.destroy();
		expect(complete).toBe(true);
		expect(result.Remaining).toBe(0);
		expect(memory.get("Kills", "c")).toBe(1);
		expect(boards.submit("Kills", "d", 1)).toBe(false);
	});
});

// A game's Queue stage written as a class: its submit needs its own self.
class CountingQueue implements QueueStage {
	readonly Name = "Game.Queue";
	readonly submits = new Array<string>();
	submit(board: string, subject: unknown, value: unknown) {
		this.submits.push(`${board} ${tostring(subject)} ${tostring(value)}`);
		return value !== 0;
	}
	pending() {
		return 0;
	}
	pendingOn() {
		return 0;
	}
	waiting() {
		return 0;
	}
	take() {
		return undefined;
	}
}

describe("a game's own Queue stage", () => {
	it("gets every submit with itself as self, the first and the later ones (the boards find its submit once)", () => {
		const own = new CountingQueue();
		const logs = captureLogs();
		const boards = attach(kernel(), {
			Boards: { Kills: {} },
			Backend: backend(),
			SkipLoop: true,
			Stages: { Queue: () => own },
		});
		logs.restore();
		expect(boards.submit("Kills", "a", 3)).toBe(true);
		expect(boards.submit("Kills", "b", 0)).toBe(false);
		expect(boards.submit("Kills", "a", 5)).toBe(true);
		expect(own.submits).toEqual(["Kills a 3", "Kills b 0", "Kills a 5"]);
	});
});

describe("the boards tell a game what it got wrong", () => {
	const boardsOn = (k: Kernel) => attach(k, { Boards: { Kills: {} }, Backend: backend(), SkipLoop: true });

	it("warns once when a board takes a submit on a kernel that has not started (BindToClose is bound by start())", () => {
		const logs = captureLogs();
		const boards = boardsOn(new Kernel());
		expect(boards.submit("Kills", "a", 1)).toBe(true);
		expect(boards.submit("Kills", "b", 2)).toBe(true);
		logs.restore();
		expect(logs.messages("warn")).toEqual([
			"[Leaderboards] submit() on a kernel that has not started: call kernel.start() after attach(), or nothing drains the queued scores when the server closes (BindToClose is bound by start()); this warning shows once",
		]);
	});

	it("no warning on a started kernel, nor on one the game closes itself (bindToClose = false)", () => {
		const logs = captureLogs();
		const started = new Kernel();
		const onStarted = boardsOn(started);
		started.start();
		onStarted.submit("Kills", "a", 1);
		const own = boardsOn(kernel());
		own.submit("Kills", "a", 1);
		logs.restore();
		expect(logs.messages("warn")).toEqual([]);
		expect(started.hasStarted()).toBe(true);
		expect(started.stop().complete).toBe(true);
	});

	it("flushNow() returns nil at once once destroy() began, during the drain and after it", () => {
		const memory = new MemoryBackend();
		memory.writeSeconds = 1;
		const { boards } = boardsWith({ backend: memory });
		for (let i = 1; i <= 5; i++) boards.submit("Kills", `k${i}`, i);
		let during: unknown = "not called";
		task.spawn(() => {
			task.wait(0.5);
			during = boards.flushNow();
		});
		const [complete] = boards.destroy();
		expect(complete).toBe(true);
		expect(during).toBeUndefined();
		expect(boards.flushNow()).toBeUndefined();
		expect(memory.writes.size()).toBe(5);
	});
});
