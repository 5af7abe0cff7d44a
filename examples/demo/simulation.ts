import type { Kernel } from "../../kernel";
import {
	Backend,
	DEADLINE_EXCEEDED,
	Entry,
	LeaderboardOptions,
	Leaderboards,
	NO_PROGRESS,
	ShutdownResult,
	Standing,
	Topics,
} from "../../plugins/leaderboards";
import { GateServer, HeadlessGate } from "../../spec/gate/control";
import { count } from "../../spec/gate/format";
import { FreshnessFigures } from "../../spec/gate/freshness";
import { ClientBoard, replicated, spectate } from "./client";
import { Tracker } from "./totals";

/** What to simulate. */
export interface SimulationConfig {
	servers: number;
	/** Players per server. */
	players: number;
	minutes: number;
	/** Share of backend writes and reads that fail (injected into the emulated DataStoreService). */
	failRate: number;
	seed: number;
	/** Where the boards live: OrderedDataStores (the default backend, when absent) or MemoryStore sorted maps. */
	backend?: "ordered" | "memorystore";
	/** The experience's totals instead of one server's boards (always past SCALE_SERVERS servers). */
	scale?: boolean;
}

/** Past this many servers the demo shows the experience's totals (its scale mode), not one server's view. */
export const SCALE_SERVERS = 16;

/** The run shows the experience's totals: asked for, or more than SCALE_SERVERS servers. */
export function isScale(config: SimulationConfig): boolean {
	return config.scale === true || config.servers > SCALE_SERVERS;
}

/** The design document's BoardService, as the demo calls it (Luau methods). */
interface BoardService {
	readonly Boards: Leaderboards;
	topKills(count: number): Entry[];
	topDailyKills(count: number, period?: string): Entry[];
	killsOf(player: Player): number | undefined;
	rankOf(player: unknown): Standing | undefined;
	aroundMe(player: unknown, count: number): Standing[] | undefined;
	friendsKills(player: unknown): LuaTuple<[Entry[] | undefined, number | undefined]>;
}

interface User {
	readonly id: number;
	readonly name: string;
	/** Kills a minute, and how fast their runs are. */
	readonly skill: number;
	/** The profile: the source of truth BoardService increments. */
	readonly data: { Kills: number };
	/** The model: the best run time submitted, in whole milliseconds. */
	bestTime?: number;
	/** The server each board's expected value was last submitted on (what its loss is traced to). */
	readonly submittedOn: Map<string, number>;
	/** The model: kills per UTC day ("2026-12-06"), as the calendar said when each happened. */
	readonly daily: Map<string, number>;
	/** Virtual seconds each kill count was submitted at (what a record's freshness is measured from). */
	readonly killedAt: Map<number, number>;
	server?: number;
	player?: Player;
	/** While online: the virtual seconds of the player's next kill, finished run and leaving. */
	next?: { kill: number; run: number; leave: number };
}

interface Server {
	readonly handle: GateServer;
	readonly kernel: Kernel;
	readonly service: BoardService;
	drained?: ShutdownResult;
	closeComplete?: boolean;
}

/** The numbers the view shows, at one moment. */
export interface Counters {
	minute: number;
	submits: number;
	writes: number;
	failed: number;
	dropped: number;
	/** UpdateAsync requests issued over the write budget the servers had so far (their quota share on MemoryStore). */
	budgetUsed: number;
	topCalls: number;
	backendReads: number;
	namesCalls: number;
	namesResults: number;
	online: number;
}

/**
 * The experience's totals (scale mode): what every server together asked of the
 * stores, the shared pages, MessagingService, and how fresh records were.
 */
export interface Totals {
	servers: number;
	/** Ordered list requests (GetSortedAsync, AdvanceToNextPageAsync) and reads (GetAsync, BatchGetAsync) of every server. */
	lists: number;
	reads: number;
	/** MemoryStore requests of every server, and those refused over a limit. */
	memoryCalls: number;
	memoryRefused: number;
	/** Times a shared page (one hash map item a board and period) was refreshed from the store. */
	pageRefreshes: number;
	/** Shared pages in the hash map now. */
	pages: number;
	messages: { published: number; delivered: number; lost: number; refused: number };
	/** Requests queued by a throttle, and dropped from a full queue at the server and at the experience level. */
	queued: number;
	droppedServer: number;
	droppedExperience: number;
	/**
	 * The busiest minute's requests against the experience's limit a minute, a share (0 to 1): ordered
	 * reads (an UpdateAsync is a read and a write), writes, lists, and MemoryStore requests against its
	 * request units (a request is one unit or more).
	 */
	peakUse: { read: number; write: number; list: number; memory: number };
	/** Records (a Kills value entering the visible top) and how long until every server's page showed one. */
	records: FreshnessFigures;
	/** The gate's Luau heap at its largest so far, in megabytes (garbage not yet collected included). */
	heapMegabytes: number;
}

export interface Frame {
	readonly counters: Counters;
	/** Scale mode: the experience's totals. */
	readonly totals?: Totals;
	readonly kills: Entry[];
	readonly bestTimes: Entry[];
	/** Today's kills: the daily board, and which day it is. */
	readonly dailyKills: Entry[];
	readonly day: string;
	readonly secondsToNewDay: number;
	/**
	 * One player followed through the run: where they stand on Kills, who is around them, their friends board
	 * (not in scale mode).
	 */
	readonly followed?: {
		readonly name: string;
		/** nil while a read failed. */
		readonly me?: Standing;
		readonly around?: Standing[];
		readonly friends?: Entry[];
	};
}

/**
 * Why a value was lost, by kind: dropped after MaxWriteAttempts failed write
 * windows (the fail rate), still queued when its server's drain hit its
 * deadline, when the drain gave up ("made no progress"), or ended on another
 * error; "unexplained" when the boards reported nothing that accounts for it.
 */
export type LossKind = "dropped" | "deadline" | "no progress" | "drain error" | "unexplained";

/** The loss kinds in the order the verdict names them. */
export const LOSS_KINDS: readonly LossKind[] = ["dropped", "deadline", "no progress", "drain error", "unexplained"];

/** A value the model expected on a board that is not there, and why. */
export interface Mismatch {
	board: string;
	user: number;
	expected: number;
	stored?: number;
	reason: string;
	kind: LossKind;
	/** The loss has a reason the boards reported: the value was dropped, or its server's drain was incomplete. */
	explained: boolean;
}

export interface Summary {
	config: SimulationConfig;
	counters: Counters;
	/** The experience's totals (every mode; the scale view shows them). */
	totals: Totals;
	servers: { complete: boolean; drain?: ShutdownResult }[];
	/** One client's board at the end of play (a spectator on server 1), unless the run shows the totals. */
	client?: ClientBoard;
	checked: number;
	/** The UTC days the run played on: the daily board rolls halfway through. */
	days: string[];
	mismatches: Mismatch[];
	/** Values lost, by kind (only the kinds that occurred, in LOSS_KINDS order). */
	losses: { kind: LossKind; count: number }[];
	/** Every value the model expects is stored: nothing was lost. */
	ok: boolean;
	/** Every lost value's loss is explained (dropped, or left in an incomplete drain): the exit code is 0. */
	explained: boolean;
}

/** A demo server's place: the library, the example BoardService and what it requires (no specs, no jest). */
export const PLACE = "examples/demo/server.project.json";

const KILLS_STORE = "CKBoard_Kills";
const TIMES_STORE = "CKBoard_BestTime";
const DAILY_STORE = "CKBoard_DailyKills@"; // .. the day: the period's storage name
const PAGES_MAP = "CKBoard_Pages"; // the shared pages' hash map (StorePrefix .. "Pages")
// A midnight UTC (2026-12-07 00:00): the calendar is placed so the run crosses it halfway.
const MIDNIGHT = 1796601600;
const SESSION_MINUTES = 20;
const RUN_EVERY_MINUTES = 3;
const UI_REFRESH_SECONDS = 10;
// Each player is friends with the next FRIENDS players of the pool (friendships are mutual).
const FRIENDS = 4;
// The pool's first user id (users[i] is FIRST_ID + i).
const FIRST_ID = 10001;
// The player the live view follows (rank, neighbours, friends board): the pool's first.
const FOLLOWED = 10_001;

/**
 * Seconds until the next event of a chance `chance` a second: a geometric draw, so events come as a
 * draw each second would bring them, at one draw an event rather than one a player a second.
 */
const secondsUntil = (random: Random, chance: number) =>
	math.max(1, math.ceil(math.log(1 - random.NextNumber()) / math.log(1 - chance)));

/** A pool player's display name: P1 for the pool's first. */
const displayName = (userId: number) => `P${userId - FIRST_ID + 1}`;

/**
 * A board's rows with every player's display name: rows a read left unnamed (at 100 servers the
 * names budget is spent) get the pool's, so no line shows a raw id ("Kills leader 12292 7").
 */
export const named = (entries: Entry[]) =>
	entries.map((entry) =>
		entry.DisplayName !== undefined ? entry : { ...entry, DisplayName: displayName(tonumber(entry.Key)!) },
	);

type PluginModule = {
	attach: (kernel: Kernel, options: LeaderboardOptions) => Leaderboards;
	MemoryStore: { backend: (this: void) => Backend };
};

// The server's BoardService (examples/luau, unchanged) attaches through the plugin module it
// requires, so the demo changes the options that module's attach gets: a MemoryStore backend when
// the game names none (the same game on MemoryStore), a replicated board (one client's board).
function onAttach(
	handle: GateServer,
	change: (options: LeaderboardOptions, plugin: PluginModule) => LeaderboardOptions,
) {
	const alias = handle.game
		.GetService("ServerScriptService")
		.WaitForChild("ChloeKernelServer")
		.WaitForChild("Leaderboards") as ModuleScript;
	const plugin = handle.require(alias) as PluginModule;
	const attach = plugin.attach;
	plugin.attach = (kernel, options) => attach(kernel, change(options, plugin));
}

/**
 * Runs a simulated game: servers that share one emulated OrderedDataStore (or
 * MemoryStore sorted map), each
 * booting the kernel with the design document's BoardService (examples/luau,
 * unchanged); players joining and leaving, scoring kills and finishing runs on
 * the virtual clock; every player's UI reading the top 10 every 10 s; the live
 * view following one player's rank, neighbours and friends board. Then
 * every server closes through the kernel close path, and the stores are checked
 * against an independent model of what was submitted. The run starts before a
 * midnight UTC and ends after it, so the daily board rolls over while it runs. Every backend request
 * takes the gate's realistic latency, seeded by the run's seed.
 */
export function simulate(gate: HeadlessGate, config: SimulationConfig, onFrame?: (frame: Frame) => void): Summary {
	const random = new Random(config.seed);
	const scale = isScale(config);
	gate.reset();
	// Requests take as long as on a published game (spec/gate/README.md, "Request latency").
	gate.latency.use("realistic", config.seed);
	const memory = config.backend === "memorystore";
	if (config.failRate > 0) {
		const [faults, methods] = memory
			? [gate.memoryStore, ["UpdateAsync", "GetRangeAsync", "GetAsync"]]
			: [gate.dataStore, ["UpdateAsync", "GetSortedAsync", "BatchGetAsync"]];
		for (const method of methods)
			faults.fault({ method, rate: config.failRate, seed: config.seed + method.size() });
	}

	const seconds = math.floor(config.minutes * 60);
	gate.calendar.set(MIDNIGHT - math.floor(seconds / 2));

	// The per-server write budget: UpdateAsync spends 30 + 5 x players OrderedWrite a minute;
	// on MemoryStore, the backend's share of the experience quota, 120 units a minute a player.
	const writesPerMinute = (players: number) => (memory ? 120 * math.max(1, players) : 30 + 5 * players);
	const servers = new Array<Server>();
	const dropped = new Array<{ board: string; key: string; value: number }>();
	const users = new Array<User>();
	const tracker = new Tracker(gate, PAGES_MAP, (key, value) => users[tonumber(key)! - FIRST_ID]?.killedAt.get(value));
	// Players on each server (GetPlayers, counted as they join and leave).
	const players = new Array<number>();
	for (let index = 0; index < config.servers; index++) {
		const handle = gate.newServer(PLACE);
		const scripts = handle.game.GetService("ServerScriptService");
		const kernelModule = scripts.WaitForChild("Leaderboards").WaitForChild("kernel") as ModuleScript;
		const { Kernel: KernelClass } = handle.require(kernelModule) as { Kernel: new () => Kernel };
		const kernel = new KernelClass();
		if (memory)
			onAttach(handle, (options, plugin) => ({
				...options,
				Backend: options.Backend ?? plugin.MemoryStore.backend(),
			}));
		if (index === 0 && !scale) onAttach(handle, replicated);
		const example = scripts.WaitForChild("Leaderboards").WaitForChild("examples").WaitForChild("luau");
		kernel.add(example.WaitForChild("BoardService") as ModuleScript);
		kernel.start();
		kernel.Bus.subscribe(Topics.Dropped, (_, board, key, value) =>
			dropped.push({ board: board as string, key: key as string, value: value as number }),
		);
		const server: Server = { handle, kernel, service: kernel.get("BoardService") as unknown as BoardService };
		kernel.Bus.subscribe(Topics.Drained, (_, result) => (server.drained = result as ShutdownResult));
		tracker.watch(index, kernel);
		servers.push(server);
		players.push(0);
		if (scale) gate.progress(`demo: ${count(index + 1)} of ${count(config.servers)} servers started`);
	}
	const watched = scale ? undefined : spectate(servers[0].handle, servers[0].kernel);
	const poolSize = math.ceil(config.servers * config.players * 1.5);
	for (let i = 1; i <= poolSize; i++) {
		users.push({
			id: 10_000 + i,
			name: `player${i}`,
			skill: random.NextNumber(0.3, 2),
			data: { Kills: 0 },
			submittedOn: new Map(),
			daily: new Map(),
			killedAt: new Map(),
		});
	}
	for (let i = 0; i < poolSize; i++)
		for (let step = 1; step <= FRIENDS && i + step < poolSize; step++)
			gate.friends.befriend(users[i].id, users[i + step].id);
	const online = new Array<User>();
	const offline = [...users];
	const join = (user: User, server: number, second: number) => {
		offline.remove(offline.indexOf(user));
		user.next = {
			kill: second + secondsUntil(random, user.skill / 60),
			run: second + secondsUntil(random, 1 / (RUN_EVERY_MINUTES * 60)),
			leave: second + secondsUntil(random, 1 / (SESSION_MINUTES * 60)),
		};
		user.server = server;
		user.player = servers[server].handle.join({
			UserId: user.id,
			Name: user.name,
			DisplayName: displayName(user.id),
		});
		online.push(user);
		players[server] += 1;
	};
	const leave = (user: User) => {
		servers[user.server!].handle.leave(user.player!);
		players[user.server!] -= 1;
		online.remove(online.indexOf(user));
		offline.push(user);
		user.server = undefined;
		user.player = undefined;
		user.next = undefined;
	};
	const pickOffline = () => offline[random.NextInteger(0, offline.size() - 1)];
	for (let server = 0; server < config.servers; server++)
		for (let i = 0; i < config.players; i++) join(pickOffline(), server, 0);

	let topCalls = 0;
	let writeBudget = 0;
	const counters = (second: number): Counters => {
		let submits = 0;
		let writes = 0;
		let failed = 0;
		let droppedCount = 0;
		for (const server of servers) {
			const stats = server.service.Boards.Stats;
			submits += stats.Submitted;
			writes += stats.Written;
			failed += stats.Failed;
			droppedCount += stats.Dropped;
		}
		const lookups = gate.users.stats();
		return {
			minute: second / 60,
			submits,
			writes,
			failed,
			dropped: droppedCount,
			budgetUsed:
				writeBudget > 0 ? (memory ? gate.memoryStore : gate.dataStore).calls("UpdateAsync") / writeBudget : 0,
			topCalls,
			backendReads: memory
				? gate.memoryStore.calls("GetRangeAsync")
				: gate.dataStore.calls("GetSortedAsync") + gate.dataStore.calls("AdvanceToNextPageAsync"),
			namesCalls: lookups.calls,
			namesResults: lookups.results,
			online: online.size(),
		};
	};
	const frame = (second: number): Frame => {
		const boards = servers[0].service.Boards;
		topCalls += 3;
		return {
			counters: counters(second),
			totals: scale ? tracker.totals() : undefined,
			kills: named(servers[0].service.topKills(10)),
			bestTimes: named(boards.names(boards.top("BestTime", 10))),
			dailyKills: named(servers[0].service.topDailyKills(10)),
			day: boards.period("DailyKills")!.Id,
			secondsToNewDay: boards.secondsUntilRoll("DailyKills")!,
			// Keyed by UserId, so the followed player is found on or off line. Scale mode follows no one.
			followed: scale
				? undefined
				: {
						name: displayName(FOLLOWED),
						me: servers[0].service.rankOf(tostring(FOLLOWED)),
						around: servers[0].service.aroundMe(tostring(FOLLOWED), 2),
						friends: servers[0].service.friendsKills(tostring(FOLLOWED))[0],
					},
		};
	};

	// What BoardService's handlers get for a player: the session with its profile.
	const sessionOf = (user: User) => ({ Player: user.player!, Profile: { Data: user.data } });
	const days = new Array<string>();
	for (let second = 1; second <= seconds; second++) {
		task.wait(1);
		for (const size of players) writeBudget += writesPerMinute(size) / 60;
		tracker.sample(online.size());
		for (const user of [...online]) {
			const server = servers[user.server!];
			const due = user.next!;
			if (due.kill === second) {
				due.kill = second + secondsUntil(random, user.skill / 60);
				user.submittedOn.set("Kills", user.server!);
				user.submittedOn.set("DailyKills", user.server!);
				const day = os.date("!%Y-%m-%d");
				if (!days.includes(day)) days.push(day);
				user.daily.set(day, (user.daily.get(day) ?? 0) + 1);
				// BoardService adds the kill to the profile and submits the count.
				user.killedAt.set(user.data.Kills + 1, gate.now());
				server.kernel.Bus.publish("Combat.Kill", sessionOf(user));
			}
			if (due.run === second) {
				due.run = second + secondsUntil(random, 1 / (RUN_EVERY_MINUTES * 60));
				const runSeconds = 30 + 60 / user.skill + random.NextNumber(0, 20);
				const millis = math.round(runSeconds * 1000);
				if (user.bestTime === undefined || millis < user.bestTime) {
					user.bestTime = millis;
					user.submittedOn.set("BestTime", user.server!);
				}
				server.kernel.Bus.publish("Run.Finished", sessionOf(user), runSeconds);
			}
			if (due.leave === second) {
				const into = user.server!;
				leave(user);
				join(pickOffline(), into, second);
			}
		}
		if (second % UI_REFRESH_SECONDS === 0) {
			// Every player's UI asks for the top 10; one read per cache window serves them all.
			for (const user of online) {
				const service = servers[user.server!].service;
				topCalls += 1;
				task.spawn(() => service.topKills(10));
			}
		}
		if (onFrame && second % 15 === 0) onFrame(frame(second));
	}
	tracker.stop();
	if (onFrame && seconds % 15 !== 0) onFrame(frame(seconds));
	const client = watched?.();

	// Close every server at once, as a shutdown of the universe would.
	let closing = servers.size();
	for (const server of servers) {
		task.spawn(() => {
			const [complete] = server.handle.close();
			server.closeComplete = complete;
			closing -= 1;
		});
	}
	while (closing > 0) task.wait(1);

	const mismatches = new Array<Mismatch>();
	const storedIn = (name: string) => {
		if (!memory) return gate.dataStore.snapshot(name);
		const stored = new Map<string, number>();
		for (const item of gate.memoryStore.snapshot(name)) stored.set(item.key, item.sortKey as number);
		return stored;
	};
	const kills = storedIn(KILLS_STORE);
	const times = storedIn(TIMES_STORE);
	let checked = 0;
	const check = (
		board: string,
		user: User,
		expected: number | undefined,
		stored: number | undefined,
		store = board,
	) => {
		if (expected === undefined) return;
		checked += 1;
		if (stored === expected) return;
		// The expected value itself was dropped, or it was still queued on a server whose drain did not finish.
		// On the sum board a dropped value is the part of the count that is missing (never the whole
		// count when part of it is stored: a drop from another day's period has the same board name).
		const lost = dropped.find(
			(d) =>
				d.board === board &&
				d.key === tostring(user.id) &&
				(board === "DailyKills" ? (stored ?? 0) + d.value === expected : d.value === expected),
		);
		const index = user.submittedOn.get(board)!;
		const drain = servers[index].drained;
		const reason = lost
			? `dropped after MaxWriteAttempts failed write windows (value ${lost.value})`
			: drain && !drain.Complete
				? `shutdown drain incomplete on server ${index + 1}: ${drain.Error ?? "pending"}`
				: "not stored";
		const kind: LossKind = lost
			? "dropped"
			: !drain || drain.Complete
				? "unexplained"
				: drain.Error === DEADLINE_EXCEEDED
					? "deadline"
					: drain.Error === NO_PROGRESS
						? "no progress"
						: "drain error";
		mismatches.push({
			board: store,
			user: user.id,
			expected,
			stored,
			reason,
			kind,
			explained: kind !== "unexplained",
		});
	};
	for (const user of users) {
		check("Kills", user, user.data.Kills > 0 ? user.data.Kills : undefined, kills.get(tostring(user.id)));
		check("BestTime", user, user.bestTime, times.get(tostring(user.id)));
	}
	for (const day of days) {
		const stored = storedIn(DAILY_STORE + day);
		for (const user of users)
			check("DailyKills", user, user.daily.get(day), stored.get(tostring(user.id)), `DailyKills@${day}`);
	}
	return {
		config,
		counters: counters(seconds),
		totals: tracker.totals(),
		servers: servers.map((server) => ({ complete: server.closeComplete === true, drain: server.drained })),
		client,
		checked,
		days,
		mismatches,
		losses: LOSS_KINDS.map((kind) => ({
			kind,
			count: mismatches.filter((mismatch) => mismatch.kind === kind).size(),
		})).filter((loss) => loss.count > 0),
		ok: mismatches.isEmpty(),
		explained: mismatches.every((mismatch) => mismatch.explained),
	};
}
