import { describe, expect, it } from "@rbxts/jest-globals";
import { Backend } from "../../plugins/leaderboards";
import { RECORD_ROOM, RESERVE_PART, drainReserve } from "../../plugins/leaderboards/internal";
import { MemoryBackend, boardsWith } from "./doubles";

// A store whose write budget refills at `perMinute` and holds a minute, as the engine's do; with
// `rate` it says so through budgetRate() (the default backend does).
function bucketBackend(memory: MemoryBackend, perMinute: number, rate: boolean): Backend {
	let tokens = perMinute;
	let updated = os.clock();
	const level = () => {
		tokens = math.min(perMinute, tokens + ((os.clock() - updated) * perMinute) / 60);
		updated = os.clock();
		return tokens;
	};
	const base = memory.asSetBackend();
	return {
		...base,
		set: (board, key, updater) => {
			if (level() < 1) return false;
			tokens -= 1;
			return base.set!(board, key, updater);
		},
		budget: () => math.floor(level()),
		budgetRate: rate ? () => perMinute : undefined,
	};
}

// A Kills board on the loop (FlushSeconds 5) over a 60-a-minute bucket, with budgetRate() when `rate`.
function loopBoards(rate: boolean, stored?: Map<string, number>) {
	const memory = new MemoryBackend();
	if (stored) for (const [key, value] of stored) memory.storeOf("Kills").set(key, value);
	const { boards } = boardsWith({
		backend: memory,
		Backend: bucketBackend(memory, 60, rate),
		Boards: { Kills: {} },
		SkipLoop: false,
		FlushSeconds: 5,
	});
	return { memory, boards };
}

// `keys` players score every second for `seconds` (more than the budget writes: a sustained
// backlog), then the server closes; what the drain left, and the writes made while playing.
function playAndClose(rate: boolean, keys: number, seconds: number) {
	const { memory, boards } = loopBoards(rate);
	for (let second = 1; second <= seconds; second++) {
		for (let key = 1; key <= keys; key++) boards.submit("Kills", `p${key}`, second);
		task.wait(1);
	}
	const played = memory.writes.size();
	const [complete, result] = boards.destroy();
	let stale = 0;
	for (let key = 1; key <= keys; key++) if (memory.get("Kills", `p${key}`) !== seconds) stale += 1;
	return { complete, remaining: result.Remaining, played, stale };
}

describe("the drain reserve", () => {
	it("is what half of ShutdownSeconds' refill would not write; none past half a minute's, or when nothing drains", () => {
		expect(drainReserve(90, 180, 10)).toBe(75);
		expect(drainReserve(30, 80, 10)).toBe(24);
		expect(drainReserve(3, 35, 10)).toBe(1);
		expect(drainReserve(2, 35, 10)).toBe(0);
		expect(drainReserve(0, 180, 10)).toBe(0);
		expect(drainReserve(105, 180, 10)).toBe(180 * RESERVE_PART);
		// Past what half a minute's budget could save, the close loses keys anyway: spend it now.
		expect(drainReserve(106, 180, 10)).toBe(0);
		expect(drainReserve(5_000, 80, 10)).toBe(0);
		expect(drainReserve(500, 180, 0)).toBe(0); // ShutdownSeconds 0 drains nothing
	});

	it("a server whose players outscore its write budget closes with every last score written", () => {
		const held = playAndClose(true, 30, 120);
		expect(held.complete).toBe(true);
		expect(held.remaining).toBe(0);
		expect(held.stale).toBe(0);
	}, 600_000);

	it("a backend without budgetRate() spends all of budget(): the same close leaves scores behind", () => {
		const spent = playAndClose(false, 30, 120);
		expect(spent.complete).toBe(false);
		expect(spent.stale).toBeGreaterThan(0);
	}, 600_000);

	it("costs steady throughput nothing but the reserve, built once", () => {
		const held = playAndClose(true, 30, 120);
		const spent = playAndClose(false, 30, 120);
		// 30 keys queued: the reserve is 30 - 5 = 25 writes of a 60-a-minute budget, and RECORD_ROOM for records.
		expect(held.played).toBeGreaterThanOrEqual(spent.played - drainReserve(30, 60, 10) - RECORD_ROOM - 1);
		expect(held.played).toBeLessThanOrEqual(spent.played);
	}, 600_000);

	it("leaves prompt windows room: under the backlog a record is still written within a second", () => {
		const stored = new Map<string, number>();
		for (let i = 1; i <= 10; i++) stored.set(`top${i}`, 1_000 + i);
		const { memory, boards } = loopBoards(true, stored);
		boards.top("Kills"); // the cached page: only a value past 1,001 enters its top 10
		for (let second = 1; second <= 90; second++) {
			for (let key = 1; key <= 30; key++) boards.submit("Kills", `p${key}`, second);
			if (second === 80) boards.submit("Kills", "star", 5_000);
			if (second === 81) expect(memory.get("Kills", "star")).toBe(5_000);
			task.wait(1);
		}
		boards.destroy();
	}, 600_000);

	it("is not held back from a burst: the first window after an idle spell spends all the budget allows", () => {
		const { memory, boards } = loopBoards(true);
		for (let key = 1; key <= 40; key++) boards.submit("Kills", `p${key}`, 1);
		task.wait(5.5);
		// Two windows (WritesPerFlush 30, then the rest at once): 40 of the 60 the budget holds.
		expect(memory.writes.size()).toBe(40);
		boards.destroy();
	});

	it("is not held back from a window a caller runs (_flush, flushNow)", () => {
		const memory = new MemoryBackend();
		const { boards } = boardsWith({ backend: memory, Backend: bucketBackend(memory, 60, true) });
		for (let key = 1; key <= 70; key++) boards.submit("Kills", `p${key}`, 1);
		expect(boards._flush().Written).toBe(30);
		expect(boards._flush().Written).toBe(30);
	});
});
