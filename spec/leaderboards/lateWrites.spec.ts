import { describe, expect, it } from "@rbxts/jest-globals";
import { QueueStage, Topics } from "../../plugins/leaderboards";
import { MemoryBackend, boardsWith } from "./doubles";

// A write past RequestSeconds goes back to the queue while its request is
// still out: the key is held RequestSeconds more for the answer, which is
// applied to what went back; then the write is given up on (a transform of it
// writes nothing from then) and a later window writes the key (issues 13 and 14).
function slow(seconds: number, options: object = {}) {
	const backend = new MemoryBackend();
	backend.slowOnce.set("a", seconds);
	const setup = boardsWith({ backend, RequestSeconds: 5, ...options });
	const queue = setup.kernel.get<QueueStage>("Leaderboards.Queue");
	return { ...setup, queue };
}

describe("late answers", () => {
	it("one attempt per key per window: a key held behind a late write is no second turn for a failed one", () => {
		const { boards, backend } = slow(8);
		boards.submit("Kills", "a", 1);
		expect(boards._flush().Failed).toBe(1);
		boards.submit("Kills", "a", 2);
		boards.submit("Kills", "b", 1);
		backend.failWrites = 5;
		expect(boards._flush()).toEqual({ Attempted: 1, Written: 0, Failed: 1, Budget: 30 });
		expect(backend.writes.filter((w) => w.key === "b").size()).toBe(1);
	});

	it("keep-newest: a late answer never overwrites a newer value", () => {
		const { boards, backend } = slow(8, { Boards: { Level: { KeepBest: false } } });
		boards.submit("Level", "a", 10);
		expect(boards._flush()).toEqual({ Attempted: 1, Written: 0, Failed: 1, Budget: 30 });
		boards.submit("Level", "a", 3);
		// The first request is still out: "a" waits for it.
		expect(boards._flush().Attempted).toBe(0);
		task.wait(8);
		expect(backend.get("Level", "a")).toBe(10);
		expect(boards._flush().Written).toBe(1);
		expect(backend.get("Level", "a")).toBe(3);
		expect(backend.writes.size()).toBe(2);
	});

	it("keep-newest: a late success of the value still queued drops it, counted in Written", () => {
		const { boards, backend, queue } = slow(8, { Boards: { Level: { KeepBest: false } } });
		boards.submit("Level", "a", 10);
		boards._flush();
		expect(queue.pending()).toBe(1);
		task.wait(8);
		expect(queue.pending()).toBe(0);
		expect(boards._flush().Attempted).toBe(0);
		expect(backend.get("Level", "a")).toBe(10);
		expect(boards.Stats).toEqual({ Submitted: 1, Written: 1, Failed: 1, Dropped: 0, Refused: 0 });
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
		const { boards, backend, queue } = slow(8);
		boards.submit("Kills", "a", 10);
		boards._flush();
		boards.submit("Kills", "a", 7);
		boards.submit("Kills", "b", 1);
		// b is written; a waits behind its first request.
		expect(boards._flush()).toEqual({ Attempted: 1, Written: 1, Failed: 0, Budget: 30 });
		expect(backend.writes.map((w) => w.key)).toEqual(["a", "b"]);
		task.wait(8);
		expect(backend.get("Kills", "a")).toBe(10);
		expect(queue.pending()).toBe(0);
	});

	it("keep-best: a better value queued since is written after the late answer", () => {
		const { boards, backend } = slow(8);
		boards.submit("Kills", "a", 10);
		boards._flush();
		boards.submit("Kills", "a", 12);
		task.wait(8);
		expect(boards._flush().Written).toBe(1);
		expect(backend.get("Kills", "a")).toBe(12);
	});

	it("a late failure changes nothing: the re-queued value is written once the request returned", () => {
		const { boards, backend, queue } = slow(8, { Boards: { Kills: { Sum: true } } });
		backend.failWrites = 1;
		boards.submit("Kills", "a", 1);
		boards._flush();
		expect(boards._flush().Attempted).toBe(0);
		task.wait(8);
		expect(backend.get("Kills", "a")).toBeUndefined();
		expect(queue.pending()).toBe(1);
		expect(boards.Stats).toEqual({ Submitted: 1, Written: 0, Failed: 1, Dropped: 0, Refused: 0 });
		expect(boards._flush().Written).toBe(1);
		expect(backend.get("Kills", "a")).toBe(1);
	});

	it("a write given up on long ago does not hold destroy(): it counts nowhere", () => {
		const backend = new MemoryBackend();
		backend.hangWrites = 1;
		const { boards } = boardsWith({ backend, RequestSeconds: 2, MaxWriteAttempts: 1, ShutdownSeconds: 3 });
		boards.submit("Kills", "a", 1);
		boards._flush(); // fails at its deadline and is dropped (MaxWriteAttempts 1); the request never returns
		task.wait(60);
		const [complete, result] = boards.destroy();
		expect(complete).toBe(true);
		expect(result).toEqual({ Complete: true, Remaining: 0, InFlight: 0, Failed: 0 });
	});
});

describe("a write that never returns", () => {
	it("holds its key RequestSeconds past its deadline; then a window writes the merged value, with no idle window between", () => {
		const backend = new MemoryBackend();
		backend.hangWrites = 1;
		const { boards, kernel } = boardsWith({ backend, RequestSeconds: 5, SkipLoop: false, FlushSeconds: 15 });
		let windows = 0;
		kernel.Bus.subscribe(Topics.Flushed, () => (windows += 1));
		boards.submit("Kills", "a", 10);
		task.wait(16); // the window at 15 s starts the write; it passes its deadline at 20 s
		boards.submit("Kills", "a", 12);
		task.wait(8.5); // 24.5 s: still held
		expect(windows).toBe(1);
		expect(backend.writes.size()).toBe(1);
		task.wait(16); // given up at 25 s; the next window comes FlushSeconds later, at 40 s
		expect(windows).toBe(2);
		expect(backend.get("Kills", "a")).toBe(12);
		expect(boards.Stats).toEqual({ Submitted: 2, Written: 1, Failed: 1, Dropped: 0, Refused: 0 });
		expect(kernel.get<QueueStage>("Leaderboards.Queue").pending()).toBe(0);
	});

	it("keep-newest: an answer that comes after the write was given up on writes nothing over the newer value", () => {
		const { boards, backend } = slow(30, { Boards: { Level: { KeepBest: false } } });
		boards.submit("Level", "a", 10);
		boards._flush(); // failed at 5 s; the request is out until 30 s
		boards.submit("Level", "a", 3);
		task.wait(5.5); // given up at 10 s
		expect(boards._flush().Written).toBe(1);
		expect(backend.get("Level", "a")).toBe(3);
		task.wait(20); // the old request runs its transform now: it writes nothing
		expect(backend.get("Level", "a")).toBe(3);
		expect(backend.mostWriting).toBe(2);
	});

	it("Sum: an answer after the write was given up on adds nothing; its retry carried the kills once", () => {
		const { boards, backend } = slow(30, { Boards: { Kills: { Sum: true } } });
		boards.submit("Kills", "a", 1);
		boards._flush();
		boards.submit("Kills", "a", 2);
		task.wait(5.5);
		expect(boards._flush().Written).toBe(1);
		expect(backend.get("Kills", "a")).toBe(3);
		task.wait(20);
		expect(backend.get("Kills", "a")).toBe(3);
	});

	it("a drain gives up on a held write at once and writes its key", () => {
		const backend = new MemoryBackend();
		backend.hangWrites = 1;
		const { boards } = boardsWith({ backend, RequestSeconds: 5, ShutdownSeconds: 10 });
		boards.submit("Kills", "a", 10);
		boards._flush(); // failed at 5 s, held until 10 s
		boards.submit("Kills", "a", 12);
		const [complete, result] = boards.destroy();
		expect(result).toEqual({ Complete: true, Remaining: 0, InFlight: 0, Failed: 0 });
		expect(complete).toBe(true);
		expect(backend.get("Kills", "a")).toBe(12);
	});
});
