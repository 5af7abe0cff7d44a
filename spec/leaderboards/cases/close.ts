import { expect, it } from "@rbxts/jest-globals";
import { Kernel } from "../../../kernel";
import {
	DEADLINE_EXCEEDED,
	LeaderboardOptions,
	Leaderboards,
	NO_PROGRESS,
	Topics,
} from "../../../plugins/leaderboards";
import { FAILED_WINDOWS, drainPause } from "../../../plugins/leaderboards/internal";
import { MemoryBackend } from "../doubles";

// What every Flusher owes the close: the default Drainer runs its windows (runWindow with DrainLimits) until
// the queue is empty or ShutdownSeconds. Drainer.spec.ts runs these on the default Flusher,
// spec/packaging/stages.spec.ts on the example that writes only at the close (examples/stages).

/** Boards Kills and BestTime (Ascending) on `backend`, the Flusher under test in place, SkipLoop, with these options. */
export type CloseSubject = (options: Partial<LeaderboardOptions> & { backend: MemoryBackend }) => {
	boards: Leaderboards;
	kernel: Kernel;
};

export function closeCases(attachWith: CloseSubject) {
	// Kills k1..k<count> = 1..count queued.
	const queued = (count: number, backend = new MemoryBackend(), options: object = {}) => {
		const setup = attachWith({ backend, ...options });
		for (let i = 1; i <= count; i++) setup.boards.submit("Kills", `k${i}`, i);
		return { ...setup, backend };
	};

	it("destroy() with an empty queue completes at once", () => {
		const { boards } = queued(0);
		const [complete, result] = boards.destroy();
		expect(complete).toBe(true);
		expect(result).toEqual({ Complete: true, Remaining: 0, InFlight: 0, Failed: 0 });
	});

	it("destroy() drains everything queued", () => {
		const { boards, backend } = queued(5);
		const [complete, result] = boards.destroy();
		expect(complete).toBe(true);
		expect(result).toEqual({ Complete: true, Remaining: 0, InFlight: 0, Failed: 0 });
		expect(backend.storeOf("Kills").get("k5")).toBe(5);
		expect(boards.Stats.Written).toBe(5);
	});

	it("drains over several capped windows, WritesPerFlush in each", () => {
		const { boards, kernel } = queued(7, new MemoryBackend(), { WritesPerFlush: 2 });
		const windows = new Array<number>();
		kernel.Bus.subscribe(Topics.Flushed, (_, summary) => windows.push(summary.Attempted));
		const [complete] = boards.destroy();
		expect(complete).toBe(true);
		expect(windows).toEqual([2, 2, 2, 1]);
	});

	it("writes through the board's rule: a worse value does not replace the better one stored", () => {
		const backend = new MemoryBackend();
		backend.storeOf("Kills").set("a", 10);
		const { boards } = attachWith({ backend });
		boards.submit("Kills", "a", 5);
		boards.submit("BestTime", "a", 41_250);
		boards.destroy();
		expect(backend.get("Kills", "a")).toBe(10);
		expect(backend.get("BestTime", "a")).toBe(41_250);
	});

	it("a removal queued lands at the close: the store loses the key and Leaderboard.Removed publishes", () => {
		const backend = new MemoryBackend();
		backend.storeOf("Kills").set("a", 10);
		const { boards, kernel } = attachWith({ backend });
		const removed = new Array<string>();
		kernel.Bus.subscribe(Topics.Removed, (_, board, key) => removed.push(`${board}:${key}`));
		boards.remove("Kills", "a");
		const [complete] = boards.destroy();
		expect(complete).toBe(true);
		expect(backend.get("Kills", "a")).toBeUndefined();
		expect(removed).toEqual(["Kills:a"]);
	});

	it("after a window with failures waits 0.25 s, and never drops for MaxWriteAttempts", () => {
		const backend = new MemoryBackend();
		backend.failWrites = 1;
		const { boards } = queued(2, backend, { MaxWriteAttempts: 1 });
		const started = os.clock();
		const [complete, result] = boards.destroy();
		expect(complete).toBe(true);
		expect(result.Failed).toBe(1);
		expect(boards.Stats.Dropped).toBe(0);
		expect(os.clock() - started).toBeGreaterThanOrEqual(0.25);
		expect(backend.get("Kills", "k1")).toBe(1);
		expect(backend.get("Kills", "k2")).toBe(2);
	});

	it("retries a key through failures: one key failing twice is stored, the pause growing after each failing window", () => {
		const backend = new MemoryBackend();
		backend.failWrites = 2;
		const { boards } = queued(1, backend, { ShutdownSeconds: 10 });
		const started = os.clock();
		const [complete, result] = boards.destroy();
		expect(result).toEqual({ Complete: true, Remaining: 0, InFlight: 0, Failed: 2 });
		expect(complete).toBe(true);
		expect(backend.writes.size()).toBe(3);
		expect(backend.get("Kills", "k1")).toBe(1);
		expect(os.clock() - started).toBeCloseTo(drainPause(1) + drainPause(2), 1);
	});

	it("a store that accepts nothing ends the drain after FAILED_WINDOWS windows: no progress, well inside 2 s", () => {
		const backend = new MemoryBackend();
		backend.failWrites = 1_000;
		const { boards } = queued(2, backend, { ShutdownSeconds: 10 });
		const started = os.clock();
		const [complete, result] = boards.destroy();
		expect(complete).toBe(false);
		expect(result).toEqual({ Complete: false, Remaining: 2, InFlight: 0, Failed: 10, Error: NO_PROGRESS });
		expect(backend.writes.size()).toBe(2 * FAILED_WINDOWS);
		expect(os.clock() - started).toBeLessThan(2);
	});

	it("waits for an empty request budget to refill, on the same deadline", () => {
		const backend = new MemoryBackend();
		backend.budgetValue = 0;
		const { boards } = queued(3, backend, { ShutdownSeconds: 2 });
		task.delay(1, () => (backend.budgetValue = 30));
		const [complete, result] = boards.destroy();
		expect(complete).toBe(true);
		expect(result.Remaining).toBe(0);
	});

	it("a budget that never refills ends at the deadline", () => {
		const backend = new MemoryBackend();
		backend.budgetValue = 0;
		const { boards } = queued(3, backend, { ShutdownSeconds: 2 });
		const started = os.clock();
		const [complete, result] = boards.destroy();
		expect(complete).toBe(false);
		expect(result).toEqual({ Complete: false, Remaining: 3, InFlight: 0, Failed: 0, Error: DEADLINE_EXCEEDED });
		expect(os.clock() - started).toBeCloseTo(2, 0);
	});
}
