import { afterEach, describe, expect, it } from "@rbxts/jest-globals";
import { Kernel, Priority } from "../../kernel";
import { Topics, WindowSummary, attach } from "../../plugins/leaderboards";
import { REFILL_SECONDS } from "../../plugins/leaderboards/internal";
import { Flusher } from "../../plugins/leaderboards/stages/Flusher/Flusher";
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

		it("the default backend's budget is the smallest of the server's ordered read and write budgets and its share of the experience's", () => {
			if (!gate) return;
			gate.reset();
			const boards = attach(new Kernel({ bindToClose: false }), {
				Boards: { Kills: {} },
				SkipLoop: true,
				WritesPerFlush: 100,
			});
			for (let i = 1; i <= 50; i++) boards.submit("Kills", `k${i}`, i);
			// No players: OrderedWrite 30 a minute and OrderedRead 60 on the server; its share of the
			// experience's (one player's worth: 0.9 x 20 writes, 0.9 x 40 reads) holds 18 writes.
			const window = boards._flush();
			expect(window.Budget).toBe(18);
			expect(window.Written).toBe(18);
			expect(gate.dataStore.budget("OrderedWrite")).toBe(12);
			expect(gate.dataStore.budget("OrderedRead")).toBe(42);
			expect(gate.dataStore.throttled()).toBe(0);
			const after = boards._flush();
			expect(after.Budget).toBe(0);
			expect(after.Attempted).toBe(0);
			gate.reset();
		});
	});

	describe("writes in flight", () => {
		it("keeps up to WritesInFlight writes in flight, each on its own thread", () => {
			const backend = new MemoryBackend();
			backend.writeSeconds = 1;
			const { boards } = boardsWith({ backend, WritesInFlight: 4 });
			for (let i = 1; i <= 10; i++) boards.submit("Kills", `k${i}`, i);
			const started = os.clock();
			const window = boards._flush();
			expect(window).toEqual({ Attempted: 10, Written: 10, Failed: 0, Budget: 30 });
			expect(backend.mostWriting).toBe(4);
			// Three rounds of overlapping writes, not ten one after another.
			expect(os.clock() - started).toBeCloseTo(3, 1);
			expect(new Set(backend.writes.map((w) => w.thread)).size()).toBe(10);
		});

		it("never more in flight than the window's budget", () => {
			const backend = new MemoryBackend();
			backend.writeSeconds = 1;
			backend.budgetValue = 3;
			const { boards } = boardsWith({ backend, WritesInFlight: 8 });
			for (let i = 1; i <= 10; i++) boards.submit("Kills", `k${i}`, i);
			expect(boards._flush().Attempted).toBe(3);
			expect(backend.mostWriting).toBe(3);
		});

		it("a submit for a key whose write is in flight waits for a later window: never two writes for one key", () => {
			const backend = new MemoryBackend();
			backend.writeSeconds = 1;
			const { boards } = boardsWith({ backend, Boards: { Level: { KeepBest: false } } });
			for (const key of ["a", "b", "c"]) boards.submit("Level", key, 10);
			task.delay(0.5, () => boards.submit("Level", "a", 5));
			expect(boards._flush().Attempted).toBe(3);
			expect(backend.writes.map((w) => w.key)).toEqual(["a", "b", "c"]);
			expect(backend.get("Level", "a")).toBe(10);
			expect(boards._flush().Attempted).toBe(1);
			expect(backend.get("Level", "a")).toBe(5);
		});

		it("a failure among overlapping writes goes back merged with anything newer; the others land", () => {
			const backend = new MemoryBackend();
			backend.writeSeconds = 1;
			backend.failWrites = 1;
			const { boards } = boardsWith({ backend });
			for (let i = 1; i <= 4; i++) boards.submit("Kills", `k${i}`, 10);
			task.delay(0.5, () => boards.submit("Kills", "k1", 7));
			expect(boards._flush()).toEqual({ Attempted: 4, Written: 3, Failed: 1, Budget: 30 });
			expect(boards.Stats).toEqual({ Submitted: 5, Written: 3, Failed: 1, Dropped: 0, Refused: 0 });
			expect(backend.get("Kills", "k1")).toBeUndefined();
			expect(boards._flush().Written).toBe(1);
			expect(backend.get("Kills", "k1")).toBe(10);
		});

		it("a write past RequestSeconds counts as failed; its key is written again only once the request returns", () => {
			const backend = new MemoryBackend();
			backend.slowOnce.set("a", 8);
			const { boards } = boardsWith({ backend, RequestSeconds: 5 });
			boards.submit("Kills", "a", 10);
			boards.submit("Kills", "b", 3);
			const started = os.clock();
			expect(boards._flush()).toEqual({ Attempted: 2, Written: 1, Failed: 1, Budget: 30 });
			expect(os.clock() - started).toBeCloseTo(5, 1);
			boards.submit("Kills", "a", 12);
			// Never two writes for one key: the first is still out.
			expect(boards._flush().Attempted).toBe(0);
			task.wait(3); // the first write lands late (within its hold), and counts in Written
			expect(backend.get("Kills", "a")).toBe(10);
			expect(boards.Stats).toEqual({ Submitted: 3, Written: 2, Failed: 1, Dropped: 0, Refused: 0 });
			expect(boards._flush().Written).toBe(1);
			expect(backend.get("Kills", "a")).toBe(12);
		});

		it("a write that never returns does not wedge the board: it fails at RequestSeconds, other keys keep flowing", () => {
			const backend = new MemoryBackend();
			backend.hangWrites = 1;
			const { boards } = boardsWith({ backend, SkipLoop: false, FlushSeconds: 15 });
			boards.submit("Kills", "a", 1);
			task.wait(26); // the window at 15 s counts its write failed at 25 s
			expect(boards.Stats.Failed).toBe(1);
			boards.submit("Kills", "b", 1);
			expect(boards.flushNow()).toEqual({ Attempted: 1, Written: 1, Failed: 0, Budget: 30 });
			// "a" is held until 35 s, then given up on; the window at 50 s writes it.
			task.wait(20);
			expect(backend.writes.filter((w) => w.key === "a").size()).toBe(1);
			task.wait(5);
			expect(backend.get("Kills", "a")).toBe(1);
		});

		it("a hung write among several in flight: the others land and free their slots, the window ends at RequestSeconds", () => {
			const backend = new MemoryBackend();
			backend.writeSeconds = 1;
			backend.hangWrites = 1;
			const { boards } = boardsWith({ backend, WritesInFlight: 2, RequestSeconds: 5 });
			for (let i = 1; i <= 5; i++) boards.submit("Kills", `k${i}`, i);
			const started = os.clock();
			expect(boards._flush()).toEqual({ Attempted: 5, Written: 4, Failed: 1, Budget: 30 });
			// k2..k5 went through the other slot one after another while k1 hung.
			expect(os.clock() - started).toBeCloseTo(5, 1);
			for (let i = 2; i <= 5; i++) expect(backend.get("Kills", `k${i}`)).toBe(i);
			// k1 waits for its request.
			expect(boards._flush()).toEqual({ Attempted: 0, Written: 0, Failed: 0, Budget: 30 });
		});

		it("disarm stops a window from starting more writes; those in flight finish", () => {
			const backend = new MemoryBackend();
			backend.writeSeconds = 1;
			const { boards, kernel } = boardsWith({ backend, WritesInFlight: 2 });
			for (let i = 1; i <= 6; i++) boards.submit("Kills", `k${i}`, i);
			let window: WindowSummary | undefined;
			task.spawn(() => (window = boards.flushNow()));
			task.wait(0.5);
			kernel.get<Flusher>("Leaderboards.Flusher").disarm();
			task.wait(2);
			expect(window).toEqual({ Attempted: 2, Written: 2, Failed: 0, Budget: 30 });
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
			// The writes did not hold the scheduler: a deadline due mid-window fired on time.
			expect(marker).toBeCloseTo(15.5, 1);
			expect(windows[0]).toBeGreaterThanOrEqual(16);
		});

		it("re-arms only while work remains: a submit during a window waits FlushSeconds; an idle server has no deadline pending", () => {
			const backend = new MemoryBackend();
			backend.writeSeconds = 1;
			const { boards, kernel } = boardsWith({ backend, SkipLoop: false, FlushSeconds: 15 });
			boards.submit("Kills", "a", 1);
			task.delay(15.5, () => boards.submit("Kills", "b", 1));
			task.wait(17);
			expect(backend.writes.map((w) => w.key)).toEqual(["a"]);
			expect(kernel.Scheduler.pending()).toBe(1);
			task.wait(13);
			expect(backend.writes.size()).toBe(1);
			task.wait(3);
			expect(backend.writes.map((w) => w.key)).toEqual(["a", "b"]);
			expect(kernel.Scheduler.pending()).toBe(0);
			task.wait(60);
			expect(backend.writes.size()).toBe(2);
		});

		it("under a backlog the next window comes at once when WritesPerFlush was the cap", () => {
			const { boards, kernel, backend } = boardsWith({ SkipLoop: false, FlushSeconds: 15, WritesPerFlush: 2 });
			const windows = new Array<number>();
			kernel.Bus.subscribe(Topics.Flushed, (_, summary) => windows.push((summary as WindowSummary).Attempted));
			for (const key of ["a", "b", "c", "d", "e"]) boards.submit("Kills", key, 1);
			task.wait(14);
			expect(backend.writes.size()).toBe(0);
			task.wait(2);
			expect(windows).toEqual([2, 2, 1]);
			expect(backend.writes.size()).toBe(5);
			expect(kernel.Scheduler.pending()).toBe(0);
		});

		it("a round gives each key queued when it began one write: a key queued again during it waits FlushSeconds", () => {
			const { boards, kernel, backend } = boardsWith({ SkipLoop: false, FlushSeconds: 15, WritesPerFlush: 2 });
			const started = os.clock();
			const windows = new Array<number>();
			kernel.Bus.subscribe(Topics.Flushed, () => windows.push(math.round(os.clock() - started)));
			for (const key of ["a", "b", "c", "d", "e"]) boards.submit("Kills", key, 1);
			kernel.Bus.subscribe(Topics.Flushed, () => {
				if (windows.size() === 1) boards.submit("Kills", "a", 2); // improved after its write
			});
			task.wait(16);
			// The third window takes only e, the round's last key, though a is queued again.
			expect(backend.writes.map((w) => w.key)).toEqual(["a", "b", "c", "d", "e"]);
			task.wait(15);
			expect(backend.writes.map((w) => `${w.key}=${w.value}`)).toEqual([
				"a=1",
				"b=1",
				"c=1",
				"d=1",
				"e=1",
				"a=2",
			]);
			expect(windows).toEqual([15, 15, 15, 30]);
		});

		it("under a backlog the request budget held back, the next window comes REFILL_SECONDS later", () => {
			const backend = new MemoryBackend();
			backend.budgetValue = 1;
			const { boards, kernel } = boardsWith({ backend, SkipLoop: false, FlushSeconds: 15 });
			const started = os.clock();
			const windows = new Array<number>();
			kernel.Bus.subscribe(Topics.Flushed, () => windows.push(math.round(os.clock() - started)));
			for (const key of ["a", "b", "c"]) boards.submit("Kills", key, 1);
			task.wait(20);
			expect(windows).toEqual([15, 15 + REFILL_SECONDS, 15 + 2 * REFILL_SECONDS]);
			expect(backend.writes.size()).toBe(3);
		});

		it("a window with failures waits FlushSeconds even under a backlog: MaxWriteAttempts still counts slow windows", () => {
			const backend = new MemoryBackend();
			backend.failWrites = 1;
			const { boards } = boardsWith({ backend, SkipLoop: false, FlushSeconds: 15, WritesPerFlush: 1 });
			for (const key of ["a", "b", "c"]) boards.submit("Kills", key, 1);
			task.wait(16);
			expect(backend.writes.size()).toBe(1);
			expect(boards.Stats.Failed).toBe(1);
			task.wait(14);
			expect(backend.writes.size()).toBe(1);
			task.wait(2);
			expect(backend.writes.map((w) => w.key)).toEqual(["a", "b", "c", "a"]);
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

describe("prompt windows", () => {
	it("a record that comes due while another window runs is written the moment that window ends", () => {
		const backend = new MemoryBackend();
		for (let i = 1; i <= 10; i++) backend.storeOf("Kills").set(`top${i}`, 100 + i);
		backend.writeSeconds = 2;
		const { boards } = boardsWith({ backend, Boards: { Kills: {} }, SkipLoop: false, FlushSeconds: 5 });
		boards.top("Kills"); // the cached page: a submit past 101 enters its top 10
		const started = os.clock();
		const starts = new Array<number>();
		backend.duringWrite = () => starts.push(os.clock() - started);
		for (const key of ["b", "c", "d"]) boards.submit("Kills", key, 1);
		// The ordinary window begins at 5 s and runs 2 s; the record's prompt comes due within it.
		task.delay(5.2, () => boards.submit("Kills", "a", 1_000));
		task.wait(12);
		expect(backend.get("Kills", "a")).toBe(1_000);
		const [recordStart] = backend.writes.filter((w) => w.key === "a").map((w) => backend.writes.indexOf(w));
		expect(starts[recordStart]).toBeGreaterThanOrEqual(7);
		expect(starts[recordStart]).toBeLessThan(7.1);
		boards.destroy();
	});

	it("a record flagged while a window still has keys to write takes that window's next write", () => {
		const backend = new MemoryBackend();
		for (let i = 1; i <= 10; i++) backend.storeOf("Kills").set(`top${i}`, 100 + i);
		backend.writeSeconds = 1;
		const { boards } = boardsWith({
			backend,
			Boards: { Kills: {} },
			SkipLoop: false,
			FlushSeconds: 5,
			WritesInFlight: 2,
		});
		boards.top("Kills");
		const started = os.clock();
		const starts = new Array<number>();
		backend.duringWrite = () => starts.push(os.clock() - started);
		for (const key of ["b", "c", "d", "e", "f", "g"]) boards.submit("Kills", key, 1);
		// The ordinary window begins at 5 s, two writes at a time of 1 s each: it ends at 8 s.
		task.delay(5.2, () => boards.submit("Kills", "a", 1_000));
		// The key it displaced goes in the next window.
		task.wait(15);
		const [recordStart] = backend.writes.filter((w) => w.key === "a").map((w) => backend.writes.indexOf(w));
		expect(starts[recordStart]).toBeGreaterThanOrEqual(6);
		expect(starts[recordStart]).toBeLessThan(6.1);
		expect(backend.get("Kills", "a")).toBe(1_000);
		for (const key of ["b", "c", "d", "e", "f", "g"]) expect(backend.get("Kills", key)).toBe(1);
		boards.destroy();
	});
});
