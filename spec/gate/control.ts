// The headless gate's control, as specs see it. The gate puts a ModuleScript
// named HeadlessGate in ServerStorage; in Studio it is absent, and the specs
// that need it (the gate's own) skip.

/** A fault rule for an emulated service. Rules apply in the order they were added. */
export interface FaultRule {
	/** Only this method (for example "UpdateAsync"); every method when absent. */
	method?: string;
	/** Fail the next N calls. */
	failNext?: number;
	/** Never return from the next N calls: they yield forever. */
	hangNext?: number;
	/** Fail each call with this probability, from a generator seeded by `seed`. */
	rate?: number;
	seed?: number;
	/** The error message; the service's own default when absent. */
	message?: string;
	/** Let the write land before the call fails (a failed write may still have landed). */
	landed?: boolean;
	/**
	 * UpdateAsync (data stores, sorted and hash maps): fail an attempt before its transform runs
	 * (the transform never sees the value); without it a rule fails a request after it travelled.
	 */
	before?: boolean;
}

/**
 * A request latency distribution in seconds: log-normal from its median and 99th
 * percentile (a long tail), or always `fixed` (0 is one frame). Every latency
 * rounds up to whole frames of 1/64 s.
 */
export type LatencyDistribution = { median: number; p99: number } | { fixed: number };

/**
 * Distributions by "Service.Method" (for example "DataStore.UpdateAsync") or by
 * "Service" ("DataStore", "UserService", "MemoryStore", "Friends"); a request with
 * neither takes one frame.
 */
export type LatencyProfile = { [key: string]: LatencyDistribution };

/** An item of an emulated sorted map. */
export interface MemoryStoreItem {
	key: string;
	value: unknown;
	sortKey?: number | string;
}

/** The emulated MemoryStoreService quotas, as the observability dashboard shows them. */
export interface MemoryStoreQuota {
	/** Players in every server. */
	users: number;
	/** Request units a minute: 1000 + 120 x users. */
	requestUnits: number;
	/** Units left now (the bucket holds one minute and refills continuously). */
	available: number;
	/** Bytes: 64 KB + 1.2 KB x the most users seen since the last reset. */
	memory: number;
	memoryUsed: number;
	partitionLimit: number;
	/** Each data structure's own request units a minute: 100,000 (DataStructureRequestsOverLimit). */
	structureLimit: number;
	/** Partitions a hash map spreads over (the docs give no count: the gate's choice). */
	hashPartitions: number;
	/** With a map name: that map's partition units left now. */
	partitionAvailable?: number;
}

/** An Open Cloud v2 answer: 200 and the resource, or an error status and the v2 error format. */
export interface OpenCloudResponse {
	status: number;
	body: unknown;
}

/** The v2 error format (cloud/reference/errors). */
export interface OpenCloudError {
	code:
		| "INVALID_ARGUMENT"
		| "PERMISSION_DENIED"
		| "NOT_FOUND"
		| "ABORTED"
		| "RESOURCE_EXHAUSTED"
		| "INTERNAL"
		| "UNAVAILABLE";
	message: string;
}

/** How the front paces the virtual clock against the wall clock. */
export type FrontPace = "tool" | "always" | "never";

/** A process the front ran: its exit code (undefined when killed), the signal, its output. */
export interface FrontExit {
	code?: number;
	signal?: string;
	stdout: string;
	stderr: string;
}

/** A request the front answered. */
export interface FrontRequest {
	/** Virtual seconds at its arrival. */
	at: number;
	/** Wall seconds at its arrival. */
	wall: number;
	method: string;
	path: string;
	/** The openapi's operationId without "Cloud_", when the path names one. */
	operation?: string;
	status?: number;
}

export interface HeadlessGate {
	/** Virtual seconds since the gate started. */
	now: () => number;
	/** Real seconds, for CPU measurements only. */
	wallClock: () => number;
	pendingTimers: () => number;
	/**
	 * The wall-clock calendar os.time, os.date, tick and DateTime show: set places it at a
	 * Unix time now, without waiting (it runs on with the virtual clock); reset() restores
	 * the default, virtual time 0 = Sunday 2026-12-06 00:00 UTC. Forward is a jump every dated
	 * thing sees (memory store items expire); backward moves every memory store expiry back with
	 * it (an item keeps the life it had left), or with `{ strict: true }` errors once a request
	 * has been made since the last gate.reset() (spec/gate/README.md, "One clock").
	 */
	calendar: {
		set: (unixSeconds: number, options?: { strict?: boolean }) => void;
		reset: (options?: { strict?: boolean }) => void;
	};
	/** Runs the Luau collector through full cycles, then returns the heap in kilobytes (what is still reachable, read as the last cycle sweeps). */
	collect: () => number;
	/** The Luau heap in kilobytes (gcinfo; garbage not yet collected counts too). */
	heapKilobytes: () => number;
	/** stdout is a terminal that can redraw (not CI, not a pipe). */
	isTerminal: () => boolean;
	/** Writes a line to stdout (the game's own print and warn stay in LogService unless --verbose). */
	write: (text: string) => void;
	/** Writes a line to stderr: usage errors and notes that are not the output. */
	writeError: (text: string) => void;
	/** A status line on stderr that the next replaces, shown only when stderr is a terminal; "" clears it. */
	progress: (text: string) => void;
	/** The terminal's size: COLUMNS and LINES when set, else the terminal's own, else 80 x 24. */
	terminalSize: () => { columns: number; rows: number };
	/**
	 * Starts another server: its own DataModel built from the same project (or the
	 * project file given: a consumer fixture's place), with its
	 * own Players, request budgets, BindToClose and require cache; the clock, the
	 * stored data and the users are shared with every other server.
	 */
	newServer: (projectFile?: string) => GateServer;
	/** A player joins the run's server with a client of their own (GateServer.connectClient). */
	connectClient: (info: ClientInfo) => GateClient;
	/** A project file's text, or undefined (paths relative to the project root). */
	readFile: (path: string) => string | undefined;
	isDirectory: (path: string) => boolean;
	/** A folder's entries, or undefined when it is not a folder. */
	listDirectory: (path: string) => { name: string; directory: boolean }[] | undefined;
	dataStore: {
		reset: () => void;
		fault: (rule: FaultRule) => void;
		clearFaults: () => void;
		/** Shorthand for `latency.use({ DataStore: { fixed: seconds } })`. */
		setLatency: (seconds: number) => void;
		snapshot: (name: string, scope?: string) => Map<string, number>;
		/**
		 * Stores values in an ordered store as data written before the run: no request, no budget
		 * at either level (a spec's setup: filling 1,000 keys through SetAsync would be throttled
		 * by the experience's 300 + 20 x CCU writes a minute).
		 */
		seed: (name: string, entries: Map<string, number>, scope?: string) => void;
		/** Ordered store requests made, of one method or all (standard stores: `standard.calls`). */
		calls: (method?: string) => number;
		throttled: () => number;
		/** Requests of a type ("OrderedRead", ...) every server spent since the last reset: N keys of a BatchGetAsync are N OrderedRead. */
		spent: (kind: string) => number;
		/** The run's server's budget of a request type ("OrderedRead", ...): what GetRequestBudgetForRequestType returns. */
		budget: (kind: string) => number;
		/** Requests of a type the experience level has left now (shared by every server and Open Cloud). */
		experienceBudget: (kind: string) => number;
		/** The experience level's requests a minute of a type: 300 + 40, 20, 2 or 40 x every server's players. */
		experienceLimit: (kind: string) => number;
		/**
		 * Requests of a type ("OrderedRead", "StandardWrite", ...) the run's server's one-time startup
		 * burst has left: always 0, since the run's own server has none (a newServer() server's:
		 * `server.startupBurst`).
		 */
		startupBurst: (kind: string) => number;
		/** Standard data stores (DataStoreService:GetDataStore), shared by every server. */
		standard: {
			/** A fault rule for standard store requests ("GetAsync", "UpdateAsync", ...); 502 by default. */
			fault: (rule: FaultRule) => void;
			clearFaults: () => void;
			/** A store's values by key (copies). */
			snapshot: (name: string, scope?: string) => Map<string, unknown>;
			/** Stores values as data written before the run: no request, no budget. */
			seed: (name: string, entries: Map<string, unknown>, scope?: string) => void;
			/** Standard store requests made, of one method ("GetAsync", "UpdateAsync", ...) or all (`calls` above counts ordered stores only). */
			calls: (method?: string) => number;
		};
		/**
		 * Requests dropped from a full throttle queue, by error name ("GetAsyncThrottle" ... for
		 * the server level, "OrderedReadExperienceThrottled" ... for the experience level), or all.
		 */
		dropped: (name?: string) => number;
	};
	/** How long every emulated request takes (spec/gate/README.md, "Request latency"). */
	latency: {
		/**
		 * Chooses the profile: "frame" (the default: every request takes one frame),
		 * "realistic" (the published figures), or your own. Draws are seeded by `seed`
		 * (default 1): the same seed and the same requests give the same latencies.
		 * gate.reset() goes back to "frame".
		 */
		use: (profile: "frame" | "realistic" | LatencyProfile, seed?: number) => void;
		/** The active profile: its name ("custom" for your own) and distributions. */
		profile: () => { name: string; distributions: LatencyProfile };
		/** Requests of a service ("DataStore", ...) sent and not yet back; a hung request stays. */
		inFlight: (service: string) => number;
		/** The most requests of a service in flight at once since its last reset. */
		peakInFlight: (service: string) => number;
	};
	/** MemoryStoreService: sorted maps shared by every server, the experience's quotas. */
	memoryStore: {
		/** Every map, quota reading, fault and counter cleared (gate.reset() does this too). */
		reset: () => void;
		fault: (rule: FaultRule) => void;
		clearFaults: () => void;
		/** A map's live items in ascending order. */
		snapshot: (name: string) => MemoryStoreItem[];
		/** The quotas now; with a map name, that map's partition too. */
		quota: (name?: string) => MemoryStoreQuota;
		/** One partition's (one sorted map's) request limit, in units a minute (default 50,000). */
		setPartitionLimit: (unitsPerMinute: number) => void;
		/** Requests made, of one method or all (refused ones included). */
		calls: (method?: string) => number;
		/** Requests refused over a limit, by status code ("TotalRequestsOverLimit", ...) or all. */
		refused: (code?: string) => number;
		/**
		 * A hash map's live items by key; with `field`, each table item's field alone (items that are not
		 * tables, or lack it, left out): cheap enough to sample every second.
		 */
		hashSnapshot: (name: string, field?: string) => Map<string, unknown>;
		/** Every data structure's own request limit, in units a minute (default 100,000). */
		setStructureLimit: (unitsPerMinute: number) => void;
		/** Request units spent since the last reset, a range read's items included (refused requests spend none). */
		units: () => number;
	};
	/**
	 * Workspace.SignalBehavior, the place's setting for every server: "Default" (Immediate today),
	 * "Immediate", "Deferred" or "AncestryDeferred". The run's is `run.mjs --signals`; gate.reset()
	 * goes back to it.
	 */
	signals: {
		use: (behavior: string) => void;
		behavior: () => string;
		reset: () => void;
	};
	/** MessagingService: delivery across every server of the gate, best effort (spec/gate/README.md). */
	messaging: {
		/** Subscriptions, budgets, counts, faults, delay and reordering cleared (gate.reset() does this too). */
		reset: () => void;
		/** A fault rule for "PublishAsync", "SubscribeAsync" or "Deliver" (a failed delivery is a lost message). */
		fault: (rule: FaultRule) => void;
		/** Loses each delivery with this probability, seeded. */
		lose: (rate: number, seed?: number) => void;
		/** Every delivery waits this many seconds on top of its latency. */
		delay: (seconds: number) => void;
		/** Every delivery waits a further uniform draw in [0, seconds), seeded: messages overtake each other. */
		reorder: (seconds: number, seed?: number) => void;
		/** Messages published, copies delivered and lost, copies refused by the per-topic and experience receive limits. */
		counts: () => { published: number; delivered: number; lost: number; overTopic: number; overExperience: number };
		/** Servers of the experience: the run's own and every newServer() not closed. */
		servers: () => number;
	};
	/**
	 * Open Cloud v2 from outside every server: ordered data store entries
	 * (`universes/{u}/ordered-data-stores/{store}/scopes/{scope}/entries[/{id}[:increment]]`) spending
	 * the experience's data store budget with no queue (429 past it), and sorted map items
	 * (`universes/{u}/memory-store/sorted-maps/{map}/items[/{id}]`) on the memory stores' quotas, and
	 * standard data store entries (`universes/{u}/data-stores/{store}[/scopes/{scope}]/entries[/{id}[:increment]]`)
	 * on the standard stores' budgets, an update's etag checked (409 ABORTED when the entry changed).
	 * Yields for the request's latency ("OpenCloud" in a latency profile; sorted maps travel as MemoryStore).
	 */
	openCloud: {
		request: (
			method: "GET" | "POST" | "PATCH" | "DELETE",
			path: string,
			options?: { query?: Record<string, string | number | boolean>; body?: object },
		) => OpenCloudResponse;
		/** Faults and counts cleared (gate.reset() does this too). */
		reset: () => void;
		/** A fault rule for ordered entry requests, by operation ("GetOrderedDataStoreEntry", ...). */
		fault: (rule: FaultRule) => void;
		clearFaults: () => void;
		/** Requests made, by operation (the openapi's operationId without "Cloud_"), or all. */
		calls: (operation?: string) => number;
	};
	/**
	 * The loopback HTTP front of Open Cloud (spec/gate/front.mjs, engine/front.luau): a real HTTP
	 * server on 127.0.0.1 answering v2 paths through `openCloud`, as the gateway would: 401 for a key
	 * it was not given, 404 for another universe, 403 PERMISSION_DENIED for a scope the key lacks.
	 */
	front: {
		/**
		 * Serves (or changes what it serves); returns the port. pace: "tool" (the default: the clock runs
		 * at wall speed while a process run() started runs), "always" or "never".
		 */
		serve: (options: {
			universe?: number;
			keys?: Record<string, string[]>;
			pace?: FrontPace;
			/** The port on 127.0.0.1 (any free one unless given; only the first serve() listens). */
			port?: number;
		}) => number;
		/**
		 * Runs `node argv...` in the project with `env` (PATH and LEADERBOARDS_BASE_URL, the front's address,
		 * besides) and `input` on stdin; yields until it ends (killed past `timeout` wall seconds, 120 unless told).
		 */
		run: (
			argv: string[],
			options?: { env?: Record<string, string>; input?: string; timeout?: number },
		) => FrontExit;
		/**
		 * Calls `module`'s exported main(argv, { env, stdout, stderr, stdin }) (a path in the project) in the
		 * front's worker, a program run without a process of its own; yields until it returns its exit code.
		 */
		invoke: (
			module: string,
			argv: string[],
			options?: { env?: Record<string, string>; input?: string },
		) => FrontExit;
		/** Requests answered since the last clearLog, in arrival order. */
		log: () => FrontRequest[];
		clearLog: () => void;
		/** Stops serving; processes still running are killed. */
		stop: () => void;
		/** The permission scopes each operation needs (the openapi's x-roblox-scopes). */
		scopes: Record<string, string[]>;
	};
	players: {
		join: (info: { UserId: number; Name?: string; DisplayName?: string }) => Player;
		leave: (player: Player) => void;
		/** Every server's players leave. */
		reset: () => void;
	};
	users: {
		register: (userId: number, username: string, displayName?: string) => void;
		reset: () => void;
		fault: (rule: FaultRule) => void;
		clearFaults: () => void;
		/** UserService requests (GetUserInfosByUserIdsAsync, GetUserFromGlobalUserIdAsync) and the infos returned. */
		stats: () => { calls: number; results: number };
		/** A User of any domain: "EXPERIENCE" in this universe (`universeId`) unless told, or "OAUTH" with an app's id. */
		make: (id: number, domainType?: "EXPERIENCE" | "OAUTH", domainId?: number) => User;
		/**
		 * A player new since the scoped-id rollout: GetUserFromGlobalUserIdAsync(globalId) gives a User of
		 * `domainUserId`. Unscoped global ids are returning players' (the same id in this experience).
		 */
		scope: (globalId: number, domainUserId: number) => void;
		/** The gate experience's universe id: every User of this experience has it as DomainId. */
		readonly universeId: number;
	};
	/** Players:GetFriendsAsync's friends service: mutual friendships shared by every server. */
	friends: {
		/** Makes two users friends (both ways); errors past `limit` friends. */
		befriend: (a: number, b: number) => void;
		reset: () => void;
		fault: (rule: FaultRule) => void;
		/**
		 * Friends requests so far (GetFriendsAsync, AdvanceToNextPageAsync, GetFriendsWhoPlayedAsync), or one
		 * method's (latency: the "Friends" service of the latency profile).
		 */
		calls: (method?: string) => number;
		/**
		 * Users who have played this game, for Player:GetFriendsWhoPlayedAsync: until the first call every
		 * user has; from then on those named (this call and later ones) and whoever joins a server.
		 */
		played: (userIds: number[]) => void;
		/** Items a FriendPages page holds (the reference states none; the gate's choice). */
		readonly perPage: number;
		/** Friends a user can have: 1,000. */
		readonly limit: number;
	};
	/**
	 * Runs every BindToClose callback in parallel within 30 s, each given Enum.CloseReason[reason]
	 * (DeveloperShutdown when absent): (all finished, seconds taken).
	 */
	closeServer: (reason?: Enum.CloseReason["Name"]) => LuaTuple<[boolean, number]>;
	resetClose: () => void;
	/** A fresh server: stores, memory stores, budgets, faults, players, users and close callbacks cleared; latency back to one frame; the calendar back to its default. */
	reset: () => void;
	/** The gate's own require (jest replaces `require` inside specs). */
	require: (module: ModuleScript) => unknown;
}

/** A server started by newServer(). */
export interface GateServer {
	readonly game: DataModel;
	join: (info: { UserId: number; Name?: string; DisplayName?: string }) => Player;
	leave: (player: Player) => void;
	/**
	 * A player joins this server with a client of their own: a DataModel with Players.LocalPlayer
	 * (a PlayerGui under it) and copies of ReplicatedStorage, Workspace and Players kept in step
	 * after the client's delay; RemoteEvent and UnreliableRemoteEvent between them
	 * (spec/gate/README.md, "Clients").
	 */
	connectClient: (info: ClientInfo) => GateClient;
	/**
	 * Runs this server's BindToClose callbacks within 30 s, each given Enum.CloseReason[reason]
	 * (DeveloperShutdown when absent), then ends the server: its threads stop, its instances are
	 * destroyed and its memory can be reclaimed. Returns (all finished, seconds taken).
	 */
	close: (reason?: Enum.CloseReason["Name"]) => LuaTuple<[boolean, number]>;
	/** Requires a ModuleScript of this server, in this server's environment. */
	require: (module: ModuleScript) => unknown;
	/** Runs a Script of this server the way a server starts one (on its own thread); returns the thread. */
	runScript: (script: Script) => thread;
	/** This server's current request budget of one type ("OrderedWrite", ...), its startup burst included. */
	budget: (kind: string) => number;
	/**
	 * Requests of one type this server's one-time startup burst has left: one minute at its base
	 * limit when it starts (spec/gate/README.md, "The startup burst"), spent first, never refilled.
	 */
	startupBurst: (kind: string) => number;
}

/** Who connects a client, and the seconds each way between the server and it (0.1 unless told). */
export interface ClientInfo {
	UserId: number;
	Name?: string;
	DisplayName?: string;
	Delay?: number;
}

/** What travelled between a server and one client since it connected. */
export interface ClientStats {
	/** Bytes of remote events to the client, and from it (the gate's estimate: spec/gate/README.md, "Clients"). */
	received: number;
	sent: number;
	eventsReceived: number;
	eventsSent: number;
	/** Unreliable events lost by dropUnreliable, and those over the 900-byte payload limit. */
	dropped: number;
	oversized: number;
	/** Instances the client's copies took from the server (created or updated). */
	updates: number;
}

/** A client of a server started by connectClient(). */
export interface GateClient {
	/** The client's own DataModel (a client: RunService.IsClient() is true in it). */
	readonly game: DataModel;
	/** The client's player on the server. */
	readonly player: Player;
	/** Players.LocalPlayer of the client's DataModel: its copy of `player`. */
	readonly localPlayer: Player;
	/** Requires a ModuleScript of the client's DataModel, in the client's environment. */
	require: (module: ModuleScript) => unknown;
	/** Runs a script of the client's DataModel on its own thread; returns the thread. */
	runScript: (script: LuaSourceContainer) => thread;
	stats: () => ClientStats;
	/** Seconds each way from now on (what is already travelling keeps its order). */
	delay: (seconds: number) => void;
	/** Unreliable events both ways: a seeded share of them lost. */
	dropUnreliable: (rate: number, seed?: number) => void;
	/** Unreliable events both ways: a seeded extra delay in [0, window) seconds, which reorders them. */
	reorderUnreliable: (window: number, seed?: number) => void;
	/** The client goes and its player leaves the server; nothing more reaches either side. */
	leave: () => void;
}

/** The gate control, or undefined outside the headless gate (in Studio). */
export function headlessGate(): HeadlessGate | undefined {
	const module = game.GetService("ServerStorage").FindFirstChild("HeadlessGate");
	return module && module.IsA("ModuleScript") ? (require(module) as HeadlessGate) : undefined;
}
