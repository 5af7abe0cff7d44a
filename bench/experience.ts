// A whole experience on the gate: many lean servers (spec/gate/fixtures/lean), each
// running its own kernel and plugin with three boards (all-time kills, a daily
// board, coins that add up), players submitting every 5 s, asking top() every
// 10 s, around() every 30 s and friends() once a minute, and an Open Cloud tool
// spending a part of the experience's data store budget beside them. Measures
// what issue 26 holds the design to, for this project and for "today's design"
// (every server reading its own pages on its own server-level budget).

import type { Kernel } from "../kernel";
import type { Backend, Entry, LeaderboardOptions, Leaderboards } from "../plugins/leaderboards";
import { GateServer, HeadlessGate } from "../spec/gate/control";
import { count, counted, decimal } from "../spec/gate/format";
import { FreshnessFigures, FreshnessWatch } from "../spec/gate/freshness";
import { LEAN } from "../spec/gate/servers";
import { BenchRow } from "./measure";

export interface ExperienceSize {
	readonly servers: number;
	readonly players: number;
	/** Simulated minutes of play after every server started. */
	readonly minutes: number;
	/** The part of the experience's read, write and list budget an Open Cloud tool spends beside the game. */
	readonly openCloud: number;
}

/** "ours": this project as a game attaches it; "today": pages read by every server on its own server-level budget. */
export type Design = "ours" | "today";

export interface ExperienceFigures {
	readonly design: Design;
	readonly size: ExperienceSize;
	/** Requests that waited in a throttle queue (either level), and those the experience level dropped. */
	readonly throttled: number;
	readonly experienceThrottled: number;
	/** Drains that ended incomplete (each server's, one after another once play stopped). */
	readonly incompleteDrains: number;
	/** Accepted bests on the all-time board not stored (or stored lower) once every server closed, of how many keys. */
	readonly missing: number;
	readonly bests: number;
	readonly around: { calls: number; answered: number };
	readonly friends: { calls: number; answered: number };
	/** Ordered list requests a minute for top pages (around()'s left out), and the one-a-board-a-refresh goal. */
	readonly topListsPerMinute: number;
	readonly listGoalPerMinute: number;
	/**
	 * Records (a submit that entered the top 10) by the rule the demo shares (spec/gate/freshness.ts): seen
	 * on every other server's page, never seen (at their age when play stopped), displaced, superseded;
	 * seconds to every other server's page, p99 over the seen and never-seen ones.
	 */
	readonly records: FreshnessFigures;
	readonly freshnessP99: number;
	/** MemoryStore request units spent after the first minute, as a part of the experience's quota then. */
	readonly memoryShare: number;
	/** MessagingService: messages published, copies refused by the receive limits. */
	readonly published: number;
	readonly messagesRefused: number;
}

const BOARDS = { Kills: {}, DailyKills: { Reset: "Daily" }, Coins: { Sum: true } };
const CACHE_SECONDS = 60;
const VISIBLE = 10;
const TOOL = "universes/1/ordered-data-stores/Tool/scopes/global/entries";
/** Freshness counts records from the second minute: the first fills every board's top from nothing. */
const WARMUP = 60;
/**
 * ...until SETTLE seconds before play ends (a record has that long to be seen). One still unseen
 * when play ends counts at its age then (at least SETTLE), not after every server's close drain.
 */
const SETTLE = 10;

type Plugin = {
	attach: (kernel: Kernel, options: LeaderboardOptions<string>) => Leaderboards<string>;
	orderedDataStoreBackend: (prefix: string, stores: DataStoreService, players?: Players) => Backend;
};

interface Running {
	readonly server: GateServer;
	readonly kernel: Kernel;
	readonly boards: Leaderboards<string>;
	readonly players: Player[];
	readonly index: number;
}

function moduleOf(server: GateServer, ...path: string[]): ModuleScript {
	let at: Instance = server.game.GetService("ServerScriptService").WaitForChild("Leaderboards");
	for (const name of path) at = at.WaitForChild(name);
	return at as ModuleScript;
}

// Players that count as a crowd: the share of a backend built with them never binds, so only the
// server-level budgets do (today's design).
const crowd = { GetPlayers: () => setmetatable({}, { __len: () => 1e9 }) } as unknown as Players;

// The true all-time board's top VISIBLE (kills only grow), ranked as the pages rank it: by value, ties
// by key: whether a new best enters it.
class TopTen {
	private readonly rows = new Array<[string, number]>();

	enters(key: string, value: number): boolean {
		const at = this.rows.findIndex(([k]) => k === key);
		if (at >= 0) this.rows.remove(at);
		this.rows.push([key, value]);
		this.rows.sort((a, b) => (a[1] !== b[1] ? a[1] > b[1] : a[0] < b[0]));
		if (this.rows.size() > VISIBLE) this.rows.pop();
		return at < 0 && this.rows.some(([k]) => k === key);
	}
}

/** One experience played for size.minutes and closed: what the gate saw. */
export class ExperienceRun {
	private readonly servers = new Array<Running>();
	private readonly freshness: FreshnessWatch;
	private readonly best = new Map<string, number>();
	private readonly top = new TopTen();
	private readonly around = { calls: 0, answered: 0 };
	private readonly friends = { calls: 0, answered: 0 };
	private topLists = 0;
	private incomplete = 0;
	private playing = true;
	private started = 0;

	constructor(
		private readonly gate: HeadlessGate,
		private readonly size: ExperienceSize,
		private readonly design: Design,
	) {
		this.freshness = new FreshnessWatch(VISIBLE, () => gate.now());
	}

	run(): ExperienceFigures {
		const { gate, size } = this;
		gate.reset();
		gate.latency.use("realistic");
		this.befriend();
		for (let i = 1; i <= size.servers; i++) this.servers.push(this.start(i));
		const started = gate.now();
		this.started = started;
		this.servers.forEach((running, i) => task.spawn(() => this.play(running, i)));
		task.spawn(() => this.openCloud());
		// MemoryStore units counted after the first minute, as freshness is: the boards fill from nothing then.
		task.wait(WARMUP);
		const units = gate.memoryStore.units();
		const measured = gate.now();
		task.wait(size.minutes * 60 - WARMUP);
		this.playing = false;
		const ended = gate.now();
		this.freshness.stop();
		const minutes = (ended - started) / 60;
		const memoryUnits = gate.memoryStore.units() - units;
		const quota = (gate.memoryStore.quota().requestUnits * (gate.now() - measured)) / 60;
		for (const running of this.servers) {
			running.kernel.stop();
			const [complete] = running.boards.destroy();
			if (!complete) this.incomplete += 1;
		}
		for (const running of this.servers) running.server.close();
		return this.figures(minutes, memoryUnits / quota);
	}

	private figures(minutes: number, memoryShare: number): ExperienceFigures {
		const { gate, size, design } = this;
		let experienceThrottled = 0;
		for (const kind of ["OrderedRead", "OrderedWrite", "OrderedList", "OrderedRemove"])
			experienceThrottled += gate.dataStore.dropped(`${kind}ExperienceThrottled`);
		const stored = gate.dataStore.snapshot("CKBoard_Kills");
		let missing = 0;
		for (const [key, value] of this.best) if ((stored.get(key) ?? -1) < value) missing += 1;
		const records = this.freshness.figures();
		const counts = gate.messaging.counts();
		return {
			design,
			size,
			throttled: gate.dataStore.throttled(),
			experienceThrottled,
			missing,
			bests: this.best.size(),
			around: this.around,
			friends: this.friends,
			topListsPerMinute: this.topLists / minutes,
			incompleteDrains: this.incomplete,
			listGoalPerMinute: (3 * 60) / CACHE_SECONDS,
			records,
			freshnessP99: records.p99 ?? 0,
			memoryShare,
			published: counts.published,
			messagesRefused: counts.overTopic + counts.overExperience,
		};
	}

	// One server: its players, its own kernel and plugin, and a watch on its Kills page for records.
	private start(index: number): Running {
		const { gate, size, design } = this;
		const server = gate.newServer(LEAN);
		const players = new Array<Player>();
		for (let p = 1; p <= size.players; p++) players.push(server.join({ UserId: index * 1000 + p }));
		const { Kernel: KernelClass } = server.require(moduleOf(server, "kernel")) as {
			Kernel: new (options?: object) => Kernel;
		};
		const plugin = server.require(moduleOf(server, "plugins", "leaderboards")) as Plugin;
		const stores = server.game.GetService("DataStoreService");
		const base = plugin.orderedDataStoreBackend("CKBoard_", stores, design === "ours" ? undefined : crowd);
		// The same backend, counting the list requests its top-page reads send (a page of 100 each).
		const backend: Backend = {
			...base,
			sorted: (name, ascending, count, call) => {
				const rows = base.sorted(name, ascending, count, call);
				if (rows) this.topLists += math.max(1, math.ceil(rows.size() / 100));
				return rows;
			},
		};
		const kernel = new KernelClass({ bindToClose: false });
		const boards = plugin.attach(kernel, {
			Boards: BOARDS as LeaderboardOptions<string>["Boards"],
			Backend: backend,
			SharePages: design === "ours",
		});
		const running: Running = { server, kernel, boards, players, index };
		kernel.Bus.subscribe("Leaderboard.Updated", (_, board, entries) => {
			if (board === "Kills") this.freshness.page(index, entries as Entry[]);
		});
		kernel.start();
		return running;
	}

	// Every 5 s each player scores (kills grow by 0-3), every 10 s asks top() (the page, 100 rows: a
	// record that falls past the top 10 later stays in sight), every 30 s around(),
	// every 60 s friends(); players are spread over the seconds.
	private play(running: Running, index: number) {
		const kills = running.players.map(() => 0);
		// Seeded per server: a run is the same run whatever ran before it.
		const random = new Random(index + 1);
		for (let tick = 0; this.playing; tick++) {
			running.players.forEach((player, p) => {
				const turn = (tick + index + p) % 60;
				if (turn % 5 === 0) this.score(running, player, (kills[p] += random.NextInteger(0, 3)));
				if (turn % 10 === 0) running.boards.top("Kills");
				if (turn % 30 === 0) task.spawn(() => this.ask(this.around, running.boards.around("Kills", player, 5)));
				if (turn === 0) task.spawn(() => this.ask(this.friends, running.boards.friends("Kills", player)[0]));
			});
			task.wait(1);
		}
	}

	private ask(tally: { calls: number; answered: number }, answer: unknown) {
		tally.calls += 1;
		if (answer !== undefined) tally.answered += 1;
	}

	private score(running: Running, player: Player, kills: number) {
		const key = tostring(player.UserId);
		running.boards.submit("DailyKills", player, kills);
		running.boards.submit("Coins", player, 1);
		if (!running.boards.submit("Kills", player, kills)) return;
		if (kills <= (this.best.get(key) ?? -1)) return;
		this.best.set(key, kills);
		if (!this.top.enters(key, kills)) return;
		const at = this.gate.now();
		if (at - this.started < WARMUP || this.size.minutes * 60 - (at - this.started) < SETTLE) return;
		const others = new Array<number>();
		for (const other of this.servers) if (other !== running) others.push(other.index);
		this.freshness.record(key, kills, at, others);
	}

	// Each player befriends a few players of other servers (friendships are mutual).
	private befriend() {
		const ids = new Array<number>();
		for (let s = 1; s <= this.size.servers; s++)
			for (let p = 1; p <= this.size.players; p++) ids.push(s * 1000 + p);
		for (let i = 0; i < ids.size(); i++)
			for (let step = 1; step <= 3; step++) {
				const other = ids[(i + step * 7) % ids.size()];
				if (other !== ids[i]) this.gate.friends.befriend(ids[i], other);
			}
	}

	// An admin tool beside the game: reads, writes and lists on a store of its own, `openCloud` of the
	// experience's budget of each, paced over each second.
	private openCloud() {
		const { gate, size } = this;
		if (size.openCloud <= 0) return;
		const owed = { OrderedRead: 0, OrderedWrite: 0, OrderedList: 0 };
		let n = 0;
		while (this.playing) {
			for (const kind of ["OrderedRead", "OrderedWrite", "OrderedList"] as const) {
				owed[kind] += (size.openCloud * gate.dataStore.experienceLimit(kind)) / 60;
				for (; owed[kind] >= 1; owed[kind] -= 1) {
					n += 1;
					const id = `${TOOL}/t${n % 50}`;
					task.spawn(() => {
						if (kind === "OrderedRead") gate.openCloud.request("GET", id);
						else if (kind === "OrderedList") gate.openCloud.request("GET", TOOL);
						else gate.openCloud.request("PATCH", id, { query: { allowMissing: true }, body: { value: n } });
					});
				}
			}
			task.wait(1);
		}
	}
}

/** Plays an experience of `size` with `design` and returns what the gate saw. */
export function playExperience(gate: HeadlessGate, size: ExperienceSize, design: Design): ExperienceFigures {
	return new ExperienceRun(gate, size, design).run();
}

/** Whether an experience held every goal issue 26 sets. */
export function heldGoals(f: ExperienceFigures): boolean {
	return (
		f.throttled === 0 &&
		f.experienceThrottled === 0 &&
		f.missing === 0 &&
		f.around.answered >= 0.9 * f.around.calls &&
		f.friends.answered === f.friends.calls &&
		f.topListsPerMinute <= f.listGoalPerMinute &&
		f.records.seen + f.records.neverSeen > 0 &&
		f.freshnessP99 <= 5 &&
		f.memoryShare <= 0.1 &&
		f.messagesRefused === 0
	);
}

const percent = (part: number, whole: number) => `${decimal((100 * part) / math.max(1, whole), 0)}%`;

// What one design did, in a cell.
function cell(f: ExperienceFigures): string {
	return (
		`${count(f.throttled)} throttled (${count(f.experienceThrottled)} at the experience), ` +
		`${count(f.missing)}/${count(f.bests)} bests missing, around() ${percent(f.around.answered, f.around.calls)} ` +
		`and friends() ${percent(f.friends.answered, f.friends.calls)} answered, ` +
		`${decimal(f.topListsPerMinute, 1)} top-page lists a minute, a record on every server in ${decimal(f.freshnessP99, 1)} s ` +
		`(p99 of ${count(f.records.seen + f.records.neverSeen)}, ${count(f.records.neverSeen)} never seen; ${count(f.records.displaced)} displaced), ` +
		`MemoryStore ${percent(f.memoryShare, 1)} of the quota, ${counted(f.published, "message")} (${count(f.messagesRefused)} refused)`
	);
}

/**
 * 14. An experience: `size` played by this project and by today's design (every server reading its
 * own pages on its server-level budgets) in the same run.
 */
export function experienceRow(gate: HeadlessGate, size: ExperienceSize): BenchRow {
	const ours = playExperience(gate, size, "ours");
	const today = playExperience(gate, size, "today");
	return {
		name:
			`An experience: ${count(size.servers)} servers x ${counted(size.players, "player")}, three boards, ` +
			`${size.minutes} min, an Open Cloud tool at ${percent(size.openCloud, 1)} of the budget`,
		ours: cell(ours),
		baseline: `today's design: ${cell(today)}`,
		ratio: `${decimal(today.topListsPerMinute / math.max(ours.topListsPerMinute, 1e-9), 0)}x fewer top-page lists`,
		bound:
			"0 throttled at either level, every best stored, ≥ 90% of around() answered, " +
			`≤ ${decimal(ours.listGoalPerMinute, 0)} top-page lists a minute (one a board a refresh), records in ≤ 5 s (p99), ` +
			"MemoryStore ≤ 10% of the quota, 0 messages refused",
		met: heldGoals(ours),
	};
}
