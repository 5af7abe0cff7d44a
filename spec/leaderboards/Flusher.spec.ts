import { afterEach, describe, expect, it } from "@rbxts/jest-globals";
import { Kernel, Priority } from "../../kernel";
import { Topics, WindowSummary, attach } from "../../plugins/leaderboards";
import { headlessGate } from "../gate/control";
import { captureLogs } from "../kernel/doubles";
import { MemoryBackend, boardsWith } from "./doubles";

const gate = headlessGate();

describe("flush windows", () => {
	describe("writes and failures", () => {
		it("a submit during a yielding write waits for a later window; the older write never overwrites it", () => {
			const backend = new MemoryBackend();
			backend.writeSeconds = 1;
			const { boards } = boardsWith({ backend, Boards: { Level: { KeepBest: false } } });
			boards.submit("Level", "a", 10);
			task.delay(0.5, () => boards.submit("Level", "a", 5));
			const first = boards._flush();
			expect(first.Written).toBe(1);
			expect(backend.get("Level", "a")).toBe(10);
			const second = boards._flush();
			expect(second.Written).toBe(1);
			expect(backend.get("Level", "a")).toBe(5);
		});

		it("a failed write goes back, merged with anything newer (the best of the two on keep-best)", () => {
			const backend = new MemoryBackend();
			backend.writeSeconds = 1;
			backend.failWrites = 1;
			const { boards } = boardsWith({ backend });
			boards.submit("Kills", "a", 10);
			task.delay(0.5, () => boards.submit("Kills", "a", 7));
			const window = boards._flush();
			expect(window.Failed).toBe(1);
			expect(boards.Stats.Failed).toBe(1);
			boards._flush();
			expect(backend.get("Kills", "a")).toBe(10);
		});

		it("a failed write on a KeepBest = false board keeps the newer value", () => {
			const backend = new MemoryBackend();
			backend.writeSeconds = 1;
			backend.failWrites = 1;
			const { boards } = boardsWith({ backend, Boards: { Level: { KeepBest: false } } });
			boards.submit("Level", "a", 10);
			task.delay(0.5, () => boards.submit("Level", "a", 3));
			boards._flush();
			boards._flush();
			expect(backend.get("Level", "a")).toBe(3);
		});

		it("an error thrown by the backend counts as a failed write", () => {
			const backend = new MemoryBackend();
			backend.throwWrites = 1;
			const { boards } = boardsWith({ backend });
			boards.submit("Kills", "a", 1);
			expect(boards._flush().Failed).toBe(1);
			expect(boards._flush().Written).toBe(1);
			expect(backend.get("Kills", "a")).toBe(1);
		});

		it("drops a value after MaxWriteAttempts consecutive failed windows, with a warning", () => {
			const logs = captureLogs();
			const backend = new MemoryBackend();
			backend.failWrites = 100;
			const { boards, kernel } = boardsWith({ backend, MaxWriteAttempts: 3 });
			const dropped = new Array<unknown[]>();
			kernel.Bus.subscribe(Topics.Dropped, (_, ...args) => dropped.push(args));
			boards.submit("Kills", "a", 5);
			for (let i = 0; i < 3; i++) boards._flush();
			logs.restore();
			expect(boards.Stats.Dropped).toBe(1);
			expect(boards.Stats.Failed).toBe(3);
			expect(boards._flush().Attempted).toBe(0);
			expect(dropped).toEqual([["Kills", "a", 5]]);
			expect(logs.messages("warn")).toEqual([
				"[Leaderboards] dropped Kills a = 5 after 3 failed write windows (MaxWriteAttempts)",
			]);
		});

		it("a success clears the failure count", () => {
			const backend = new MemoryBackend();
			const { boards } = boardsWith({ backend, MaxWriteAttempts: 3 });
			backend.failWrites = 2;
			boards.submit("Kills", "a", 5);
			for (let i = 0; i < 3; i++) boards._flush();
			expect(backend.get("Kills", "a")).toBe(5);
			backend.failWrites = 2;
			boards.submit("Kills", "a", 6);
			for (let i = 0; i < 3; i++) boards._flush();
			expect(boards.Stats.Dropped).toBe(0);
			expect(backend.get("Kills", "a")).toBe(6);
		});

		it("set writes through an updater that writes nothing when the stored value is as good", () => {
			const backend = new MemoryBackend();
			const { boards } = boardsWith({ backend });
			backend.storeOf("Kills").set("a", 50);
			backend.storeOf("BestTime").set("a", 1000);
			boards.submit("Kills", "a", 40);
			boards.submit("BestTime", "a", 1200);
			boards._flush();
			expect(backend.get("Kills", "a")).toBe(50);
			expect(backend.get("BestTime", "a")).toBe(1000);
		});

		it("prefers backend.submit over set, handing it the keep-best rule as data", () => {
			const backend = new MemoryBackend();
			const submitBackend = backend.asSubmitBackend();
			const { boards } = boardsWith({ backend, Backend: submitBackend });
			boards.submit("BestTime", "a", 900);
			boards.submit("Kills", "b", 3);
			boards._flush();
			expect(submitBackend.submitted).toEqual([
				["BestTime", "a", 900, true, true],
				["Kills", "b", 3, true, false],
			]);
		});
	});

	describe("budgets and rotation", () => {
		it("a window writes at most WritesPerFlush, across boards", () => {
			const { boards, backend } = boardsWith({ WritesPerFlush: 4 });
			for (let i = 1; i <= 10; i++) {
				boards.submit("Kills", `k${i}`, i);
				boards.submit("BestTime", `k${i}`, i);
			}
			expect(boards._flush().Attempted).toBe(4);
			expect(backend.writes.size()).toBe(4);
		});

		it("caps the window at the backend's budget() when it is smaller", () => {
			const backend = new MemoryBackend();
			backend.budgetValue = 2;
			const { boards } = boardsWith({ backend, WritesPerFlush: 30 });
			for (let i = 1; i <= 10; i++) boards.submit("Kills", `k${i}`, i);
			const window = boards._flush();
			expect(window.Budget).toBe(2);
			expect(window.Attempted).toBe(2);
		});

		it("walks boards in name order, one key per board per turn", () => {
			const { boards, backend } = boardsWith({
				Boards: { Alpha: {}, Bravo: {}, Charlie: {} },
				WritesPerFlush: 5,
			});
			for (const key of ["a1", "a2", "a3"]) boards.submit("Alpha", key, 1);
			boards.submit("Bravo", "b1", 1);
			for (const key of ["c1", "c2"]) boards.submit("Charlie", key, 1);
			boards._flush();
			expect(backend.writes.map((w) => w.key)).toEqual(["a1", "b1", "c1", "a2", "c2"]);
		});

		it("resumes after the board it wrote last: a chatty board cannot starve a quiet one across windows", () => {
			const { boards, backend } = boardsWith({ Boards: { Chatty: {}, Quiet: {} }, WritesPerFlush: 1 });
			for (let i = 1; i <= 5; i++) boards.submit("Chatty", `c${i}`, i);
			boards.submit("Quiet", "q1", 1);
			boards._flush();
			boards._flush();
			boards._flush();
			expect(backend.writes.map((w) => w.key)).toEqual(["c1", "q1", "c2"]);
		});

		it("gives each queued key one attempt per window", () => {
			const backend = new MemoryBackend();
			backend.failWrites = 100;
			const { boards } = boardsWith({ backend, WritesPerFlush: 30 });
			boards.submit("Kills", "a", 1);
			boards.submit("Kills", "b", 1);
			expect(boards._flush().Attempted).toBe(2);
		});

		it("the default backend's budget is the smaller of the ordered read and write budgets", () => {
			if (!gate) return;
			gate.reset();
			const boards = attach(new Kernel({ bindToClose: false }), {
				Boards: { Kills: {} },
				SkipLoop: true,
				WritesPerFlush: 100,
			});
			for (let i = 1; i <= 50; i++) boards.submit("Kills", `k${i}`, i);
			const window = boards._flush(); // no players: OrderedWrite 30 a minute, OrderedRead 60
			expect(window.Budget).toBe(30);
			expect(window.Written).toBe(30);
			expect(gate.dataStore.budget("OrderedWrite")).toBe(0);
			expect(gate.dataStore.budget("OrderedRead")).toBe(30);
			expect(gate.dataStore.throttled()).toBe(0);
			const after = boards._flush();
			expect(after.Budget).toBe(0);
			expect(after.Attempted).toBe(0);
			gate.reset();
		});
	});

	describe("the loop", () => {
		afterEach(() => gate?.reset());

		it("the first pending submit arms one Background deadline FlushSeconds later; the window runs off the scheduler step", () => {
			const backend = new MemoryBackend();
			backend.writeSeconds = 1;
			const { boards, kernel } = boardsWith({ backend, SkipLoop: false, FlushSeconds: 15 });
			const started = os.clock();
			expect(kernel.Scheduler.pending()).toBe(0);
			boards.submit("Kills", "a", 1);
			boards.submit("Kills", "b", 1);
			boards.submit("BestTime", "a", 1);
			expect(kernel.Scheduler.pending()).toBe(1);
			let marker = -1;
			kernel.Scheduler.after(15.5, Priority.Normal, () => (marker = os.clock() - started));
			const windows = new Array<number>();
			kernel.Bus.subscribe(Topics.Flushed, () => windows.push(os.clock() - started));
			task.wait(30);
			expect(windows.size()).toBe(1);
			expect(backend.writes.size()).toBe(3);
			expect(backend.writes[0].thread).never.toBe(backend.writes[1].thread);
			// The 3 s of writes did not hold the scheduler: a deadline due mid-window fired on time.
			expect(marker).toBeCloseTo(15.5, 1);
			expect(windows[0]).toBeGreaterThanOrEqual(18);
		});

		it("re-arms only while work remains; an idle server has no deadline pending", () => {
			const { boards, kernel, backend } = boardsWith({ SkipLoop: false, FlushSeconds: 15, WritesPerFlush: 2 });
			for (const key of ["a", "b", "c"]) boards.submit("Kills", key, 1);
			task.wait(16);
			expect(backend.writes.size()).toBe(2);
			expect(kernel.Scheduler.pending()).toBe(1);
			task.wait(15);
			expect(backend.writes.size()).toBe(3);
			expect(kernel.Scheduler.pending()).toBe(0);
			task.wait(60);
			expect(backend.writes.size()).toBe(3);
		});

		it("a window whose budget() errors does not wedge the loop: later windows still run", () => {
			const memory = new MemoryBackend();
			let broken = true;
			const backend = {
				...memory.asSetBackend(),
				budget: () => {
					if (broken) error("budget service down");
					return 30;
				},
			};
			const { boards, kernel } = boardsWith({
				backend: memory,
				Backend: backend,
				SkipLoop: false,
				FlushSeconds: 15,
			});
			boards.submit("Kills", "a", 1);
			task.wait(16); // the first window errors (reported on its thread)
			expect(memory.writes.size()).toBe(0);
			expect(kernel.Scheduler.pending()).toBe(1);
			broken = false;
			task.wait(15);
			expect(memory.get("Kills", "a")).toBe(1);
			expect(boards.flushNow()).toBeDefined();
		});

		it("SkipLoop never arms a window", () => {
			const { boards, kernel } = boardsWith({ SkipLoop: true });
			boards.submit("Kills", "a", 1);
			expect(kernel.Scheduler.pending()).toBe(0);
		});

		it("flushNow runs one capped window now, and returns at once while one is running", () => {
			const backend = new MemoryBackend();
			backend.writeSeconds = 2;
			const { boards } = boardsWith({ backend });
			boards.submit("Kills", "a", 1);
			let first: WindowSummary | undefined;
			task.spawn(() => (first = boards.flushNow()));
			const started = os.clock();
			expect(boards.flushNow()).toBeUndefined();
			expect(os.clock()).toBe(started);
			task.wait(3);
			expect(first?.Written).toBe(1);
		});
	});
});
