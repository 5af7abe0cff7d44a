import { afterEach, describe, expect, it } from "@rbxts/jest-globals";
import { Kernel, Service } from "../../kernel";
import {
	DEADLINE_EXCEEDED,
	NO_PROGRESS,
	QueueStage,
	ShutdownResult,
	StageContext,
	Topics,
	attach,
} from "../../plugins/leaderboards";
import { FAILED_WINDOWS, drainPause } from "../../plugins/leaderboards/internal";
import { headlessGate } from "../gate/control";
import { closeCases } from "./cases/close";
import { MemoryBackend, boardsWith } from "./doubles";

const gate = headlessGate();

function queued(count: number, backend = new MemoryBackend(), options: object = {}) {
	const setup = boardsWith({ backend, ...options });
	for (let i = 1; i <= count; i++) setup.boards.submit("Kills", `k${i}`, i);
	return setup;
}

describe("the close, as every Flusher owes it (cases/close.ts)", () => closeCases((options) => boardsWith(options)));

describe("destroy()", () => {
	it("never drops: a write in flight when destroy() begins that fails at MaxWriteAttempts is drained", () => {
		const backend = new MemoryBackend();
		const { boards } = boardsWith({ backend, MaxWriteAttempts: 1 });
		backend.slowOnce.set("a", 1);
		backend.failWrites = 1;
		boards.submit("Kills", "a", 10);
		task.spawn(() => boards._flush());
		task.wait(0.1);
		const [complete, result] = boards.destroy();
		expect([complete, result.Remaining]).toEqual([true, 0]);
		expect(boards.Stats.Dropped).toBe(0);
		expect(backend.get("Kills", "a")).toBe(10);
	});

	it("stops early when a window makes no progress: it had budget and attempted nothing", () => {
		// A game's own queue that reports work it never hands over.
		const stuck = (_: StageContext): QueueStage => ({
			Name: "Game.StuckQueue",
			submit() {
				return true;
			},
			pending() {
				return 1;
			},
			pendingOn() {
				return 1;
			},
			take() {
				return undefined;
			},
			waiting() {
				return 0;
			},
		});
		const { boards } = boardsWith({ Stages: { Queue: stuck } });
		const started = os.clock();
		const [complete, result] = boards.destroy();
		expect(complete).toBe(false);
		expect(result).toEqual({ Complete: false, Remaining: 1, InFlight: 0, Failed: 0, Error: NO_PROGRESS });
		expect(os.clock() - started).toBeLessThan(1);
	});

	it("drains as much as the default backend's request budget allows within ShutdownSeconds", () => {
		if (!gate) return;
		gate.reset();
		const boards = attach(new Kernel({ bindToClose: false }), { Boards: { Kills: {} }, SkipLoop: true });
		for (let i = 1; i <= 60; i++) boards.submit("Kills", `k${i}`, i);
		// No players: this server's share of the experience's writes, one player's worth (0.9 x 20 a
		// minute), holds 18 and refills 0.3 a second; the server's own 30 + 0 are not the limit.
		const [, result] = boards.destroy();
		const written = gate.dataStore.snapshot("CKBoard_Kills");
		let count = 0;
		for (const [] of written) count++;
		expect(count).toBeGreaterThanOrEqual(20);
		expect(result.Remaining).toBe(60 - count);
		expect(result.Error).toBe(DEADLINE_EXCEEDED);
		expect(gate.dataStore.throttled()).toBe(0);
		gate.reset();
	});

	it("the pause starts at FAILURE_PAUSE and grows x1.25 a failing window, up to 1 s", () => {
		expect([1, 2, 3, 4].map((n) => drainPause(n))).toEqual([0.25, 0.3125, 0.390625, 0.48828125]);
		expect(drainPause(8)).toBe(1);
		expect(FAILED_WINDOWS).toBe(5);
	});

	it("a window with one success breaks the streak: a store failing all but one write a window drains to the end", () => {
		const backend = new MemoryBackend();
		const { boards, kernel } = queued(6, backend, { ShutdownSeconds: 10, WritesPerFlush: 2, WritesInFlight: 1 });
		// Each window of two: the first write fails, the second lands.
		kernel.Bus.subscribe(Topics.Flushed, (_, summary) => {
			if ((summary as { Attempted: number }).Attempted === 2) backend.failWrites = 1;
		});
		backend.failWrites = 1;
		const [complete, result] = boards.destroy();
		expect(complete).toBe(true);
		expect(result.Remaining).toBe(0);
		for (let i = 1; i <= 6; i++) expect(backend.get("Kills", `k${i}`)).toBe(i);
	});

	it("at the deadline every write still unresolved counts in InFlight and Remaining; they may commit later", () => {
		const backend = new MemoryBackend();
		backend.writeSeconds = 15;
		const { boards } = queued(3, backend, { ShutdownSeconds: 10, RequestSeconds: 30 });
		task.spawn(() => boards.flushNow());
		task.wait(1);
		expect(backend.writing).toBe(3);
		const started = os.clock();
		const [complete, result] = boards.destroy();
		expect(os.clock() - started).toBeCloseTo(10, 0);
		expect(complete).toBe(false);
		expect(result).toEqual({ Complete: false, Remaining: 3, InFlight: 3, Failed: 0, Error: DEADLINE_EXCEEDED });
		expect(backend.get("Kills", "k1")).toBeUndefined();
		task.wait(5);
		for (let i = 1; i <= 3; i++) expect(backend.get("Kills", `k${i}`)).toBe(i);
	});

	it("a drain window's write that never returns is unresolved at the deadline; its window's other writes land", () => {
		const backend = new MemoryBackend();
		backend.hangWrites = 1;
		const { boards } = queued(2, backend, { ShutdownSeconds: 3 });
		const [complete, result] = boards.destroy();
		expect(complete).toBe(false);
		expect(result).toEqual({ Complete: false, Remaining: 1, InFlight: 1, Failed: 0, Error: DEADLINE_EXCEEDED });
		expect(backend.get("Kills", "k2")).toBe(2);
	});

	it("joins every write in flight before its own windows; each key is written once", () => {
		const backend = new MemoryBackend();
		backend.writeSeconds = 2;
		const { boards } = queued(6, backend, { WritesInFlight: 3 });
		task.spawn(() => boards.flushNow());
		task.wait(0.5);
		expect(backend.writing).toBe(3);
		const [complete, result] = boards.destroy();
		expect(complete).toBe(true);
		expect(result.Remaining).toBe(0);
		expect(backend.writes.map((w) => w.key)).toEqual(["k1", "k2", "k3", "k4", "k5", "k6"]);
		expect(backend.mostWriting).toBe(3);
		expect(boards.Stats.Written).toBe(6);
	});

	it("a write past RequestSeconds during the drain is given up on at once: the next window writes its key", () => {
		const backend = new MemoryBackend();
		backend.hangWrites = 1;
		const { boards } = queued(2, backend, { ShutdownSeconds: 10, RequestSeconds: 2 });
		const started = os.clock();
		const [complete, result] = boards.destroy();
		// k1 hangs until its deadline at 2 s; the window after the failure pause writes it again.
		expect(os.clock() - started).toBeCloseTo(2.25, 1);
		expect(backend.get("Kills", "k1")).toBe(1);
		expect(backend.get("Kills", "k2")).toBe(2);
		expect(backend.writes.size()).toBe(3);
		expect(complete).toBe(true);
		expect(result).toEqual({ Complete: true, Remaining: 0, InFlight: 0, Failed: 1 });
	});

	it("a flush error ends the drain with its message", () => {
		const memory = new MemoryBackend();
		const backend = {
			...memory.asSetBackend(),
			budget: (): number => error("budget service down", 0),
		};
		const { boards } = queued(2, memory, { Backend: backend });
		const [complete, result] = boards.destroy();
		expect(complete).toBe(false);
		expect(result).toEqual({ Complete: false, Remaining: 2, InFlight: 0, Failed: 0, Error: "budget service down" });
	});

	it("ShutdownSeconds = 0 drains nothing", () => {
		const { boards, backend } = queued(2, new MemoryBackend(), { ShutdownSeconds: 0 });
		const [complete, result] = boards.destroy();
		expect(complete).toBe(false);
		expect(result).toEqual({ Complete: false, Remaining: 2, InFlight: 0, Failed: 0, Error: DEADLINE_EXCEEDED });
		expect(backend.writes.size()).toBe(0);
	});

	it("repeated and concurrent callers share one drain and one frozen result", () => {
		const backend = new MemoryBackend();
		backend.writeSeconds = 1;
		const { boards, kernel } = queued(3, backend);
		let drains = 0;
		kernel.Bus.subscribe(Topics.Draining, () => drains++);
		let other: ShutdownResult | undefined;
		task.spawn(() => (other = boards.destroy()[1]));
		const [, result] = boards.destroy();
		expect(other).toBe(result);
		expect(boards.destroy()[1]).toBe(result);
		expect(table.isfrozen(result)).toBe(true);
		expect(drains).toBe(1);
		expect(backend.writes.size()).toBe(3);
	});

	it("cancelling a caller's thread does not cancel the drain", () => {
		const backend = new MemoryBackend();
		backend.writeSeconds = 1;
		const { boards } = queued(3, backend);
		const caller = task.spawn(() => boards.destroy());
		task.wait(0.5);
		task.cancel(caller);
		task.wait(5);
		expect(backend.get("Kills", "k3")).toBe(3);
		const [complete] = boards.destroy();
		expect(complete).toBe(true);
	});

	it("refuses submits after destroy", () => {
		const { boards } = queued(1);
		boards.destroy();
		expect(boards.submit("Kills", "late", 1)).toBe(false);
	});

	it("cancels the pending flush window: no flush after destroy", () => {
		const backend = new MemoryBackend();
		const { boards, kernel } = queued(2, backend, { SkipLoop: false, FlushSeconds: 15 });
		expect(kernel.Scheduler.pending()).toBe(1);
		boards.destroy();
		expect(kernel.Scheduler.pending()).toBe(0);
		const written = backend.writes.size();
		task.wait(30);
		expect(backend.writes.size()).toBe(written);
	});

	it("a backend that calls destroy() from inside one of several writes in flight gets a pending result at once", () => {
		const backend = new MemoryBackend();
		backend.writeSeconds = 1;
		const { boards } = queued(3, backend);
		let inner: ShutdownResult | undefined;
		backend.duringWrite = () => {
			if (backend.writes.size() < 2) return;
			backend.duringWrite = undefined;
			inner = boards.destroy()[1];
		};
		boards.flushNow();
		// k1 and k2 were in flight, k3 still queued.
		expect(inner).toEqual({ Complete: false, Remaining: 3, InFlight: 2, Failed: 0 });
		const [complete] = boards.destroy();
		expect(complete).toBe(true);
		for (let i = 1; i <= 3; i++) expect(backend.get("Kills", `k${i}`)).toBe(i);
	});

	it("a backend that calls destroy() from inside its own write gets a pending result at once", () => {
		const backend = new MemoryBackend();
		const { boards } = queued(2, backend);
		let inner: [boolean, ShutdownResult] | undefined;
		backend.duringWrite = () => {
			backend.duringWrite = undefined;
			const [complete, result] = boards.destroy();
			inner = [complete, result];
		};
		boards.flushNow();
		expect(inner![0]).toBe(false);
		expect(inner![1].InFlight).toBe(1);
		expect(inner![1].Complete).toBe(false);
		const [complete] = boards.destroy();
		expect(complete).toBe(true);
		expect(backend.get("Kills", "k2")).toBe(2);
	});

	it("the kernel's stop() drains: the Leaderboards service stops with the server", () => {
		const { boards, kernel, backend } = queued(3);
		kernel.start();
		const result = kernel.stop();
		expect(result.complete).toBe(true);
		expect(backend.get("Kills", "k3")).toBe(3);
		expect(boards.submit("Kills", "x", 1)).toBe(false);
	});
});

describe("the server closing, with the design document's BoardService", () => {
	afterEach(() => gate?.reset());

	it("every submitted score is in the OrderedDataStore after the close", () => {
		if (!gate) return;
		gate.reset();
		const example = game
			.GetService("ServerScriptService")
			.WaitForChild("Leaderboards")
			.WaitForChild("examples")
			.WaitForChild("luau")
			.WaitForChild("BoardService") as ModuleScript;
		const kernel = new Kernel();
		kernel.add(example);
		kernel.start();
		const sessions = new Array<{ Player: Player; Profile: { Data: { Kills: number } } }>();
		for (let id = 1; id <= 8; id++)
			sessions.push({ Player: gate.players.join({ UserId: id }), Profile: { Data: { Kills: 0 } } });
		for (let round = 0; round < 5; round++)
			for (const session of sessions)
				if (session.Player.UserId <= round + 4) kernel.Bus.publish("Combat.Kill", session);
		for (const session of sessions) kernel.Bus.publish("Run.Finished", session, 40 + session.Player.UserId * 1.5);
		task.wait(1);
		const [complete] = gate.closeServer();
		expect(complete).toBe(true);
		const kills = gate.dataStore.snapshot("CKBoard_Kills");
		const times = gate.dataStore.snapshot("CKBoard_BestTime");
		const today = gate.dataStore.snapshot(`CKBoard_DailyKills@${os.date("!%Y-%m-%d")}`);
		for (const session of sessions) {
			const key = tostring(session.Player.UserId);
			expect(kills.get(key)).toBe(session.Profile.Data.Kills);
			expect(times.get(key)).toBe(math.round((40 + session.Player.UserId * 1.5) * 1000));
			expect(today.get(key)).toBe(session.Profile.Data.Kills);
		}
		const service = kernel.get("BoardService") as Service & { Boards: { Stats: { Written: number } } };
		// One write per key and board: 8 bests, 8 times, and 8 daily sums of the kills.
		expect(service.Boards.Stats.Written).toBe(24);
	});
});
