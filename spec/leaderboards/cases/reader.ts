import { expect, it } from "@rbxts/jest-globals";
import { Kernel } from "../../../kernel";
import { Entry, LeaderboardOptions, Leaderboards, Topics } from "../../../plugins/leaderboards";
import { manualClock } from "../../kernel/doubles";

// What every Reader owes the boards, the default's and a game's own alike: Reader.spec.ts runs these on
// the default, spec/packaging/stages.spec.ts on the examples (examples/stages) as the built packages run them.

/** A Reader under test and the source it reads: a fresh one for each case. */
export interface ReaderSubject {
	/** Boards Kills and BestTime (Ascending), the Reader under test in place, with these options. */
	readonly attach: (options?: Partial<LeaderboardOptions>) => { boards: Leaderboards; kernel: Kernel };
	/** Puts a value where the Reader reads: its next read finds it. */
	readonly put: (board: string, key: string, value: number) => void;
	/** Reads of that source so far. */
	readonly reads: () => number;
	/** While true, every read of that source fails. */
	readonly fail: (failing: boolean) => void;
}

const keysOf = (entries: Entry[]) => entries.map((entry) => entry.Key);

export function readerCases(subjectOf: () => ReaderSubject) {
	// A subject whose Kills board holds p1..p<count> = 1..count.
	const seeded = (count: number) => {
		const subject = subjectOf();
		for (let i = 1; i <= count; i++) subject.put("Kills", `p${i}`, i);
		return subject;
	};

	it("top() returns up to min(count, MaxEntries) entries { Key, Value, Rank } in page order", () => {
		const { boards } = seeded(5).attach({ Boards: { Kills: { MaxEntries: 3 } } });
		expect(boards.top("Kills", 2)).toEqual([
			{ Key: "p5", Value: 5, Rank: 1 },
			{ Key: "p4", Value: 4, Rank: 2 },
		]);
		expect(boards.top("Kills", 10).size()).toBe(3);
		expect(boards.top("Kills").size()).toBe(3);
	});

	it("top() ranks smaller values first on an Ascending board", () => {
		const subject = subjectOf();
		subject.put("BestTime", "slow", 90_000);
		subject.put("BestTime", "fast", 41_250);
		const { boards } = subject.attach();
		expect(keysOf(boards.top("BestTime"))).toEqual(["fast", "slow"]);
	});

	it("top() of an unknown board, or of a count of 0, is an empty list that reads nothing", () => {
		const subject = seeded(3);
		const { boards } = subject.attach();
		expect(boards.top("Nope")).toEqual([]);
		expect(boards.top("Kills", 0)).toEqual([]);
		expect(subject.reads()).toBe(0);
		expect(boards.top("Kills", 0 / 0).size()).toBe(3);
	});

	it("top() reads its source at most once per CacheSeconds, by the Clock option", () => {
		const time = manualClock(100);
		const subject = seeded(3);
		const { boards } = subject.attach({ Clock: time.clock, Boards: { Kills: { CacheSeconds: 60 } } });
		boards.top("Kills");
		time.advance(59);
		boards.top("Kills");
		expect(subject.reads()).toBe(1);
		time.advance(1);
		boards.top("Kills");
		expect(subject.reads()).toBe(2);
	});

	it("publishes Leaderboard.Updated(name, entries) once per refresh, never on failure", () => {
		const time = manualClock();
		const subject = seeded(2);
		const { boards, kernel } = subject.attach({ Clock: time.clock });
		const updates = new Array<unknown[]>();
		kernel.Bus.subscribe(Topics.Updated, (_, ...args) => updates.push(args));
		boards.top("Kills");
		boards.top("Kills");
		expect(updates).toEqual([
			[
				"Kills",
				[
					{ Key: "p2", Value: 2, Rank: 1 },
					{ Key: "p1", Value: 1, Rank: 2 },
				],
			],
		]);
		subject.fail(true);
		time.advance(61);
		boards.top("Kills");
		expect(updates.size()).toBe(1);
	});

	it("a failed read keeps serving the previous page and retries a full window later", () => {
		const time = manualClock();
		const subject = seeded(2);
		const { boards } = subject.attach({ Clock: time.clock });
		boards.top("Kills");
		subject.fail(true);
		time.advance(61);
		expect(keysOf(boards.top("Kills"))).toEqual(["p2", "p1"]);
		expect(subject.reads()).toBe(2);
		time.advance(30);
		boards.top("Kills");
		expect(subject.reads()).toBe(2);
		subject.fail(false);
		subject.put("Kills", "p9", 9);
		time.advance(31);
		expect(keysOf(boards.top("Kills"))).toEqual(["p9", "p2", "p1"]);
		expect(subject.reads()).toBe(3);
	});

	it("with no previous page a failed read gives an empty list and the next call tries again", () => {
		const subject = seeded(2);
		subject.fail(true);
		const { boards } = subject.attach();
		expect(boards.top("Kills")).toEqual([]);
		expect(boards.top("Kills")).toEqual([]);
		expect(subject.reads()).toBe(2);
		subject.fail(false);
		expect(boards.top("Kills").size()).toBe(2);
	});

	it("a key remove() hides leaves the page at once, the rows behind it ranked up", () => {
		const { boards } = seeded(3).attach();
		expect(keysOf(boards.top("Kills"))).toEqual(["p3", "p2", "p1"]);
		boards.remove("Kills", "p2");
		expect(boards.top("Kills")).toEqual([
			{ Key: "p3", Value: 3, Rank: 1 },
			{ Key: "p1", Value: 1, Rank: 2 },
		]);
	});

	it("scores() gives chosen subjects' stored values, leaving out those with none", () => {
		const subject = seeded(2);
		subject.put("Kills", "501", 9);
		const { boards } = subject.attach();
		expect(boards.scores("Kills", [501, "p1", "nobody"])).toEqual(
			new Map([
				["501", 9],
				["p1", 1],
			]),
		);
		expect(boards.scores("Nope", ["p1"])).toEqual(new Map());
	});

	it("scores() is nil when the read failed", () => {
		const subject = seeded(2);
		subject.fail(true);
		expect(subject.attach().boards.scores("Kills", ["p1"])).toBeUndefined();
	});
}
