import { Kernel } from "../kernel";
import { Backend, Leaderboards, attach } from "../plugins/leaderboards";
import { refuseKey, refuseValue, subjectKey } from "../plugins/leaderboards/internal";
import { Removals } from "../plugins/leaderboards/core/removals";
import { Bounds } from "../plugins/leaderboards/stages/Queue/bounds";
import { BoardQueue } from "../plugins/leaderboards/stages/Queue/BoardQueue";
import { Settings, Stats } from "../plugins/leaderboards/contracts";
import { enters, visibleOf } from "../plugins/leaderboards/core/visible";
import { counted } from "../spec/gate/format";
import { BenchRow, bareKeepBest, formatNumber, medianSeconds } from "./measure";

/** A backend that answers at once, with a top page for the board whose visible top is asked. */
const instant: Backend = {
	integers: true,
	maxKeyLength: 50,
	set: () => true,
	sorted: (_, __, count) => {
		const rows = [];
		for (let i = 1; i <= count; i++) rows.push({ Key: `top${i}`, Value: 1_000_000 - i });
		return rows;
	},
};

// The settings behind the boards attach returned, and the Queue stage's boards (the bench times the checks one by one).
function insideOf(boards: Leaderboards) {
	return boards as unknown as { settings: Settings; queue: { boards: Map<string, BoardQueue>; stats: Stats } };
}

/**
 * 4b. What each step of submit()'s common case (a pending key on a direct board; a whole submit() too
 * on a board whose page is cached, under its bar) and each check of
 * its checked path costs, each timed alone over the submit() cost row's keys, net of a loop calling
 * a body that does nothing, runs alternating with the bare table's keep-best
 * (net of its own loop; median of 5): µs a call and how many bare keep-best updates that is.
 * Informs (docs/benchmarks.md).
 */
export function submitChecksRow(calls: number, keyCount: number): BenchRow {
	const keys = new Array<string>();
	for (let i = 1; i <= keyCount; i++) keys.push(`k${i}`);
	const boards = attach(new Kernel({ bindToClose: false }), {
		Boards: { Kills: {}, Shown: {}, Coins: { Sum: true, MinValue: 0, MaxValue: 1e9 } },
		Backend: instant,
		SkipLoop: true,
	});
	const { settings, queue } = insideOf(boards);
	const kills = settings.boards.get("Kills")!;
	const coins = settings.boards.get("Coins")!;
	const removals = new Removals(new Kernel({ bindToClose: false }));
	const bounds = new Bounds(coins, settings.clock);
	// A cached page's visible top, as the Reader publishes it and the Queue keeps it.
	const shown = visibleOf(settings.boards.get("Shown")!, boards.top("Shown"));
	// submit()'s common case, step by step, on the Kills board with every key pending (Queue.submitter).
	for (const key of keys) boards.submit("Kills", key, 1);
	const queued = queue.boards.get("Kills")!;
	// The same keys pending on a board whose visible top the Reader published (top() above): direct, under its bar.
	for (const key of keys) boards.submit("Shown", key, 1);
	if (!queue.boards.get("Shown")!.direct) error("the Shown board, with a page cached, is not direct");
	const one: unknown = 1;
	const held = 1;
	const cases: [string, (key: string) => unknown][] = [
		["submit()", (key) => boards.submit("Kills", key, 1)],
		["submit(), a page cached", (key) => boards.submit("Shown", key, 1)],
		["the board", () => queue.boards.get("Kills")],
		["type()", () => typeIs(one, "number")],
		[
			"the range",
			() =>
				(one as number) >= queued.low &&
				(one as number) <= queued.high &&
				((one as number) % 1 === 0 || !queued.whole),
		],
		["the pending value", (key) => (queued.direct as Map<string, number>).get(key)],
		[
			"the keep",
			() => {
				const better = queued.better;
				if (better === 0) queued.merge(1, 1);
				else if (1 * better > held * better) error("the keep-best comparison kept a value no better");
			},
		],
		["the count", () => (queue.stats.Submitted += 1)],
		["subject", (key) => subjectKey(key)],
		["value", () => refuseValue(1, kills.Encoding.Integers, kills.Encoding.Limit)],
		["erasing", (key) => removals.isErasing(key)],
		["Sum rule", () => coins.Rule.refuse!(1)],
		["new key", (key) => refuseKey(key, 50)],
		["bounds", (key) => bounds.refuse(key, 1, 0)],
		["merge", () => kills.Rule.merge(500, 1)],
		["visible top, a page", (key) => enters(kills, shown, key, 1)],
	];
	// Each case's body is called with the loop's key: the empty loop calls one that does nothing, so a
	// case's time net of it is the check's own (its call included).
	const loop = (body: (key: string) => unknown) => () => {
		for (let i = 0; i < calls; i++) body(keys[i % keyCount]);
	};
	const bare = () => bareKeepBest(keys, calls);
	// The bare update's own loop: the same keys read, no call.
	const plain = () => {
		let last = "";
		for (let i = 0; i < calls; i++) last = keys[i % keyCount];
		return last;
	};
	const median = (fn: () => void, runs: number[]) => {
		runs.push(medianSeconds(1, fn));
		return runs;
	};
	const empty = new Array<number>();
	const plains = new Array<number>();
	const bares = new Array<number>();
	const timed = cases.map(() => new Array<number>());
	for (let run = 0; run < 5; run++) {
		median(
			loop(() => undefined),
			empty,
		);
		median(plain, plains);
		median(bare, bares);
		cases.forEach(([, body], index) => median(loop(body), timed[index]));
	}
	const middle = (runs: number[]) => {
		runs.sort();
		return runs[2];
	};
	const loopSeconds = middle(empty);
	const bareSeconds = middle(bares) - middle(plains);
	const parts = cases.map(([name], index) => {
		const seconds = math.max(middle(timed[index]) - loopSeconds, 0);
		return `${name} ${formatNumber((seconds / calls) * 1e6, 3)} µs (${formatNumber(seconds / bareSeconds, 1)})`;
	});
	return {
		name: `submit()'s checks, each alone: ${counted(calls, "call")}`,
		ours: parts.join("; "),
		baseline: `${formatNumber((bareSeconds / calls) * 1e6, 3)} µs (bare table keep-best, net of the loop)`,
		ratio: "in ( ): bare keep-best updates",
		bound: "none: informs (docs/benchmarks.md)",
		met: undefined,
	};
}
