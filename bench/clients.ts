import { Kernel } from "../kernel";
import { attach } from "../plugins/leaderboards";
import { READY } from "../plugins/leaderboards/contracts";
import { GateClient, HeadlessGate } from "../spec/gate/control";
import { count, counted } from "../spec/gate/format";
import { BenchRow, formatNumber } from "./measure";
import { TutorialServer, tutorialClient } from "./tutorial";

/** Boards players see, measured: players (each a client), minutes measured after a warm-up. */
export interface ClientsSize {
	players: number;
	minutes: number;
	warmup: number;
}

const BOARDS = ["Kills", "DailyKills", "BestTime"];
// The demo's load (examples/demo/simulation.ts): kills a minute drawn in [0.3, 2) a player, a run every 3 minutes.
const RUN_EVERY_MINUTES = 3;
// Roblox's tutorial refreshes every client's board this often.
const TUTORIAL_SECONDS = 3;
// An established board: this many players of earlier days, every one ahead of today's players.
const ESTABLISHED = 1_000;

/** What a player does each second at the demo's load; `write` takes (board, key, value, sum). */
function playLoad(size: ClientsSize, write: (board: string, key: string, value: number, sum: boolean) => void) {
	const random = new Random(46);
	const skills = new Array<number>();
	const kills = new Array<number>();
	const best = new Array<number>();
	for (let i = 0; i < size.players; i++) {
		skills.push(random.NextNumber(0.3, 2));
		kills.push(0);
		best.push(math.huge);
	}
	return () => {
		for (let i = 0; i < size.players; i++) {
			const key = tostring(i + 1);
			if (random.NextNumber() < skills[i] / 60) {
				kills[i] += 1;
				write("Kills", key, kills[i], false);
				write("DailyKills", key, 1, true);
			}
			if (random.NextNumber() < 1 / (RUN_EVERY_MINUTES * 60)) {
				const millis = math.round((30 + 60 / skills[i] + random.NextNumber(0, 20)) * 1000);
				best[i] = math.min(best[i], millis);
				write("BestTime", key, best[i], false);
			}
		}
	};
}

// The stores of an established board (`prefix` + board, a daily board's today's): ESTABLISHED keys
// ahead of every player online, the first 20 with names.
function establish(gate: HeadlessGate, name: (board: string) => string) {
	const values = (value: (rank: number) => number) => {
		const entries = new Map<string, number>();
		for (let rank = 1; rank <= ESTABLISHED; rank++) entries.set(tostring(100_000 + rank), value(rank));
		return entries;
	};
	gate.dataStore.seed(
		name("Kills"),
		values((rank) => 10_000 - rank),
	);
	gate.dataStore.seed(
		name("DailyKills"),
		values((rank) => 5_000 - rank),
	);
	gate.dataStore.seed(
		name("BestTime"),
		values((rank) => 20_000 + rank),
	);
	for (let rank = 1; rank <= 20; rank++) gate.users.register(100_000 + rank, `Player${100_000 + rank}`, `P ${rank}`);
}

// The players, each with a client of their own.
function joinPlayers(gate: HeadlessGate, size: ClientsSize): GateClient[] {
	const clients = new Array<GateClient>();
	for (let id = 1; id <= size.players; id++)
		clients.push(gate.connectClient({ UserId: id, Name: `Player${id}`, DisplayName: `Player ${id}` }));
	return clients;
}

/** A run's bytes both ways, summed over its clients, in the measured minutes (events: its fires instead). */
function measuredBytes(
	size: ClientsSize,
	clients: GateClient[],
	second: () => void,
): { bytes: number; events: number } {
	const traffic = () =>
		clients.reduce(
			(sum, client) => {
				const stats = client.stats();
				return {
					bytes: sum.bytes + stats.received + stats.sent,
					events: sum.events + stats.eventsReceived + stats.eventsSent,
				};
			},
			{ bytes: 0, events: 0 },
		);
	for (let s = 0; s < size.warmup; s++) {
		second();
		task.wait(1);
	}
	const before = traffic();
	for (let s = 0; s < size.minutes * 60; s++) {
		second();
		task.wait(1);
	}
	const after = traffic();
	return { bytes: after.bytes - before.bytes, events: after.events - before.events };
}

// This project: three boards with Replicate, refreshed on a timer; each client says ready as
// LeaderboardsClient does, or (ready false) never asks. Bytes a minute a client, and every list and
// read request of the run.
function replicated(gate: HeadlessGate, size: ClientsSize, established: boolean, ready: boolean) {
	gate.reset();
	if (established)
		establish(gate, (board) =>
			board === "DailyKills" ? `CKBoard_DailyKills@${os.date("!%Y-%m-%d")}` : `CKBoard_${board}`,
		);
	// No RefreshSeconds: on one server its own records patch its pages (each an Updated), so the reads
	// are the first pages' alone, whatever the order of a frame.
	const replicate = { Replicate: { Rows: 10 } };
	const kernel = new Kernel({ bindToClose: false });
	const boards = attach(kernel, {
		Boards: {
			Kills: replicate,
			DailyKills: { ...replicate, Reset: "Daily", Sum: true },
			BestTime: { ...replicate, Ascending: true },
		},
	});
	const clients = joinPlayers(gate, size);
	kernel.start();
	if (ready)
		for (const client of clients) {
			const pages = client.game
				.GetService("ReplicatedStorage")
				.WaitForChild("Leaderboards")
				.WaitForChild("Pages");
			(pages as RemoteEvent).OnClientEvent.Connect(() => {});
			(pages as RemoteEvent).FireServer(READY);
		}
	const load = playLoad(size, (board, key, value) => boards.submit(board as never, key, value));
	const { bytes, events } = measuredBytes(size, clients, load);
	// The store's reads (UpdateAsync's are the writes', which a frame's order may group otherwise).
	const calls = gate.dataStore.calls;
	const requests =
		calls("GetSortedAsync") + calls("AdvanceToNextPageAsync") + calls("GetAsync") + calls("BatchGetAsync");
	for (const client of clients) client.leave();
	boards.destroy();
	kernel.stop();
	const perClientMinute = clients.size() * size.minutes;
	return { bytes: bytes / perClientMinute, events: events / perClientMinute, requests };
}

// Roblox's tutorial: writes through, every client invoking for each board every 3 s. Its bytes as
// designed: each invoke's request and, as an answered invoke's reply costs, its rows (most are
// throttled here, past the budgets); its lists and name lookups a minute.
function tutorial(gate: HeadlessGate, size: ClientsSize, established: boolean) {
	gate.reset();
	if (established) establish(gate, (board) => `Tutorial_${board}`);
	const server = new TutorialServer(new Set(["BestTime"]));
	const clients = joinPlayers(gate, size);
	const loops = clients.map((client) => tutorialClient(client, BOARDS, TUTORIAL_SECONDS));
	const load = playLoad(size, (board, key, value, sum) => server.write(board, key, value, sum));
	measuredBytes(size, clients, load);
	for (const loop of loops) task.cancel(loop);
	const { invokes, answered, lists, names } = server.counts;
	const sent = clients.reduce((sum, client) => sum + client.stats().sent, 0);
	const received = clients.reduce((sum, client) => sum + client.stats().received, 0);
	for (const client of clients) client.leave();
	server.destroy();
	const minutes = size.warmup / 60 + size.minutes;
	const perClientMinute = (BOARDS.size() * 60) / TUTORIAL_SECONDS;
	return {
		bytes: perClientMinute * (sent / invokes + received / math.max(answered, 1)),
		lists: lists / minutes,
		names: names / minutes,
		throttled: (invokes - answered) / minutes,
	};
}

/**
 * Bytes a minute a client for three boards of 10 rows at the demo's load, against the tutorial's
 * design in the same run; store requests caused by clients: this project's run with clients that ask
 * for the boards less the same run with clients that never ask, the tutorial's every list.
 */
export function clientsRow(gate: HeadlessGate, size: ClientsSize, established: boolean): BenchRow {
	const ours = replicated(gate, size, established, true);
	const alone = replicated(gate, size, established, false);
	const caused = ours.requests - alone.requests;
	const naive = tutorial(gate, size, established);
	gate.reset();
	const boards = established ? `boards ${count(ESTABLISHED)} earlier players lead` : "boards starting empty";
	return {
		name: `Boards players see: ${counted(size.players, "player")} at the demo's load, 3 ${boards}, top 10 each`,
		ours: `${formatNumber(ours.bytes, 0)} bytes in ${formatNumber(ours.events, 0)} events a minute a client; ${counted(caused, "store request")} by clients`,
		baseline: `${formatNumber(naive.bytes, 0)} bytes a minute a client; ${formatNumber(naive.lists, 0)} lists (${formatNumber(naive.throttled, 0)} throttled) and ${formatNumber(naive.names, 0)} name lookups a minute (Roblox's tutorial: an invoke every 3 s)`,
		ratio: ours.bytes > 0 ? `${formatNumber(naive.bytes / ours.bytes, 1)}x fewer bytes` : "no bytes at all",
		bound: "at most a tenth of the tutorial's bytes, 0 store requests by clients",
		met: ours.bytes * 10 <= naive.bytes && caused === 0,
	};
}

/** The two rows: boards that start empty (every player climbs them) and boards others lead. */
export function clientsRows(gate: HeadlessGate, size: ClientsSize): BenchRow[] {
	return [clientsRow(gate, size, false), clientsRow(gate, size, true)];
}
