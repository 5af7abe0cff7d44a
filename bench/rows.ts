import { DataStoreService } from "@rbxts/services";
import { Kernel } from "../kernel";
import { Backend, Entry, LeaderboardOptions, Leaderboards, attach } from "../plugins/leaderboards";
import { DEFAULTS } from "../plugins/leaderboards/internal";
import { HeadlessGate } from "../spec/gate/control";
import { count, counted } from "../spec/gate/format";
import { BenchRow, bareKeepBest, formatNumber, medianSeconds } from "./measure";
import { HandWrittenLeaderboard } from "./handwritten";
import { NaiveLeaderboard } from "./naive";

// Each row measures this project and the naive baseline in the same run, on the
// gate's emulated engine (virtual time for the simulated parts, wall time for CPU),
// every backend request at the gate's realistic latency.

function boardsOf(options: Partial<LeaderboardOptions> = {}): Leaderboards {
	return attach(new Kernel({ bindToClose: false }), {
		Boards: { Kills: {}, BestTime: { Ascending: true } },
		...options,
	});
}

/** A backend that answers at once: what CPU rows measure against. */
const instant: Backend = { integers: true, maxKeyLength: 50, set: () => true, sorted: () => [] };

/** A fresh gate whose requests take as long as on a published game (spec/gate/README.md, "Request latency"). */
function fresh(gate: HeadlessGate) {
	gate.reset();
	gate.latency.use("realistic");
}

function percent(value: number): string {
	return string.format("%.1f%%", value * 100);
}

function joinPlayers(gate: HeadlessGate, count: number) {
	for (let id = 1; id <= count; id++) gate.players.join({ UserId: id });
}

interface Submission {
	second: number;
	board: "Kills" | "BestTime";
	key: string;
	value: number;
}

// A seeded burst: submits spread over the minutes, kills always improving, times sometimes.
function burst(submits: number, players: number, minutes: number): Submission[] {
	const random = new Random(42);
	const kills = new Array<number>(players, 0);
	const trace = new Array<Submission>();
	for (let i = 0; i < submits; i++) {
		const player = random.NextInteger(1, players);
		const second = math.floor((i / submits) * minutes * 60);
		if (random.NextNumber() < 0.5) {
			kills[player - 1] += 1;
			trace.push({ second, board: "Kills", key: tostring(player), value: kills[player - 1] });
		} else {
			trace.push({ second, board: "BestTime", key: tostring(player), value: random.NextInteger(30_000, 90_000) });
		}
	}
	return trace;
}

// The best value per board and key, and how many (key, window) pairs improved:
// what a queue writing every improved key in every 15 s window would write.
function bestsOf(trace: Submission[], windowSeconds: number) {
	const best = new Map<string, number>();
	const improved = new Set<string>();
	let perWindow = 0;
	for (const s of trace) {
		const id = `${s.board}:${s.key}`;
		const held = best.get(id);
		const better = held === undefined || (s.board === "BestTime" ? s.value < held : s.value > held);
		if (better) {
			best.set(id, s.value);
			const pair = `${math.floor(s.second / windowSeconds)}:${id}`;
			if (!improved.has(pair)) {
				improved.add(pair);
				perWindow += 1;
			}
		}
	}
	return { best, perWindow };
}

function replay(trace: Submission[], submit: (s: Submission) => void) {
	let second = 0;
	for (const s of trace) {
		while (second < s.second) {
			task.wait(1);
			second += 1;
		}
		submit(s);
	}
}

/**
 * The OrderedWrite budget a burst must leave unspent: room for the game's own ordered stores and
 * for a close drain, where boards that spend it all would have a game's other writes throttled.
 */
const BUDGET_LEFT = 0.05;

/**
 * 1. What a player costs in writes: a burst of submits from many players over minutes, on two
 * boards. Held to what a game feels (writes a minute a player, the OrderedWrite budget left for
 * its own ordered stores), not to how often a window writes, which is FlushSeconds' choice.
 */
export function playerWritesRow(
	gate: HeadlessGate,
	size: { submits: number; players: number; minutes: number },
): BenchRow {
	const trace = burst(size.submits, size.players, size.minutes);
	fresh(gate);
	joinPlayers(gate, size.players);
	const started = os.clock();
	const tokens = gate.dataStore.budget("OrderedWrite");
	const boards = boardsOf();
	replay(trace, (s) => boards.submit(s.board, s.key, s.value));
	boards.destroy();
	const ours = gate.dataStore.calls("UpdateAsync");
	const throttled = gate.dataStore.throttled();
	const minutes = (os.clock() - started) / 60;
	const available = tokens + (30 + 5 * size.players) * minutes;
	const { best } = bestsOf(trace, 15);
	let keys = 0;
	let stored = 0;
	for (const [id, value] of best) {
		const [board, key] = id.split(":") as unknown as [string, string];
		keys += 1;
		if (gate.dataStore.snapshot(`CKBoard_${board}`).get(key) === value) stored += 1;
	}

	fresh(gate);
	joinPlayers(gate, size.players);
	const naive = new NaiveLeaderboard();
	replay(trace, (s) => naive.submit(s.board, s.key, s.value, s.board === "BestTime"));
	task.wait(120);

	fresh(gate);
	joinPlayers(gate, size.players);
	const hand = new HandWrittenLeaderboard();
	hand.start();
	replay(trace, (s) => hand.submit(s.board, s.key, s.value, s.board === "BestTime"));
	hand.close();
	task.wait(10);
	let handStored = 0;
	for (const [id, value] of best) {
		const [board, key] = id.split(":") as unknown as [string, string];
		if (gate.dataStore.snapshot(`Hand_${board}`).get(key) === value) handStored += 1;
	}
	const perPlayer = (writes: number) => writes / size.players / size.minutes;
	const left = 1 - ours / available;
	return {
		name: `Writes a player costs: ${count(size.submits)} submits, ${count(size.players)} players, ${size.minutes} min, 2 boards`,
		ours: `${formatNumber(perPlayer(ours), 1)} writes a minute a player (${count(ours)} writes), ${percent(left)} of the OrderedWrite budget left, ${count(throttled)} throttled, ${count(stored)}/${count(keys)} bests stored`,
		baseline:
			`write-through: ${formatNumber(perPlayer(naive.writes), 1)} a minute a player (${count(naive.failedWrites)} of ${count(naive.writes)} failed, throttled); ` +
			`hand-written (60 s loop, close): ${formatNumber(perPlayer(hand.writes), 1)}, ${count(handStored)}/${count(keys)} bests stored`,
		ratio: `${formatNumber(naive.writes / math.max(ours, 1), 1)}x fewer than write-through`,
		bound: `0 throttled, ≥ ${percent(BUDGET_LEFT)} of the budget left, ${count(keys)}/${count(keys)} bests stored`,
		met: throttled === 0 && left >= BUDGET_LEFT && stored === keys,
	};
}

// Writes a backlog of `keys` issues over `minutes` after the first, against the
// tokens the server had (those in the bucket then, plus the refill): the steady state.
function budgetUse(
	gate: HeadlessGate,
	size: { keys: number; players: number; minutes: number },
	writesInFlight: number,
) {
	fresh(gate);
	joinPlayers(gate, size.players);
	const boards = boardsOf({ ShutdownSeconds: 0, WritesInFlight: writesInFlight });
	for (let i = 1; i <= size.keys; i++) boards.submit("Kills", `k${i}`, i);
	task.wait(60);
	const writesBefore = gate.dataStore.calls("UpdateAsync");
	const tokensBefore = gate.dataStore.budget("OrderedWrite");
	task.wait(size.minutes * 60);
	const writes = gate.dataStore.calls("UpdateAsync") - writesBefore;
	const available = tokensBefore + (30 + 5 * size.players) * size.minutes;
	boards.destroy(); // stops its windows (ShutdownSeconds 0: drains nothing)
	return { writes, available, use: writes / available, throttled: gate.dataStore.throttled() };
}

/** Requests a server with no submits makes in `minutes`: an idle server runs no windows. */
export function idleRequests(gate: HeadlessGate, minutes: number): number {
	fresh(gate);
	boardsOf();
	task.wait(minutes * 60);
	return gate.dataStore.calls();
}

/** 2. Budget use under backlog at one server size: this project, one write at a time, and both baselines. */
export function budgetRow(
	gate: HeadlessGate,
	size: { keys: number; players: number; minutes: number },
	idle: number,
): BenchRow {
	const ours = budgetUse(gate, size, DEFAULTS.WritesInFlight);
	const one = budgetUse(gate, size, 1);

	fresh(gate);
	joinPlayers(gate, size.players);
	const naive = new NaiveLeaderboard();
	for (let i = 1; i <= size.keys; i++) naive.submit("Kills", `k${i}`, i);
	task.wait(10);
	const naiveThrottled = gate.dataStore.throttled();

	// The same backlog as the stats of players the 60 s loop saves one after another.
	fresh(gate);
	joinPlayers(gate, size.players);
	const hand = new HandWrittenLeaderboard();
	for (let i = 1; i <= size.keys; i++) hand.submit("Kills", `k${i}`, i);
	hand.start();
	task.wait(60);
	const handBefore = gate.dataStore.calls("UpdateAsync");
	const handTokens = gate.dataStore.budget("OrderedWrite");
	task.wait(size.minutes * 60);
	const handUse =
		(gate.dataStore.calls("UpdateAsync") - handBefore) / (handTokens + (30 + 5 * size.players) * size.minutes);
	const handThrottled = gate.dataStore.throttled();
	hand.stop();
	return {
		name: `Budget use under backlog: ${count(size.keys)} keys queued, ${count(size.players)} players, ${size.minutes} min after the first`,
		ours: `${count(ours.writes)} of ${counted(ours.available, "write")} (${percent(ours.use)}), ${count(ours.throttled)} throttled, ${counted(idle, "request")} idle`,
		baseline:
			`one write at a time: ${percent(one.use)}, ${count(one.throttled)} throttled; ` +
			`write-through: ${counted(naive.writes, "request")} at once, ${count(naiveThrottled)} throttled, ${count(naive.failedWrites)} dropped; ` +
			`hand-written 60 s loop: ${percent(handUse)}, ${count(handThrottled)} throttled`,
		ratio: `${formatNumber(ours.use / one.use, 2)}x one at a time, ${formatNumber(ours.use / handUse, 2)}x hand-written`,
		bound: "≥ 95%, never over (0 throttled), 0 idle",
		met: ours.use >= 0.95 && ours.throttled === 0 && idle === 0,
	};
}

/** 3. Read fan-out: concurrent top() callers within one cache window. */
export function readFanOutRow(gate: HeadlessGate, callers: number): BenchRow {
	fresh(gate);
	DataStoreService.SetRateLimitForRequestType(Enum.DataStoreRequestType.OrderedWrite, 10_000, 0);
	for (const prefix of ["CKBoard_", "Naive_"]) {
		const store = DataStoreService.GetOrderedDataStore(`${prefix}Kills`);
		for (let i = 1; i <= 100; i++) store.SetAsync(`k${i}`, i);
	}
	const readsBefore = gate.dataStore.calls("GetSortedAsync");
	const boards = boardsOf();
	let served = 0;
	for (let i = 0; i < callers; i++)
		task.spawn(() => {
			const page = boards.top("Kills"); // yields: count after it, or concurrent updates are lost
			if (page.size() > 0) served += 1;
		});
	task.wait(5);
	const ours = gate.dataStore.calls("GetSortedAsync") - readsBefore;

	const naive = new NaiveLeaderboard();
	let naiveServed = 0;
	for (let i = 0; i < callers; i++)
		task.spawn(() => {
			const page = naive.top("Kills", 100);
			if (page.size() > 0) naiveServed += 1;
		});
	task.wait(120);
	return {
		name: `Read fan-out: ${count(callers)} concurrent top() callers`,
		ours: `${counted(ours, "backend read")} (${count(served)} served)`,
		baseline: `${counted(naive.reads, "read")} (${count(naive.failedReads)} failed, ${count(naiveServed)} served within 2 min)`,
		ratio: `${formatNumber(naive.reads / math.max(ours, 1), 0)}x fewer`,
		bound: "1 read, every caller served",
		met: ours === 1 && served === callers,
	};
}

/** What submit() may cost against a bare table's keep-best, and a queued key's memory (docs/benchmarks.md). */
const SUBMIT_RATIO = 8;
const BYTES_PER_KEY = 150;

/**
 * 4. submit() cost against a bare Luau table keep-best update, in the same run: runs alternate, so a
 * busy core or a collection falls on both, and the ratio is of the medians of 5.
 */
export function submitCostRow(calls: number, keyCount: number): BenchRow {
	const keys = new Array<string>();
	for (let i = 1; i <= keyCount; i++) keys.push(`k${i}`);
	const boards = boardsOf({ Backend: instant, SkipLoop: true });
	const ours = new Array<number>();
	const bare = new Array<number>();
	for (let run = 0; run < 5; run++) {
		ours.push(
			medianSeconds(1, () => {
				for (let i = 0; i < calls; i++) boards.submit("Kills", keys[i % keyCount], i % 1000);
			}),
		);
		bare.push(medianSeconds(1, () => bareKeepBest(keys, calls)));
	}
	ours.sort();
	bare.sort();
	const ratio = ours[2] / bare[2];
	return {
		name: `submit() cost: ${counted(calls, "call")} across ${counted(keyCount, "key")}`,
		ours: `${formatNumber((ours[2] / calls) * 1e6, 3)} µs per call`,
		baseline: `${formatNumber((bare[2] / calls) * 1e6, 3)} µs (bare table keep-best)`,
		ratio: `${formatNumber(ratio, 2)}x`,
		bound: `≤ ${SUBMIT_RATIO}x`,
		met: ratio <= SUBMIT_RATIO,
	};
}

// Median seconds of a window with `queued` keys waiting (refilled between windows).
function windowSeconds(queued: number): number {
	const boards = boardsOf({ Backend: instant, SkipLoop: true });
	let submitted = 1;
	const top = () => {
		while (submitted <= queued) {
			boards.submit("Kills", `k${submitted}`, submitted);
			submitted += 1;
		}
	};
	top();
	const times = new Array<number>();
	for (let run = 0; run < 15; run++) {
		times.push(medianSeconds(1, () => boards._flush()));
		queued += 30;
		top();
	}
	times.sort();
	return times[7];
}

/** 5. Window cost with a short queue and a long one: windows are O(budget), not O(queue). */
export function windowCostRow(small: number, large: number): BenchRow {
	const short = windowSeconds(small);
	const long = windowSeconds(large);
	return {
		name: `Window cost: ${count(small)} vs ${count(large)} keys queued`,
		ours: `${formatNumber(long * 1000, 3)} ms at ${count(large)}`,
		baseline: `${formatNumber(short * 1000, 3)} ms at ${count(small)}`,
		ratio: formatNumber(long / short, 2),
		bound: "under 2",
		met: long / short < 2,
	};
}

// Keys a shutdown drain writes within ShutdownSeconds 10 (a write still in flight then is not counted).
function drained(gate: HeadlessGate, size: { keys: number; players: number }, writesInFlight: number) {
	fresh(gate);
	joinPlayers(gate, size.players);
	const boards = boardsOf({ SkipLoop: true, WritesInFlight: writesInFlight });
	for (let i = 1; i <= size.keys; i++) boards.submit("Kills", `k${i}`, i);
	const [, result] = boards.destroy();
	return { written: size.keys - result.Remaining, error: result.Error ?? "complete" };
}

/** 6. Drain: keys destroy() writes within ShutdownSeconds, against the most the budget allows. */
export function drainRow(gate: HeadlessGate, size: { keys: number; players: number }): BenchRow {
	const ours = drained(gate, size, DEFAULTS.WritesInFlight);
	const one = drained(gate, size, 1);

	// The hand-written close: every unsaved stat's save spawned at once, 10 s to land.
	fresh(gate);
	joinPlayers(gate, size.players);
	const hand = new HandWrittenLeaderboard();
	for (let i = 1; i <= size.keys; i++) hand.submit("Kills", `k${i}`, i);
	hand.close();
	task.wait(10);

	const perMinute = 30 + 5 * size.players;
	const allowed = math.min(size.keys, math.floor(perMinute + (10 * perMinute) / 60));
	return {
		name: `Drain: ${count(size.keys)} keys queued, ${count(size.players)} players, ShutdownSeconds 10`,
		ours: `${count(ours.written)} written (${ours.error})`,
		baseline:
			`one write at a time: ${count(one.written)}; hand-written close (all saves spawned): ${count(hand.landed)} ` +
			`(${count(hand.failedWrites)} dropped by the full throttle queue); write-through: nothing queued to drain`,
		ratio: `${percent(ours.written / allowed)} of allowed; ${formatNumber(ours.written / math.max(one.written, 1), 1)}x one at a time`,
		bound: `≥ 95% of ${count(allowed)} (a full bucket + 10 s of refill)`,
		met: ours.written >= 0.95 * allowed,
	};
}

// The realistic profile's UpdateAsync: its mean, and its 99th percentile (spec/gate/README.md, "Request latency").
const MEAN_WRITE = 0.25;
const SLOW_WRITE = 1.2;

// Virtual seconds of a window of `writes` writes at realistic latency, median of `runs`.
function windowWallSeconds(gate: HeadlessGate, writes: number, writesInFlight: number, runs: number): number {
	fresh(gate);
	joinPlayers(gate, 100); // budget for every run: 530 writes a minute
	const boards = boardsOf({ SkipLoop: true, WritesInFlight: writesInFlight });
	const times = new Array<number>();
	for (let run = 0; run < runs; run++) {
		for (let i = 1; i <= writes; i++) boards.submit("Kills", `r${run}k${i}`, i);
		const started = os.clock();
		boards._flush();
		times.push(os.clock() - started);
	}
	times.sort();
	return times[math.floor(runs / 2)];
}

/** 9. A window's wall time at 30 writes (WritesPerFlush), writes overlapping against one at a time. */
export function windowWallRow(gate: HeadlessGate, runs: number): BenchRow {
	const writes = DEFAULTS.WritesPerFlush;
	const ours = windowWallSeconds(gate, writes, DEFAULTS.WritesInFlight, runs);
	const one = windowWallSeconds(gate, writes, 1, runs);
	const ideal = (writes * MEAN_WRITE) / DEFAULTS.WritesInFlight;
	return {
		name: `Window wall time: ${count(writes)} writes at realistic latency, median of ${count(runs)}`,
		ours: `${formatNumber(ours)} s (${DEFAULTS.WritesInFlight} in flight)`,
		baseline: `${formatNumber(one)} s one write at a time`,
		ratio: `${formatNumber(one / ours, 1)}x faster`,
		bound: `≤ ${formatNumber(ideal + SLOW_WRITE)} s (${writes} x ${MEAN_WRITE} s mean / ${DEFAULTS.WritesInFlight}, plus a ${SLOW_WRITE} s 99th-percentile write)`,
		met: ours <= ideal + SLOW_WRITE,
	};
}

/** 7. names(): UserService calls for many renders of the same top 100. */
export function namesRow(gate: HeadlessGate, renders: number): BenchRow {
	fresh(gate);
	const ids = new Array<number>();
	for (let id = 1; id <= 100; id++) {
		gate.users.register(id, `user${id}`);
		ids.push(id);
	}
	const boards = boardsOf({ SkipLoop: true });
	const page = (): Entry[] => ids.map((id, index) => ({ Key: tostring(id), Value: 1, Rank: index + 1 }));
	for (let i = 0; i < renders; i++) boards.names(page());
	const ours = gate.users.stats();

	gate.users.reset();
	for (const id of ids) gate.users.register(id, `user${id}`);
	const naive = new NaiveLeaderboard();
	for (let i = 0; i < renders; i++) naive.names(ids);
	const theirs = gate.users.stats();
	return {
		name: `names(): ${count(renders)} renders of the same top 100`,
		ours: `${counted(ours.calls, "call")}, ${counted(ours.results, "result")}`,
		baseline: `${counted(theirs.calls, "call")}, ${counted(theirs.results, "result")} (${count(naive.failedNameCalls)} refused past 250 a minute)`,
		ratio: `${formatNumber(theirs.calls / math.max(ours.calls, 1), 0)}x fewer calls`,
		bound: "1 call per new 100 ids, 0 after",
		met: ours.calls === 1,
	};
}

/** 8. Memory per queued key, against a bare table holding the same keys. */
export function memoryRow(gate: HeadlessGate, keyCount: number): BenchRow {
	const keys = new Array<string>();
	for (let i = 1; i <= keyCount; i++) keys.push(`k${i}`);
	const boards = boardsOf({ Backend: instant, SkipLoop: true });
	const before = gate.heapKilobytes();
	for (const key of keys) boards.submit("Kills", key, 1);
	const ours = ((gate.heapKilobytes() - before) * 1024) / keyCount;
	const bareBefore = gate.heapKilobytes();
	const bare = new Map<string, number>();
	for (const key of keys) bare.set(key, 1);
	const theirs = ((gate.heapKilobytes() - bareBefore) * 1024) / keyCount;
	// At --quick's few keys the collector, running meanwhile, may free more than they take.
	const weighed = ours >= 0 && theirs >= 0;
	return {
		name: `Memory per queued key at ${counted(keyCount, "key")}`,
		ours: `${formatNumber(ours, 0)} bytes${weighed ? "" : " (the collector freed more meanwhile: too few keys to weigh)"}`,
		baseline: `${formatNumber(theirs, 0)} bytes (bare table)`,
		ratio: weighed ? `${formatNumber(ours / math.max(theirs, 1), 1)}x` : "-",
		bound: `≤ ${BYTES_PER_KEY} bytes (gcinfo, no forced collection)`,
		met: ours <= BYTES_PER_KEY,
	};
}

/**
 * 11. Where do I stand: every player in a server asks around() (3 either side)
 * every 10 s, against GetSortedAsync with value bounds on every call (the two
 * pages around() needs, after a GetAsync for the player's value).
 */
export function standingRow(gate: HeadlessGate, size: { players: number; stored: number; minutes: number }): BenchRow {
	// Stored before the run: SetAsync would meet the experience's 300 writes a minute.
	const fill = (prefix: string) => {
		const stored = new Map<string, number>();
		for (let i = 1; i <= size.stored; i++) stored.set(tostring(i), i * 3);
		gate.dataStore.seed(`${prefix}Kills`, stored);
	};
	// The players in the server hold ranks spread over the whole board, most past the top page.
	const asking = new Array<string>();
	for (let i = 1; i <= size.players; i++) asking.push(tostring(math.ceil((i * size.stored) / size.players)));
	const rounds = (size.minutes * 60) / 10;

	fresh(gate);
	joinPlayers(gate, size.players);
	fill("CKBoard_");
	const listBefore = gate.dataStore.calls("GetSortedAsync");
	const boards = boardsOf();
	let calls = 0;
	let answered = 0;
	for (let round = 0; round < rounds; round++) {
		for (const key of asking)
			task.spawn(() => {
				calls += 1;
				if (boards.around("Kills", key, 3) !== undefined) answered += 1;
			});
		task.wait(10);
	}
	const ours = gate.dataStore.calls("GetSortedAsync") - listBefore;
	const throttled = gate.dataStore.throttled();

	fresh(gate);
	joinPlayers(gate, size.players);
	fill("Naive_");
	let naiveRequests = 0;
	let naiveList = 0;
	let naiveAnswered = 0;
	for (let round = 0; round < rounds; round++) {
		for (const key of asking)
			task.spawn(() => {
				const store = DataStoreService.GetOrderedDataStore("Naive_Kills");
				const [ok] = pcall(() => {
					naiveRequests += 3;
					naiveList += 2;
					const value = store.GetAsync(key) as number;
					store.GetSortedAsync(true, 3, value + 1).GetCurrentPage();
					store.GetSortedAsync(false, 4, undefined, value).GetCurrentPage();
				});
				if (ok) naiveAnswered += 1;
			});
		task.wait(10);
	}
	task.wait(60);
	const naiveThrottled = gate.dataStore.throttled();
	return {
		name: `Where do I stand: ${count(size.players)} players ask around() every 10 s for ${size.minutes} min (${count(size.stored)} stored)`,
		ours: `${counted(ours, "list request")}, ${count(answered)}/${count(calls)} answered, ${count(throttled)} throttled`,
		baseline: `${counted(naiveRequests, "request")} (GetAsync + 2 bounded pages a call), ${count(naiveAnswered)}/${count(calls)} answered, ${count(naiveThrottled)} throttled`,
		ratio: `${formatNumber(naiveList / math.max(ours, 1), 1)}x fewer list requests`,
		bound: "0 throttled, ≥ 90% answered (the rest refused while the list budget refills)",
		met: throttled === 0 && answered >= 0.9 * calls,
	};
}
