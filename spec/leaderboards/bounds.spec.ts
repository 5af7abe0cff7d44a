import { describe, expect, it } from "@rbxts/jest-globals";
import { Kernel } from "../../kernel";
import { BoardConfig, Topics, attach } from "../../plugins/leaderboards";
import { captureLogs, manualClock } from "../kernel/doubles";
import { boardsWith } from "./doubles";

// Bounds a game declares (issue 28): MinValue, MaxValue, MaxAddedPerMinute on a
// Sum board, Validate. A refused submit returns false, queues nothing (never a
// clamped value), counts in Stats.Refused, warns once per board and reason, and
// publishes Leaderboard.Refused (board, key, value, reason).

type Refusal = [board: string, key: string | undefined, value: unknown, reason: string];

function bounded(boards: Record<string, BoardConfig>) {
	const time = manualClock(1000);
	const made = boardsWith({ Boards: boards, Clock: time.clock });
	const refusals = new Array<Refusal>();
	made.kernel.Bus.subscribe(Topics.Refused, (_, board, key, value, reason) =>
		refusals.push([board, key, value, reason]),
	);
	return { ...made, time, refusals };
}

describe("bounds a board declares", () => {
	it("MinValue and MaxValue: false, nothing queued or clamped, counted, warned once per board and reason, published", () => {
		const { boards, backend, refusals } = bounded({ Kills: { MinValue: 0, MaxValue: 1000 }, Other: {} });
		const logs = captureLogs();
		expect(boards.submit("Kills", "a", 5)).toBe(true);
		expect(boards.submit("Kills", "a", 2 ** 50)).toBe(false);
		expect(boards.submit("Kills", "b", 1001)).toBe(false);
		expect(boards.submit("Kills", "c", -1)).toBe(false);
		expect(boards.submit("Kills", "a", 1000)).toBe(true);
		expect(boards.submit("Other", "a", 2 ** 50)).toBe(true);
		task.wait();
		logs.restore();
		expect(logs.messages("warn")).toEqual([
			"[Leaderboards] Kills: submit refused, the value is above MaxValue (got 1125899906842624, MaxValue 1000); this warning shows once per board",
			"[Leaderboards] Kills: submit refused, the value is below MinValue (got -1, MinValue 0); this warning shows once per board",
		]);
		expect(refusals).toEqual([
			["Kills", "a", 2 ** 50, "above MaxValue"],
			["Kills", "b", 1001, "above MaxValue"],
			["Kills", "c", -1, "below MinValue"],
		]);
		expect(boards.Stats.Refused).toBe(3);
		expect(boards.Stats.Submitted).toBe(3);
		boards._flush();
		expect(backend.stored.get("Kills")).toEqual(new Map([["a", 1000]]));
	});

	it("MaxAddedPerMinute: what one key adds in a clock minute on this server; a refused value adds nothing", () => {
		const { boards, time, refusals } = bounded({
			Coins: { Sum: true, NegativeDeltas: true, MaxAddedPerMinute: 100 },
		});
		time.advance(20); // 1020 s: minute 17 runs to 1080
		expect(boards.submit("Coins", "a", 60)).toBe(true);
		expect(boards.submit("Coins", "a", 41)).toBe(false);
		expect(boards.submit("Coins", "b", 100)).toBe(true); // another key's own minute
		expect(boards.submit("Coins", "a", -500)).toBe(true); // spending adds nothing
		expect(boards.submit("Coins", "a", 40)).toBe(true);
		expect(boards.submit("Coins", "a", 1)).toBe(false);
		time.advance(60); // the next minute
		expect(boards.submit("Coins", "a", 100)).toBe(true);
		task.wait();
		expect(refusals.map((refusal) => refusal[3])).toEqual(["over MaxAddedPerMinute", "over MaxAddedPerMinute"]);
		expect(boards.Stats.Refused).toBe(2);
	});

	it("Validate: called last with the key, the value and what is queued; a reason refuses, an error never reaches the game", () => {
		const calls = new Array<[string, number, number | undefined]>();
		const { boards, refusals } = bounded({
			Kills: {
				MaxValue: 1000,
				Validate: (key, value, previous) => {
					calls.push([key, value, previous]);
					if (value === 13) error("unlucky");
					if (value === 7) return false as unknown as string;
					return previous !== undefined && value > previous + 50 ? "jumped more than 50" : true;
				},
			},
		});
		const logs = captureLogs();
		expect(boards.submit("Kills", "a", 10)).toBe(true);
		expect(boards.submit("Kills", "a", 100)).toBe(false);
		expect(boards.submit("Kills", "a", 40)).toBe(true);
		expect(boards.submit("Kills", "a", 5000)).toBe(false); // MaxValue first: Validate never sees it
		expect(boards.submit("Kills", "b", 13)).toBe(false);
		expect(boards.submit("Kills", "b", 7)).toBe(false);
		task.wait();
		logs.restore();
		expect(calls).toEqual([
			["a", 10, undefined],
			["a", 100, 10],
			["a", 40, 10],
			["b", 13, undefined],
			["b", 7, undefined],
		]);
		expect(refusals.map((refusal) => refusal[3])).toEqual([
			"jumped more than 50",
			"above MaxValue",
			refusals[2][3],
			"Validate returned false",
		]);
		expect(refusals[2][3]).toContain("Validate errored: ");
		expect(refusals[2][3]).toContain("unlucky");
		expect(logs.messages("warn")[0]).toBe(
			"[Leaderboards] Kills: submit refused, Validate refused the value (jumped more than 50); this warning shows once per board",
		);
	});

	it("every refusal of a known board counts and is published, the subject's key nil when it has none; an unknown board's and destroy()'s do not", () => {
		const { boards, refusals } = bounded({ Kills: {} });
		const logs = captureLogs();
		expect(boards.submit("Kills", "a", 0 / 0)).toBe(false);
		expect(boards.submit("Kills", true as unknown as string, 5)).toBe(false);
		expect(boards.submit("Kills", "a", "12" as unknown as number)).toBe(false);
		expect(boards.submit("Nope" as "Kills", "a", 5)).toBe(false);
		boards.destroy();
		expect(boards.submit("Kills", "a", 5)).toBe(false);
		task.wait();
		logs.restore();
		expect(refusals.map(([board, key, , reason]) => [board, key ?? "nil", reason])).toEqual([
			["Kills", "a", "NaN"],
			["Kills", "nil", "the subject is a boolean"],
			["Kills", "a", "not a number"],
		]);
		expect(boards.Stats.Refused).toBe(3);
	});

	it("attach checks each bound, naming the field", () => {
		const attachWith = (config: BoardConfig) =>
			attach(new Kernel({ bindToClose: false }), { Boards: { Kills: config }, SkipLoop: true });
		expect(() => attachWith({ MinValue: 10, MaxValue: 5 })).toThrow(
			"options.Boards.Kills.MinValue is above MaxValue (5) (got 10)",
		);
		expect(() => attachWith({ MaxValue: 0 / 0 })).toThrow("options.Boards.Kills.MaxValue must be a finite number");
		expect(() => attachWith({ MaxValue: 2 ** 60 })).toThrow(
			"options.Boards.Kills.MaxValue is past what the board stores (±9007199254740992) (got 1152921504606847000)",
		);
		expect(() => attachWith({ MaxAddedPerMinute: 10 })).toThrow(
			"options.Boards.Kills.MaxAddedPerMinute applies only to a Sum board (got 10)",
		);
		expect(() => attachWith({ Sum: true, MaxAddedPerMinute: 0 })).toThrow(
			"options.Boards.Kills.MaxAddedPerMinute must be a positive number (got 0)",
		);
		expect(() => attachWith({ Validate: "yes" as unknown as () => true })).toThrow(
			'options.Boards.Kills.Validate must be a function (key, value, previous) -> true or a reason (got "yes")',
		);
		expect(() => attachWith({ Values: "Big", MaxValue: 1e300 })).never.toThrow();
	});
});
