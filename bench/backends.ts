import { Kernel } from "../kernel";
import { Backend, attach, memoryStoreBackend, orderedDataStoreBackend } from "../plugins/leaderboards";
import { GateServer, HeadlessGate } from "../spec/gate/control";
import { count, counted } from "../spec/gate/format";
import { BenchRow, formatNumber } from "./measure";

// Writes a minute a game sustains on each backend: every server runs the
// plugin (attach, the Flusher's windows, WritesInFlight) on its own backend
// instance over the gate's emulated services at the realistic latency, under a
// write load past what the backend allows. The first minute is left out: every
// budget starts with a full minute of requests.

/**
 * Keys each server keeps improving (players, guilds, NPCs): more than a window
 * of the largest budget here (the queue holds one value a key), and few enough
 * for 100 servers' items to fit the memory quota (64 KB + 1.2 KB x users).
 */
const KEYS_PER_SERVER = 1800;
/** Every key improves this often: 10,800 submits a minute per server, past every budget here. */
const SUBMIT_EVERY = 10;

export type BackendKind = "ordered" | { shards: number };

export interface Sustained {
	/** Successful writes a minute, across the game, after the first minute. */
	perMinute: number;
	/** Requests the engine refused over a limit (throttle queue drops, quota and partition refusals). */
	refused: number;
}

function backendFor(kind: BackendKind, server: GateServer): Backend {
	// The server's own Players: the experience share is 18 writes a minute for each player of its own.
	if (kind === "ordered")
		return orderedDataStoreBackend(
			"CKBoard_",
			server.game.GetService("DataStoreService"),
			server.game.GetService("Players"),
		);
	return memoryStoreBackend({
		Shards: kind.shards,
		MemoryStoreService: server.game.GetService("MemoryStoreService"),
		Players: server.game.GetService("Players"),
	});
}

/** Runs the game for `minutes` after a first minute and counts the writes that landed. */
export function sustainedWrites(
	gate: HeadlessGate,
	kind: BackendKind,
	size: { servers: number; players: number; minutes: number; partitionLimit?: number },
): Sustained {
	gate.reset();
	gate.latency.use("realistic");
	if (size.partitionLimit !== undefined) gate.memoryStore.setPartitionLimit(size.partitionLimit);
	const boards = new Array<ReturnType<typeof attach>>();
	for (let s = 0; s < size.servers; s++) {
		const server = gate.newServer();
		for (let p = 1; p <= size.players; p++) server.join({ UserId: s * 1000 + p });
		boards.push(
			attach(new Kernel({ bindToClose: false }), {
				Boards: { Kills: {} },
				Backend: backendFor(kind, server),
				WritesPerFlush: 100_000,
				ShutdownSeconds: 0,
			}),
		);
	}
	let value = 0;
	const load = (seconds: number) => {
		for (let second = 0; second < seconds; second++) {
			// Each second a tenth of every server's keys improves.
			value += 1;
			const first = (second % SUBMIT_EVERY) * (KEYS_PER_SERVER / SUBMIT_EVERY);
			for (let s = 0; s < boards.size(); s++)
				for (let k = first; k < first + KEYS_PER_SERVER / SUBMIT_EVERY; k++)
					boards[s].submit("Kills", `s${s}k${k}`, value);
			task.wait(1);
		}
	};
	const written = () => boards.reduce((sum, b) => sum + b.Stats.Written, 0);
	load(60);
	const before = written();
	load(size.minutes * 60);
	const perMinute = (written() - before) / size.minutes;
	for (const b of boards) task.spawn(() => b.destroy());
	const refused = kind === "ordered" ? gate.dataStore.throttled() : gate.memoryStore.refused();
	gate.reset();
	return { perMinute: math.floor(perMinute), refused };
}

function describe(result: Sustained, refusal = "refused"): string {
	return `${formatNumber(result.perMinute, 0)} writes/min (${count(result.refused)} ${refusal})`;
}

/** 10. Writes a minute a game sustains on each backend, at 10 and 100 servers of 30 players. */
export function backendRows(
	gate: HeadlessGate,
	size: { servers: number[]; players: number; minutes: number },
): BenchRow[] {
	return size.servers.map((servers) => {
		const run = { servers, players: size.players, minutes: size.minutes };
		const ordered = sustainedWrites(gate, "ordered", run);
		const memory = sustainedWrites(gate, { shards: 1 }, run);
		const users = servers * size.players;
		const orderedBound = servers * (30 + 5 * size.players);
		const memoryBound = math.min(servers * 120 * size.players, 1000 + 120 * users, 50_000);
		return {
			name: `Writes a game sustains: ${counted(servers, "server")} of ${counted(size.players, "player")}, a write load past both budgets`,
			ours: `MemoryStore: ${describe(memory)}`,
			baseline: `OrderedDataStore: ${describe(ordered, "throttled")}`,
			ratio: `${formatNumber(memory.perMinute / math.max(ordered.perMinute, 1), 1)}x`,
			bound: `≥ 90% of OrderedDataStore ${count(orderedBound)} (30 + 5 x players per server) and of MemoryStore ${count(memoryBound)} (each server's share, 120 x players, within 1,000 + 120 x users and one partition's 50,000)`,
			met: ordered.perMinute >= 0.9 * orderedBound && memory.perMinute >= 0.9 * memoryBound,
		};
	});
}

/**
 * 11. MemoryStore with 1, 4 and 16 shards under a write load past one partition's
 * limit. The partition limit is scaled down (the docs' example is 50,000 units a
 * minute, and it fluctuates) so that a run of a few servers goes past it: what
 * the rows show is how writes grow with shards until the servers' share caps them.
 */
export function shardRows(
	gate: HeadlessGate,
	size: { servers: number; players: number; minutes: number; shards: number[]; partitionLimit: number },
): BenchRow[] {
	const run = {
		servers: size.servers,
		players: size.players,
		minutes: size.minutes,
		partitionLimit: size.partitionLimit,
	};
	const one = sustainedWrites(gate, { shards: 1 }, run);
	const share = size.servers * 120 * size.players;
	return size.shards.map((shards) => {
		const result = shards === 1 ? one : sustainedWrites(gate, { shards }, run);
		const bound = math.min(share, size.partitionLimit * shards);
		return {
			name: `MemoryStore, ${counted(shards, "shard")}: ${counted(size.servers, "server")} of ${counted(size.players, "player")}, partitions of ${count(size.partitionLimit)} units a minute`,
			ours: describe(result),
			baseline: `1 shard: ${describe(one)}`,
			ratio: `${formatNumber(result.perMinute / math.max(one.perMinute, 1), 2)}x`,
			bound: `≥ 90% of ${count(bound)} (${count(shards)} x ${count(size.partitionLimit)} a partition, within the servers' share ${count(share)})`,
			met: result.perMinute >= 0.9 * bound,
		};
	});
}
