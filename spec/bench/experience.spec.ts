import { describe, expect, it } from "@rbxts/jest-globals";
import { playExperience } from "../../bench/experience";
import { headlessGate } from "../gate/control";

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

// Issue 26's rows at a size npm test affords: 100 one-player servers on one experience, three
// boards, an Open Cloud tool spending 10% of the budget (npm run bench runs 100 x 1 for 5 minutes and 100 x 30).
// npm run bench measures today's design beside it.
describeGate("an experience of 100 servers", () => {
	it("nothing throttled or lost, pages read once a refresh, every record on every server within 5 s", () => {
		const size = { servers: 100, players: 1, minutes: 1.5, openCloud: 0.1 };
		const ours = playExperience(gate!, size, "ours");
		expect(ours.throttled).toBe(0);
		expect(ours.experienceThrottled).toBe(0);
		expect(ours.missing).toBe(0);
		expect(ours.around.answered / ours.around.calls).toBeGreaterThanOrEqual(0.9);
		expect(ours.friends.answered).toBe(ours.friends.calls);
		expect(ours.topListsPerMinute).toBeLessThanOrEqual(ours.listGoalPerMinute);
		expect(ours.records.seen).toBeGreaterThan(0);
		// Every record counted until every other server shows it (issue 47), the bench's 5 s goal: 4.4-4.5 s
		// at p99 here (5.8 s before announcements took turns on two topics and prompt windows came in 0.1 s).
		expect(ours.freshnessP99).toBeLessThanOrEqual(5);
		expect(ours.memoryShare).toBeLessThanOrEqual(0.1);
		expect(ours.messagesRefused).toBe(0);
	}, 3_600_000);
});

// One server whose players score on three boards every 5 s, far past its write budget (30 + 5 a
// player a minute): the windows keep the drain reserve, so the close writes every last best.
describeGate("one busy server closing", () => {
	for (const players of [10, 30])
		it(`${players} players: every accepted best is stored once the server closed`, () => {
			const figures = playExperience(gate!, { servers: 1, players, minutes: 3, openCloud: 0 }, "ours");
			expect(figures.bests).toBe(players);
			expect(figures.missing).toBe(0);
			expect(figures.incompleteDrains).toBe(0);
			expect(figures.throttled).toBe(0);
		}, 3_600_000);
});
