import { expect } from "@rbxts/jest-globals";
import { HeadlessGate } from "../gate/control";
import { leanBoards } from "../gate/servers";

// Issue 26's cases on many servers, run at light sizes by spec/leaderboards/experience.spec.ts and at
// the larger ones by spec/scale (npm run scale).

const KINDS = ["OrderedRead", "OrderedWrite", "OrderedList", "OrderedRemove"];
const experienceDrops = (gate: HeadlessGate) =>
	KINDS.reduce((sum, kind) => sum + gate.dataStore.dropped(`${kind}ExperienceThrottled`), 0);

/**
 * `servers` lean servers of `players` players each under a write backlog (every player improves one of
 * 50 keys every second): 0 throttled at either level, the second minute's writes within the
 * experience's 300 + 20 x CCU and the servers' shares, and most of what each server's budgets allow.
 */
export function expectShareHolds(gate: HeadlessGate, servers: number, players: number) {
	const running = new Array<ReturnType<typeof leanBoards>>();
	for (let i = 1; i <= servers; i++) running.push(leanBoards(gate, i, players, { Boards: { Kills: {} } }));
	const playing = task.spawn(() => {
		for (let second = 1; ; second++) {
			for (const { boards, players: joined } of running)
				for (const player of joined) boards.submit("Kills", `${player.UserId}:${second % 50}`, second);
			task.wait(1);
		}
	});
	task.wait(60);
	const before = gate.dataStore.calls("UpdateAsync");
	task.wait(60);
	const minute = gate.dataStore.calls("UpdateAsync") - before;
	task.cancel(playing);
	for (const { kernel } of running) kernel.stop();
	expect(gate.dataStore.throttled()).toBe(0);
	expect(experienceDrops(gate)).toBe(0);
	// The data store limits page, "Access limits": ordered writes 300 + 20 x CCU a minute for the experience.
	expect(minute).toBeLessThanOrEqual(300 + 20 * servers * players);
	const share = 0.9 * 20 * math.max(1, players);
	expect(minute).toBeLessThanOrEqual((share + 2) * servers);
	// Rounds wait FlushSeconds between them: most, not all, of the smaller of a server's two budgets.
	expect(minute).toBeGreaterThanOrEqual(0.7 * math.min(30 + 5 * players, share) * servers);
}

/**
 * An Open Cloud tool spending half the experience's writes beside 30 one-player servers under a
 * backlog (more than the experience allows together): the servers meet experience throttling,
 * back off, and once the tool stops and the backlog drains, every accepted best is stored.
 */
export function expectOpenCloudNeighbour(gate: HeadlessGate) {
	// 30 one-player servers claim 0.9 x 20 writes a minute each: with the tool's half of
	// 300 + 20 x 30, more than the experience allows.
	const running = new Array<ReturnType<typeof leanBoards>>();
	for (let i = 1; i <= 30; i++) running.push(leanBoards(gate!, i, 1, { Boards: { Kills: {} } }));
	const tool = "universes/1/ordered-data-stores/Tool/scopes/global/entries";
	let on = true;
	task.spawn(() => {
		let owed = 0;
		let n = 0;
		while (on) {
			owed += (0.5 * gate.dataStore.experienceLimit("OrderedWrite")) / 60;
			for (; owed >= 1; owed -= 1) {
				n += 1;
				const id = n;
				task.spawn(() =>
					gate.openCloud.request("PATCH", `${tool}/t${id % 20}`, {
						query: { allowMissing: true },
						body: { value: id },
					}),
				);
			}
			task.wait(1);
		}
	});
	// Two minutes of more scores than any budget holds, then the tool stops and the backlog drains.
	const best = new Map<string, number>();
	for (let second = 1; second <= 120; second++) {
		for (const { boards, players } of running) {
			const key = `${players[0].UserId}:${second % 10}`;
			if (boards.submit("Kills", key, second)) best.set(key, second);
		}
		task.wait(1);
	}
	on = false;
	task.wait(120);
	for (const { kernel } of running) kernel.stop();
	const stored = gate.dataStore.snapshot("CKBoard_Kills");
	let missing = 0;
	for (const [key, value] of best) if ((stored.get(key) ?? 0) < value) missing += 1;
	expect(missing).toBe(0);
}
