import type { Kernel, sleep } from "../../kernel";
import {
	Backend,
	BoardConfig,
	DEADLINE_EXCEEDED,
	Entry,
	LeaderboardOptions,
	Leaderboards,
	MemoryStoreOptions,
	OrderedStores,
	ShutdownResult,
	Stages,
} from "../../plugins/leaderboards";
import { FAILED_WINDOWS } from "../../plugins/leaderboards/internal";
import { FaultRule, GateServer, HeadlessGate } from "../gate/control";
import { DrainFaults, SentWrite } from "./drainFaults";
import { DurableModel, HOURLY } from "./durable";
import { HandBacks } from "./handBack";

// The project's own model test (issue 13): several servers on one emulated
// store, random submits, faults, hung requests, throttling, a noisy neighbour,
// concurrent readers, destroy() at random times and transient write faults
// around drains (issue 24), checked against an independent model of what each
// server accepted. One seed is one run, fully determined by the seed (the
// gate's clock, faults and latency are seeded too).

/** How a board kind merges and ranks values, as the model sees it (not the project's rules). */
export interface BoardKind {
	readonly name: string;
	readonly config: BoardConfig;
	/** What a store that applied every value in `accepted` could hold now (keep-best: one of them). */
	readonly possible: (stored: number, accepted: ReadonlySet<number>) => boolean;
	/** stored holds at least what a server that accepted `best` owes the board. */
	readonly covers: (stored: number, best: number) => boolean;
	/** A stored value went from before to after in a way the board never allows. */
	readonly regressed: (before: number, after: number) => boolean;
	/** The model's merge of a server's accepted values for one key. */
	readonly merge: (held: number | undefined, incoming: number) => number;
	/** An hourly board: each hour is stored apart (`board@2027-01-01T00`), checked as its own keys. */
	readonly hourly?: boolean;
	/** Where the board is stored on a backend, when not under its name (an encoded board: `Big#Big`). */
	readonly storage?: (backend: string) => string;
	/** The value a stored number holds on a backend, by the model's own reading (default: the number itself). */
	readonly decode?: (stored: number, backend: string) => number;
	/** A stored number no write of the board could hold (a tie-break's second outside the run), or undefined. */
	readonly odd?: (stored: number) => string | undefined;
	/** The values submitted (default: whole numbers 0 to 10,000). */
	readonly draw?: (random: Random) => number;
}

const keepBest = (name: string, ascending: boolean): BoardKind => ({
	name,
	config: { Ascending: ascending },
	possible: (stored, accepted) => accepted.has(stored),
	covers: (stored, best) => (ascending ? stored <= best : stored >= best),
	regressed: (before, after) => (ascending ? after > before : after < before),
	merge: (held, incoming) =>
		held === undefined ? incoming : ascending ? math.min(held, incoming) : math.max(held, incoming),
});

// A sum board adds every accepted delta. Deltas are never negative here, so a
// total never falls; a write that failed but landed may add twice on
// OrderedDataStores (at least once), so the model checks only the floor.
const sum = (name: string): BoardKind => ({
	name,
	config: { Sum: true },
	possible: (stored) => stored >= 0,
	covers: (stored, total) => stored >= total,
	regressed: (before, after) => after < before,
	merge: (held, incoming) => (held ?? 0) + incoming,
});

// An hourly keep-best board: every run starts 40 s before a UTC hour (and a
// year) ends, so values submitted before the roll are written after it.
const hourly: BoardKind = { ...keepBest("Hourly", false), config: { Reset: "Hourly" }, hourly: true };

// A Big board: any magnitude to 1e300. On OrderedDataStores a code of the exponent and 42 mantissa bits
// (read back here by the model's own formula), so a value comes back within 2^-42 of what was accepted.
const BIG_STEP = 2 ** 41;
const near = (a: number, b: number) => math.abs(a - b) <= math.abs(b) * 2 ** -42;
const big: BoardKind = {
	...keepBest("Big", false),
	config: { Values: "Big" },
	storage: (backend) => (backend === "OrderedDataStore" ? "Big#Big" : "Big"),
	decode: (stored, backend) =>
		backend !== "OrderedDataStore" || stored <= 0
			? stored
			: math.ldexp(BIG_STEP + ((stored - 1) % BIG_STEP), math.floor((stored - 1) / BIG_STEP) - 1073 - 42),
	possible: (stored, accepted) => {
		for (const value of accepted) if (near(stored, value)) return true;
		return false;
	},
	covers: (stored, best) => stored >= best || near(stored, best),
	draw: (random) => random.NextNumber(1, 10) * 10 ** random.NextInteger(0, 300),
};

// A tie-break board: value x 10^9 + the second stored, counted down from 2025-01-01 + 10^9 s.
const TIE_SPAN = 1e9;
const TIE_END = 1_735_689_600 + TIE_SPAN;
const first: BoardKind = {
	...keepBest("First", false),
	config: { TieBreak: "Earliest" },
	storage: () => "First#Earliest",
	decode: (stored) => math.floor(stored / TIE_SPAN),
	odd: (stored) => {
		const at = TIE_END - 1 - (stored % TIE_SPAN);
		return at < START || at > os.time() ? `a time of ${at}, outside the run` : undefined;
	},
};

/** The board kinds every seed runs. */
export const BOARD_KINDS: BoardKind[] = [
	keepBest("High", false),
	keepBest("Low", true),
	sum("Total"),
	hourly,
	big,
	first,
];

/** Where runs start on the calendar: 40 s before 2027-01-01T00:00 UTC. */
const START = 1_798_761_600 - 40;

/** The hour a value submitted now belongs to, as the board names its storage. */
const hourOf = (unix: number) => os.date("!%Y-%m-%dT%H", unix);

/** Where the boards are stored, as the model reads it back. */
export interface BackendKind {
	readonly name: string;
	/** The backend for one server (its plugin module, as that server loaded it). */
	readonly backend: (plugin: PluginModule, server: GateServer) => Backend;
	/** Every stored value of a board, read from the gate (never through the project). */
	readonly stored: (gate: HeadlessGate, board: string) => Map<string, number>;
	/** Adds a fault rule to the backend's emulated service. */
	readonly fault: (gate: HeadlessGate, rule: FaultRule) => void;
	/** The service's methods that write, and that read, for fault rules. */
	readonly writes: string[];
	readonly reads: string[];
}

export const BACKEND_KINDS: BackendKind[] = [
	{
		name: "OrderedDataStore",
		// The default backend, as attach makes it from StorePrefix "Model_".
		backend: (plugin, server) =>
			plugin.orderedDataStoreBackend("Model_", server.game.GetService("DataStoreService")),
		stored: (gate, board) => gate.dataStore.snapshot(`Model_${board}`),
		fault: (gate, rule) => gate.dataStore.fault(rule),
		writes: ["UpdateAsync"],
		reads: ["GetSortedAsync", "BatchGetAsync"],
	},
	{
		name: "MemoryStore",
		backend: (plugin, server) =>
			plugin.memoryStoreBackend({
				MapPrefix: "Model_",
				MemoryStoreService: server.game.GetService("MemoryStoreService"),
				Players: server.game.GetService("Players"),
			}),
		stored: (gate, board) => {
			const stored = new Map<string, number>();
			for (const item of gate.memoryStore.snapshot(`Model_${board}`))
				// A sum board's item is its total and the writers' ledger.
				stored.set(
					item.key,
					typeIs(item.value, "table") ? (item.value as { Total: number }).Total : (item.value as number),
				);
			return stored;
		},
		fault: (gate, rule) => gate.memoryStore.fault(rule),
		writes: ["UpdateAsync"],
		reads: ["GetRangeAsync", "GetAsync"],
	},
];

/** The plugin module as a server requires it. */
export interface PluginModule {
	readonly attach: (kernel: Kernel, options: LeaderboardOptions) => Leaderboards;
	readonly memoryStoreBackend: (options: MemoryStoreOptions) => Backend;
	readonly orderedDataStoreBackend: (storePrefix: string, stores: OrderedStores) => Backend;
}

/** What one seed found. */
export interface SeedReport {
	seed: number;
	backend: string;
	servers: number;
	submits: number;
	accepted: number;
	reads: number;
	/** Drain results, in server order; `faulted`: a write fault (drainFaults.ts) overlapped the drain. */
	drains: { complete: boolean; remaining: number; seconds: number; error?: string; faulted: boolean }[];
	/** Erasures asked for, servers killed (no BindToClose), runs of the hourly board's period handler. */
	erasures: number;
	kills: number;
	handlerRuns: number;
	/** destroy() calls that began while their server held an erasure (handBack.ts). */
	closedMidErasure: number;
	violations: string[];
}

interface ModelServer {
	readonly index: number;
	readonly handle: GateServer;
	readonly kernel: Kernel;
	readonly boards: Leaderboards;
	readonly stages: Stages;
	readonly players: Player[];
	/** The model: this server's best accepted value per board and key. */
	readonly best: Map<string, Map<string, number>>;
	destroyedAt?: number;
	result?: ShutdownResult;
	drainSeconds?: number;
	/** The writes this server sent once destroy() began, as they returned. */
	readonly drainWrites: SentWrite[];
	lastFlushed: number;
	pendingSince?: number;
	/** When it was killed: closed with no BindToClose, every thread of it stopped, nothing drained. */
	killed?: number;
	/** Its top()/names()/scores() calls not yet returned. */
	outstanding: number;
}

/**
 * A drain must not give up while the store would accept writes: one that
 * stopped incomplete for any reason but its deadline, with ShutdownSeconds
 * not used up, after its last write was sent with no write fault on (the
 * store accepting writes again, but for its usual failure rate and
 * throttling), should have kept writing; unless the failing windows that
 * stopped it were the fault's, the last few just after it. What it met, when
 * it did not.
 */
function gaveUpWhileAccepting(
	server: ModelServer,
	result: ShutdownResult,
	shutdownSeconds: number,
	faults: DrainFaults,
): string | undefined {
	const left = shutdownSeconds - server.drainSeconds!;
	if (result.Complete || result.Error === undefined || result.Error === DEADLINE_EXCEEDED || left <= 0)
		return undefined;
	let last = server.destroyedAt! + server.drainSeconds!;
	if (!server.drainWrites.isEmpty()) {
		last = -math.huge;
		for (const write of server.drainWrites) last = math.max(last, write.at);
	}
	if (faults.on(last) !== undefined) return undefined;
	const from = server.destroyedAt!;
	const fault = faults.faults.find((candidate) => candidate.start < last && candidate.finish > from);
	// A streak of failing windows the fault began may end with a failure of the usual kind just after
	// it: the rule stops after FAILED_WINDOWS such windows, so fewer writes since, all failed, are the fault's.
	if (fault) {
		const since = server.drainWrites.filter((write) => write.at >= fault.finish);
		if (since.size() < FAILED_WINDOWS && since.every((write) => write.error !== undefined)) return undefined;
	}
	// Its writes' failures by message, most frequent first.
	const failures = new Map<string, number>();
	let failed = 0;
	for (const write of server.drainWrites) {
		if (write.error === undefined) continue;
		failed += 1;
		failures.set(write.error, (failures.get(write.error) ?? 0) + 1);
	}
	const messages = new Array<[string, number]>();
	for (const entry of failures) messages.push(entry);
	messages.sort((a, b) => a[1] > b[1]);
	const seen = messages.map(([message, count]) => `${count} x "${message.sub(1, 90)}"`).join(", ");
	return (
		`the drain gave up ("${result.Error}") after ${string.format("%.2f", server.drainSeconds!)} s with ` +
		`${string.format("%.2f", left)} s of ShutdownSeconds ${shutdownSeconds} left while the store accepted writes` +
		(fault
			? ` (its write fault, rate ${string.format("%.2f", fault.rate)}, ended ${string.format("%.2f", fault.finish - server.destroyedAt!)} s into the drain)`
			: "") +
		`; ${failed} of its ${server.drainWrites.size()} writes failed${seen !== "" ? `: ${seen}` : ""}`
	);
}

function moduleOf(handle: GateServer, ...path: string[]): ModuleScript {
	let at: Instance = handle.game.GetService("ServerScriptService").WaitForChild("Leaderboards");
	for (const name of path) at = at.WaitForChild(name);
	return at as ModuleScript;
}

/** Runs one seed and checks it against the model. */
export function runSeed(gate: HeadlessGate, seed: number, backendKind: BackendKind = BACKEND_KINDS[0]): SeedReport {
	const random = new Random(seed);
	const violations = new Array<string>();
	const violate = (text: string) => {
		if (violations.size() < 20) violations.push(text);
	};
	gate.reset();
	gate.calendar.set(START);
	gate.latency.use("realistic", seed);
	// Record announcements (MessagingService) lost, late and out of order: they cost freshness only.
	gate.messaging.lose(random.NextNumber(0, 0.5), seed);
	gate.messaging.reorder(random.NextNumber(0, 3), seed);

	const serverCount = random.NextInteger(2, 3);
	const flushSeconds = random.NextInteger(1, 5);
	const requestSeconds = random.NextInteger(2, 5);
	const shutdownSeconds = random.NextInteger(5, 10);
	const writesPerFlush = random.NextInteger(3, 30);
	const duration = random.NextInteger(60, 150);
	// Light seeds drain completely; heavy ones outrun the write budget and leave work at the deadline.
	const submitGap = random.NextNumber(0.1, 2);
	// Faults, 10-40%: some failed writes land anyway.
	const writeRate = random.NextNumber(0.1, 0.4);
	backendKind.writes.forEach((method, i) => {
		backendKind.fault(gate, { method, rate: writeRate / 2, seed: seed + i * 10, landed: true });
		backendKind.fault(gate, { method, rate: writeRate / 2, seed: seed + i * 10 + 1 });
	});
	backendKind.reads.forEach((method, i) =>
		backendKind.fault(gate, { method, rate: random.NextNumber(0.1, 0.4), seed: seed + i * 10 + 2 }),
	);
	gate.users.fault({ rate: random.NextNumber(0.1, 0.4), seed: seed + 5 });
	for (let id = 1; id <= 40; id++) gate.users.register(id, `user${id}`, `User ${id}`);

	const errorWatch = game.GetService("LogService").MessageOut.Connect((message, kind) => {
		if (kind === Enum.MessageType.MessageError) {
			violate(`an error reached the output: ${message.sub(1, 200)}`);
		}
	});

	// Write faults around drains, on their own generator (its seed scrambled: the gate's
	// xorshift32 starts near 0 from a small seed).
	const faults = new DrainFaults(new Random((seed * 2_654_435_761 + 24) % 2 ** 32), () => gate.now());

	const servers = new Array<ModelServer>();
	// Kills, erasures and the hourly board's period ends, on their own generator (existing seeds keep their runs).
	const durableRandom = new Random((seed * 2_654_435_761 + 29) % 2 ** 32);
	const kill = (index: number) => {
		const server = servers[index];
		if (server === undefined || server.killed !== undefined) return;
		server.killed = gate.now();
		durable.killedAt.set(index, server.killed);
		task.spawn(() => server.handle.close());
	};
	const durable = new DurableModel(gate, durableRandom, kill);
	const handBacks = new HandBacks(() => gate.now());
	// Fresh servers each seed, closed at its end: pooled ones kept every earlier seed's threads and
	// unstopped kernels on the shared clock, so each seed cost more than the last. The place holds
	// only the library (spec/model/server.project.json): building the whole project took 0.09 s a server.
	const startServer = (playerCount: number): ModelServer => {
		const index = servers.size();
		const handle = gate.newServer("spec/model/server.project.json");
		const { Kernel: KernelClass, sleep: serverSleep } = handle.require(moduleOf(handle, "kernel")) as {
			Kernel: new (options?: object) => Kernel;
			sleep: typeof sleep;
		};
		const plugin = handle.require(moduleOf(handle, "plugins", "leaderboards")) as PluginModule;
		const kernel = new KernelClass({ bindToClose: false });
		const boardsConfig: Record<string, BoardConfig> = {};
		for (const kind of BOARD_KINDS) boardsConfig[kind.name] = kind.config;
		// The writes a server sends once destroy() began: what its drain met.
		const drainWrites = new Array<SentWrite>();
		let destroyedAt: () => number | undefined = () => undefined;
		const backend = faults.wrap(handBacks.counting(backendKind.backend(plugin, handle), index), (write) => {
			const since = destroyedAt();
			if (since !== undefined && write.at >= since) drainWrites.push(write);
		});
		const boards = plugin.attach(kernel, {
			Boards: boardsConfig,
			FlushSeconds: flushSeconds,
			WritesPerFlush: writesPerFlush,
			RequestSeconds: requestSeconds,
			ShutdownSeconds: shutdownSeconds,
			// Nothing is dropped, so every accepted best is owed to the store.
			MaxWriteAttempts: 1_000_000,
			Backend: backend,
		});
		boards.onPeriodEnd(
			HOURLY,
			durable.handlerFor(index, (seconds) => serverSleep(kernel.Scheduler, seconds).await()),
		);
		kernel.start();
		const players = new Array<Player>();
		for (let i = 0; i < playerCount; i++) players.push(handle.join({ UserId: 1 + index * 10 + i }));
		const server: ModelServer = {
			index,
			handle,
			kernel,
			boards,
			stages: (boards as unknown as { stages: Stages }).stages,
			players,
			best: new Map(),
			drainWrites,
			lastFlushed: gate.now(),
			outstanding: 0,
		};
		destroyedAt = () => server.destroyedAt;
		kernel.Bus.subscribe("Leaderboard.Flushed", () => (server.lastFlushed = gate.now()));
		for (const kind of BOARD_KINDS) server.best.set(kind.name, new Map());
		servers.push(server);
		return server;
	};
	for (let n = 0; n < serverCount; n++) startServer(random.NextInteger(0, 6));

	// Every value any server accepted, per board and key: what a store may hold.
	const accepted = new Map<string, Map<string, Set<number>>>();
	for (const kind of BOARD_KINDS) accepted.set(kind.name, new Map());
	let submits = 0;
	let acceptedCount = 0;
	let reads = 0;
	const started = gate.now();
	let running = true;

	// A call that must return: timed, counted while out (on a killed server it never does), its error a violation.
	const timed = (server: ModelServer, what: string, limit: number, call: () => unknown) => {
		server.outstanding += 1;
		reads += 1;
		const from = gate.now();
		const [ok, problem] = pcall(call);
		server.outstanding -= 1;
		if (!ok) violate(`${what} raised: ${tostring(problem)}`);
		const took = gate.now() - from;
		if (took > limit + 0.5) violate(`${what} took ${took} s (limit ${limit} s)`);
	};

	const keyFor = (server: ModelServer): [unknown, string] => {
		const roll = random.NextInteger(1, 10);
		if (roll <= 3 && !server.players.isEmpty()) {
			const player = server.players[random.NextInteger(0, server.players.size() - 1)];
			return [player, tostring(player.UserId)];
		}
		const id = random.NextInteger(1, 40);
		return roll <= 6 ? [id, tostring(id)] : [`npc-${id}`, `npc-${id}`];
	};

	// Submits, readers and the noisy neighbour, each on its own thread.
	task.spawn(() => {
		while (running) {
			task.wait(random.NextNumber(0, submitGap));
			if (!running) break;
			const server = servers[random.NextInteger(0, servers.size() - 1)];
			const kind = BOARD_KINDS[random.NextInteger(0, BOARD_KINDS.size() - 1)];
			if (random.NextNumber() < 0.05) {
				// Junk a game's bug produces: never accepted.
				submits += 1;
				if (server.boards.submit(kind.name, undefined as unknown as string, 5))
					violate("submit accepted a nil subject");
				continue;
			}
			const [subject, key] = keyFor(server);
			const value = kind.draw ? kind.draw(random) : random.NextInteger(0, 10_000);
			// An erased player's scores are no longer submitted (a game stops scoring them).
			if (durable.isErased(key)) continue;
			submits += 1;
			if (server.boards.submit(kind.name, subject as string, value)) {
				acceptedCount += 1;
				if (server.destroyedAt !== undefined) violate("submit accepted after destroy()");
				// The model's key: on an hourly board, the key in the hour it was submitted in.
				const modelKey = kind.hourly ? `${key}@${hourOf(os.time())}` : key;
				const values = accepted.get(kind.name)!;
				if (!values.has(modelKey)) values.set(modelKey, new Set());
				values.get(modelKey)!.add(value);
				const best = server.best.get(kind.name)!;
				best.set(modelKey, kind.merge(best.get(modelKey), value));
			}
		}
	});
	for (const server of servers) {
		const readers = random.NextInteger(1, 3);
		for (let r = 0; r < readers; r++) {
			task.spawn(() => {
				while (running) {
					task.wait(random.NextNumber(0.5, 4));
					if (!running || server.killed !== undefined) break;
					const kind = BOARD_KINDS[random.NextInteger(0, BOARD_KINDS.size() - 1)];
					const count = random.NextInteger(1, 100);
					let entries = new Array<Entry>();
					// The hour the page is read for, as the model keys an hourly board.
					const hour = hourOf(os.time());
					timed(server, "top()", requestSeconds, () => (entries = server.boards.top(kind.name, count)));
					// A page (shared, patched by announcements) shows only what the store held at some time.
					for (const entry of entries) {
						const modelKey = kind.hourly ? `${entry.Key}@${hour}` : entry.Key;
						const values = accepted.get(kind.name)!.get(modelKey);
						if (!values || !kind.possible(entry.Value, values))
							violate(
								`top() of ${kind.name} showed ${entry.Key} = ${entry.Value}, a value the store never held`,
							);
					}
					timed(server, "names()", requestSeconds, () => server.boards.names(entries));
					if (random.NextNumber() < 0.3)
						timed(server, "scores()", requestSeconds, () =>
							server.boards.scores(kind.name, [tostring(random.NextInteger(1, 40)), "npc-3"]),
						);
				}
			});
		}
	}
	const noisy = servers[0].handle.game.GetService("DataStoreService");
	task.spawn(() => {
		// A neighbour on the same server spending its request budget in bursts.
		while (running) {
			task.wait(random.NextNumber(5, 30));
			const burst = random.NextInteger(1, 15);
			for (let i = 0; i < burst && running; i++)
				task.spawn(() => pcall(() => noisy.GetOrderedDataStore("Noise").SetAsync(`n${i}`, i)));
		}
	});
	// Hung requests, arriving at random times.
	const hangs = [...backendKind.writes, ...backendKind.reads, "UserService"];
	for (const method of hangs) {
		if (random.NextNumber() < 0.7) {
			task.delay(random.NextNumber(0, duration), () => {
				if (method === "UserService") gate.users.fault({ hangNext: 1 });
				else backendKind.fault(gate, { method, hangNext: random.NextInteger(1, 2) });
			});
		}
	}

	const destroy = (server: ModelServer) => {
		if (server.destroyedAt !== undefined || server.killed !== undefined) return;
		server.destroyedAt = gate.now();
		const eraser = server.stages.Eraser as unknown as { context: { manifest: { server: string } } };
		const holder = eraser.context.manifest.server;
		handBacks.closing(holder, gate.dataStore.standard.snapshot("CKBoard_Manifest"));
		task.spawn(() => {
			const [, result] = server.boards.destroy();
			// A real server ends here: its erasure must be handed back already.
			const inTime = result.Error !== DEADLINE_EXCEEDED;
			handBacks.closed(server.index + 1, holder, gate.dataStore.standard.snapshot("CKBoard_Manifest"), inTime);
			server.result = result;
			server.drainSeconds = gate.now() - server.destroyedAt!;
		});
	};
	for (const server of servers) {
		if (random.NextNumber() < 0.4) {
			const after = random.NextNumber(duration / 4, duration);
			faults.plan(started + after, shutdownSeconds);
			task.delay(after, () => destroy(server));
		}
	}
	// The universe's shutdown at the end may meet a fault too.
	faults.plan(started + duration, shutdownSeconds);
	scheduleDurable(durable, durableRandom, servers, duration, kill);

	// What a board holds, as the model keys it: an hourly board's hours, each key as key@hour; an encoded
	// board's values decoded (odd numbers, a violation).
	const storedOf = (kind: BoardKind) => {
		if (!kind.hourly) {
			const stored = backendKind.stored(gate, kind.storage?.(backendKind.name) ?? kind.name);
			for (const [key, raw] of stored) {
				const odd = kind.odd?.(raw);
				if (odd !== undefined) violate(`${kind.name} ${key} holds ${raw}: ${odd}`);
				if (kind.decode) stored.set(key, kind.decode(raw, backendKind.name));
			}
			return stored;
		}
		const stored = new Map<string, number>();
		for (const unix of [START, START + 3600]) {
			const hour = hourOf(unix);
			for (const [key, value] of backendKind.stored(gate, `${kind.name}@${hour}`))
				stored.set(`${key}@${hour}`, value);
		}
		return stored;
	};

	// Checks while it runs: no stored value regresses or was never accepted; no window stalls.
	const previous = new Map<string, Map<string, number>>();
	const checkStore = () => {
		for (const kind of BOARD_KINDS) {
			const stored = storedOf(kind);
			const before = previous.get(kind.name);
			const values = accepted.get(kind.name)!;
			for (const [key, value] of stored) {
				if (durable.reappeared(baseKey(key))) violate(`${kind.name} ${key}: erased, and stored again`);
				const prior = before?.get(key);
				if (prior !== undefined && kind.regressed(prior, value))
					violate(`${kind.name} ${key} regressed from ${prior} to ${value}`);
				const submitted = values.get(key);
				if (submitted === undefined || !kind.possible(value, submitted))
					violate(`${kind.name} ${key} holds ${value}, never accepted`);
			}
			previous.set(kind.name, stored);
		}
	};
	const stallLimit = flushSeconds + 2 * requestSeconds + 5;
	const checkWindows = () => {
		const now = gate.now();
		for (const server of servers) {
			if (server.destroyedAt !== undefined || server.killed !== undefined) continue;
			if (server.stages.Queue.pending() === 0) {
				server.pendingSince = undefined;
				continue;
			}
			server.pendingSince ??= now;
			const since = math.max(server.lastFlushed, server.pendingSince);
			if (now - since > stallLimit)
				violate(`a window stalled: ${server.stages.Queue.pending()} queued, no window for ${now - since} s`);
		}
	};
	const manifest = () => gate.dataStore.standard.snapshot("CKBoard_Manifest");
	while (gate.now() - started < duration) {
		task.wait(1);
		durable.noteDone(manifest());
		checkStore();
		checkWindows();
	}

	// The universe shuts down: every server still up drains now.
	for (const server of servers) destroy(server);
	const shutdownLimit = shutdownSeconds + 1;
	const closing = gate.now();
	const draining = () => servers.some((server) => server.result === undefined && server.killed === undefined);
	while (draining() && gate.now() - closing < shutdownLimit + 5) task.wait(0.25);
	running = false;
	// Let every reader's last call come back (or be seen not to).
	task.wait(requestSeconds * 2 + 1);
	checkStore();

	const drains = new Array<SeedReport["drains"][number]>();
	for (let at = 0; at < servers.size(); at++) {
		const server = servers[at];
		const index = at + 1;
		const result = server.result;
		if (server.killed !== undefined) {
			drains.push({ complete: false, remaining: -1, seconds: -1, error: "killed", faulted: false });
			continue;
		}
		if (result === undefined) {
			violate(`server ${index}: destroy() never returned`);
			drains.push({ complete: false, remaining: -1, seconds: -1, faulted: false });
			continue;
		}
		if (server.drainSeconds! > shutdownSeconds + 0.5)
			violate(`server ${index}: destroy() took ${server.drainSeconds} s (ShutdownSeconds ${shutdownSeconds})`);
		const drainEnd = server.destroyedAt! + server.drainSeconds!;
		drains.push({
			complete: result.Complete,
			remaining: result.Remaining,
			seconds: server.drainSeconds!,
			error: result.Error,
			faulted: faults.faults.some((fault) => fault.start < drainEnd && fault.finish > server.destroyedAt!),
		});
		let misses = 0;
		for (const kind of BOARD_KINDS) {
			const stored = storedOf(kind);
			for (const [key, best] of server.best.get(kind.name)!) {
				if (durable.isErased(baseKey(key))) continue;
				const value = stored.get(key);
				if (value === undefined || !kind.covers(value, best)) misses += 1;
			}
		}
		if (result.Complete && misses > 0)
			violate(`server ${index}: a complete drain left ${misses} accepted bests unstored`);
		if (misses > result.Remaining)
			violate(`server ${index}: ${misses} accepted bests unstored, more than Remaining ${result.Remaining}`);
		const gaveUp = gaveUpWhileAccepting(server, result, shutdownSeconds, faults);
		if (gaveUp !== undefined) violate(`server ${index}: ${gaveUp}, ${misses} accepted bests unstored`);
	}
	let outstanding = 0;
	for (const server of servers) if (server.killed === undefined) outstanding += server.outstanding;
	if (outstanding > 0) violate(`${outstanding} top()/names()/scores() calls never returned`);

	// The game's next start: a fresh server resumes every unfinished erasure and period end (and, when a
	// handler kills it, the next one does).
	let resumed = startServer(0);
	const settled = () => {
		durable.noteDone(manifest());
		return durable.violations(manifest(), os.time()).isEmpty();
	};
	for (let waited = 0; waited < RESUME_SECONDS && !settled(); waited += 5) {
		task.wait(5);
		if (resumed.killed !== undefined) resumed = startServer(0);
		checkStore();
	}
	checkStore();
	for (const found of durable.violations(manifest(), os.time())) violate(found);
	handBacks.check(durable.killedAt);
	for (const found of handBacks.violations) violate(found);
	for (const key of durable.recorded(manifest()))
		for (const kind of BOARD_KINDS)
			for (const [stored] of storedOf(kind))
				if (baseKey(stored) === key) violate(`${kind.name} ${stored}: erased, still stored at the end`);
	if (resumed.killed === undefined) resumed.kernel.stop();

	errorWatch.Disconnect();
	for (const server of servers) if (server.killed === undefined) server.handle.close();
	gate.reset();
	return {
		seed,
		backend: backendKind.name,
		servers: serverCount,
		submits,
		accepted: acceptedCount,
		reads,
		drains,
		erasures: durable.erasures.size(),
		kills: durable.killedAt.size(),
		handlerRuns: durable.runs.size(),
		closedMidErasure: handBacks.midErasure,
		violations,
	};
}

/** How long the game's next start may take to finish what the run left: erasures, the hour's handler. */
const RESUME_SECONDS = 900;

/** A model key without its hour ("7@2027-01-01T00" is "7"). */
const baseKey = (key: string) => key.split("@")[0];

/**
 * Erasures at random times (up to two a seed, of keys the run submits, from a server still up) and
 * kills: half the seeds kill a server around the hourly board's roll (START + 40 s). The handler kills
 * its own server half the time (durable.ts).
 */
function scheduleDurable(
	durable: DurableModel,
	random: Random,
	servers: ModelServer[],
	duration: number,
	kill: (index: number) => void,
) {
	const up = () => servers.filter((server) => server.killed === undefined && server.destroyedAt === undefined);
	for (let i = random.NextInteger(0, 2); i > 0; i--) {
		const id = random.NextInteger(1, 40);
		const key = random.NextNumber() < 0.5 ? tostring(id) : `npc-${id}`;
		task.delay(random.NextNumber(5, duration * 0.8), () => {
			const candidates = up();
			if (candidates.isEmpty() || durable.isErased(key)) return;
			durable.requested(key);
			const server = candidates[random.NextInteger(0, candidates.size() - 1)];
			server.boards.erase(key);
		});
	}
	if (random.NextNumber() < 0.5)
		task.delay(random.NextNumber(30, 70), () => {
			const candidates = up();
			if (candidates.size() > 1) kill(candidates[random.NextInteger(0, candidates.size() - 1)].index);
		});
}
