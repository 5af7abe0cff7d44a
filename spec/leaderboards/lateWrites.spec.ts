import { describe, expect, it } from "@rbxts/jest-globals";
import { DEADLINE_EXCEEDED, QueueStage } from "../../plugins/leaderboards";
import { MemoryBackend, boardsWith } from "./doubles";

// A write past RequestSeconds goes back to the queue while its request is
// still out: the key is not written again until that request returns, and its
// late outcome is applied to what went back (issues 13 and 14).
function slow(seconds: number, options: object = {}) {
	const backend = new MemoryBackend();
	backend.slowOnce.set("a", seconds);
	const setup = boardsWith({ backend, RequestSeconds: 5, ...options });
	const queue = setup.kernel.get<QueueStage>("Leaderboards.Queue");
	return { ...setup, queue };
}

describe("late answers", () => {
	it("keep-newest: a late answer never overwrites a newer value", () => {
		const { boards, backend } = slow(20, { Boards: { Level: { KeepBest: false } } });
		boards.submit("Level", "a", 10);
		expect(boards._flush()).toEqual({ Attempted: 1, Written: 0, Failed: 1, Budget: 30 });
		boards.submit("Level", "a", 3);
		// The first request is still out: "a" waits for it.
		expect(boards._flush().Attempted).toBe(0);
		task.wait(20);
		expect(backend.get("Level", "a")).toBe(10);
		expect(boards._flush().Written).toBe(1);
		expect(backend.get("Level", "a")).toBe(3);
		expect(backend.writes.size()).toBe(2);
	});

	it("keep-newest: a late success of the value still queued drops it, counted in Written", () => {
		const { boards, backend, queue } = slow(20, { Boards: { Level: { KeepBest: false } } });
		boards.submit("Level", "a", 10);
		boards._flush();
		expect(queue.pending()).toBe(1);
		task.wait(20);
		expect(queue.pending()).toBe(0);
		expect(boards._flush().Attempted).toBe(0);
		expect(backend.get("Level", "a")).toBe(10);
		expect(boards.Stats).toEqual({ Submitted: 1, Written: 1, Failed: 1, Dropped: 0 });
	});

	it("Sum: a late success is subtracted from the re-queued sum, so each kill counts once", () => {
		const { boards, backend, queue } = slow(8, { Boards: { Kills: { Sum: true } } });
		boards.submit("Kills", "a", 1);
		expect(boards._flush().Failed).toBe(1);
		expect(boards._flush().Attempted).toBe(0);
		task.wait(8);
		expect(backend.get("Kills", "a")).toBe(1);
		expect(queue.pending()).toBe(0);
		boards._flush();
		expect(backend.get("Kills", "a")).toBe(1);
	});

	it("Sum: kills submitted while the late request was out are written once, on top of it", () => {
		const { boards, backend } = slow(8, { Boards: { Kills: { Sum: true } } });
		boards.submit("Kills", "a", 1);
		boards._flush();
		boards.submit("Kills", "a", 2);
		boards._flush();
		task.wait(8);
		expect(boards._flush()).toEqual({ Attempted: 1, Written: 1, Failed: 0, Budget: 30 });
		expect(backend.get("Kills", "a")).toBe(3);
	});

	it("keep-best: never two writes for one key outstanding; a late best drops a worse value queued since", () => {
		const { boards, backend, queue } = slow(20);
		boards.submit("Kills", "a", 10);
		boards._flush();
		boards.submit("Kills", "a", 7);
		boards.submit("Kills", "b", 1);
		// b is written; a waits behind its first request.
		expect(boards._flush()).toEqual({ Attempted: 1, Written: 1, Failed: 0, Budget: 30 });
		expect(backend.writes.map((w) => w.key)).toEqual(["a", "b"]);
		task.wait(20);
		expect(backend.get("Kills", "a")).toBe(10);
		expect(queue.pending()).toBe(0);
	});

	it("keep-best: a better value queued since is written after the late answer", () => {
		const { boards, backend } = slow(20);
		boards.submit("Kills", "a", 10);
		boards._flush();
		boards.submit("Kills", "a", 12);
		task.wait(20);
		expect(boards._flush().Written).toBe(1);
		expect(backend.get("Kills", "a")).toBe(12);
	});

	it("a late failure changes nothing: the re-queued value is written once the request returned", () => {
		const { boards, backend, queue } = slow(20, { Boards: { Kills: { Sum: true } } });
		backend.failWrites = 1;
		boards.submit("Kills", "a", 1);
		boards._flush();
		expect(boards._flush().Attempted).toBe(0);
		task.wait(20);
		expect(backend.get("Kills", "a")).toBeUndefined();
		expect(queue.pending()).toBe(1);
		expect(boards.Stats).toEqual({ Submitted: 1, Written: 0, Failed: 1, Dropped: 0 });
		expect(boards._flush().Written).toBe(1);
		expect(backend.get("Kills", "a")).toBe(1);
	});

	it("a write that hung long ago makes destroy() incomplete with a reason, never Error nil", () => {
		const backend = new MemoryBackend();
		backend.hangWrites = 1;
		const { boards } = boardsWith({ backend, RequestSeconds: 2, MaxWriteAttempts: 1, ShutdownSeconds: 3 });
		boards.submit("Kills", "a", 1);
		boards._flush(); // fails at its deadline and is dropped (MaxWriteAttempts 1); the request never returns
		task.wait(60);
		const [complete, result] = boards.destroy();
		expect(complete).toBe(false);
		expect(result).toEqual({ Complete: false, Remaining: 0, InFlight: 1, Failed: 0, Error: DEADLINE_EXCEEDED });
	});

	it("a drain waits for a late request before writing its key again", () => {
		const { boards, backend } = slow(8, { ShutdownSeconds: 10 });
		boards.submit("Kills", "a", 10);
		boards._flush();
		boards.submit("Kills", "a", 12);
		const [complete, result] = boards.destroy();
		expect(complete).toBe(true);
		expect(result).toEqual({ Complete: true, Remaining: 0, InFlight: 0, Failed: 0 });
		expect(backend.get("Kills", "a")).toBe(12);
		expect(backend.mostWriting).toBe(1);
	});
});
