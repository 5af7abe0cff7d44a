import { DataStoreService, MemoryStoreService, MessagingService, Players, UserService } from "@rbxts/services";
import { orderedDataStoreBackend } from "./backends/OrderedDataStore";
import {
	Backend,
	BoardConfig,
	BoardFields,
	LeaderboardOptions,
	PeriodRule,
	PlayerLookup,
	ResetSchedule,
	Settings,
} from "./contracts";
import {
	Board,
	LONGEST_PERIOD,
	MAX_DOUBLE,
	PERIOD_ID_LENGTH,
	RESET_SCHEDULES,
	ruleOf,
	shown,
	Store,
	WEEKDAYS,
} from "./core";

/** The documented defaults. */
export const DEFAULTS = {
	FlushSeconds: 15,
	WritesPerFlush: 30,
	MaxWriteAttempts: 10,
	ShutdownSeconds: 10,
	RequestSeconds: 10,
	WritesInFlight: 8,
	StorePrefix: "CKBoard_",
	Ascending: false,
	KeepBest: true,
	MaxEntries: 100,
	CacheSeconds: 60,
	VisibleTop: 10,
	SharePages: true,
	Manifest: true,
	Values: "Plain",
} as const;

const OPTION_KEYS = new Set([
	"Boards",
	"FlushSeconds",
	"WritesPerFlush",
	"MaxWriteAttempts",
	"ShutdownSeconds",
	"RequestSeconds",
	"WritesInFlight",
	"Backend",
	"StorePrefix",
	"Clock",
	"UnixTime",
	"SkipLoop",
	"UserService",
	"Players",
	"Stages",
	"SharePages",
	"MemoryStoreService",
	"MessagingService",
	"Manifest",
	"DataStoreService",
]);
const BOARD_KEYS = new Set([
	"Ascending",
	"KeepBest",
	"MaxEntries",
	"CacheSeconds",
	"Reset",
	"ResetOffset",
	"WeekStart",
	"Sum",
	"NegativeDeltas",
	"RefreshSeconds",
	"Retention",
	"Backend",
	"VisibleTop",
	"Values",
	"TieBreak",
	"MinValue",
	"MaxValue",
	"MaxAddedPerMinute",
	"Validate",
]);
const STAGE_KEYS = new Set([
	"Queue",
	"Flusher",
	"Reader",
	"NameResolver",
	"Drainer",
	"Standing",
	"Refresher",
	"Pages",
	"Herald",
	"Eraser",
	"Rewards",
]);
// The backend's optional functions: each, when present, must be callable (a typo'd table fails at attach, not every window).
const BACKEND_FUNCTIONS = [
	"submit",
	"set",
	"budget",
	"scores",
	"readBudget",
	"remove",
	"removeBudget",
	"around",
	"refuseName",
] as const;

// Raised without a position: attach() raises it again at the game's call, however deep the check.
function refuse(problem: string): never {
	error(`Leaderboards.attach: ${problem}`, 0);
}

function fail(field: string, problem: string, value: unknown): never {
	refuse(`${field} ${problem} (got ${shown(value)})`);
}

// A function, or a table with __call (a jest.fn mock, jest's fake os.clock).
function callable(value: unknown): boolean {
	if (typeIs(value, "function")) return true;
	const meta = typeIs(value, "table") ? getmetatable(value) : undefined;
	return typeIs(meta, "table") && (meta as { __call?: unknown }).__call !== undefined;
}

function positive(field: string, value: unknown, fallback: number): number {
	if (value === undefined) return fallback;
	if (!typeIs(value, "number") || value !== value || value <= 0 || value === math.huge)
		fail(field, "must be a positive number", value);
	return value;
}

function positiveInteger(field: string, value: unknown, fallback: number): number {
	if (value === undefined) return fallback;
	if (!typeIs(value, "number") || value <= 0 || value % 1 !== 0) fail(field, "must be a positive integer", value);
	return value;
}

function wholeNumber(field: string, value: unknown, fallback: number): number {
	if (value === undefined) return fallback;
	if (!typeIs(value, "number") || value < 0 || value % 1 !== 0)
		fail(field, "must be a whole number, 0 or more", value);
	return value;
}

function flag(field: string, value: unknown, fallback: boolean): boolean {
	if (value === undefined) return fallback;
	if (!typeIs(value, "boolean")) fail(field, "must be a boolean", value);
	return value;
}

// An injected service (a double, or the engine's own): something with the one method names() calls.
function service<T>(field: string, value: unknown, method: string, fallback: T): T {
	if (value === undefined) return fallback;
	const fields = typeIs(value, "table") ? (value as Record<string, unknown>) : undefined;
	if (!typeIs(value, "Instance") && (fields === undefined || !callable(fields[method])))
		fail(field, `must have ${method}()`, value);
	return value as T;
}

// A time source, called once now when a board uses it: one returning nil would fail inside every later use instead.
function timeSource(field: string, value: unknown, fallback: () => number, used: boolean): () => number {
	const source = value ?? fallback;
	if (!callable(source)) fail(field, "must be a function", source);
	if (!used) return source as () => number;
	const [ok, now] = pcall(source as () => number);
	if (!ok || !typeIs(now, "number") || now !== now)
		fail(field, ok ? "must return a number" : "errored when called", now);
	return source as () => number;
}

function checkKeys(field: string, value: object, known: ReadonlySet<string>) {
	for (const [key] of pairs(value)) {
		if (!known.has(key as string)) fail(`${field}.${key}`, "is not an option", key);
	}
}

const quoted = (names: ReadonlyArray<string>) => names.map((name) => `"${name}"`).join(", ");

// A Reset board's schedule; ResetOffset and WeekStart only where they mean something.
function periodRule(field: string, c: BoardConfig): PeriodRule | undefined {
	if (c.Reset === undefined) {
		if (c.ResetOffset !== undefined) fail(`${field}.ResetOffset`, "needs Reset", c.ResetOffset);
		if (c.WeekStart !== undefined) fail(`${field}.WeekStart`, 'needs Reset = "Weekly"', c.WeekStart);
		return undefined;
	}
	if (!RESET_SCHEDULES.includes(c.Reset as ResetSchedule))
		fail(`${field}.Reset`, `must be one of ${quoted(RESET_SCHEDULES)}`, c.Reset);
	const offset = c.ResetOffset ?? 0;
	const [low, high] = c.Reset === "Hourly" ? [0, 3599] : [-86399, 86399];
	if (!typeIs(offset, "number") || offset % 1 !== 0 || offset < low || offset > high)
		fail(`${field}.ResetOffset`, `must be whole seconds from ${low} to ${high} on a ${c.Reset} board`, offset);
	if (c.WeekStart !== undefined && c.Reset !== "Weekly")
		fail(`${field}.WeekStart`, 'needs Reset = "Weekly"', c.WeekStart);
	const weekStart = WEEKDAYS.indexOf(c.WeekStart ?? "Monday");
	if (weekStart < 0) fail(`${field}.WeekStart`, `must be one of ${quoted(WEEKDAYS)}`, c.WeekStart);
	return { Reset: c.Reset, ResetOffset: offset, WeekStart: weekStart };
}

// The backend contract, checked at attach: `field` names it in errors.
function backendOf(field: string, backend: unknown): Backend {
	if (!typeIs(backend, "table")) fail(field, "must be a table of functions", backend);
	const b = backend as Backend;
	if (!callable(b.sorted)) fail(field, "needs sorted()", b.sorted);
	for (const name of BACKEND_FUNCTIONS) {
		const member = b[name];
		if (member !== undefined && !callable(member)) fail(`${field}.${name}`, "must be a function", member);
	}
	if (b.submit === undefined && b.set === undefined) refuse(`${field} needs submit() or set()`);
	if (b.integers !== undefined) flag(`${field}.integers`, b.integers, false);
	if (b.sums !== undefined) flag(`${field}.sums`, b.sums, false);
	if (b.maxKeyLength !== undefined) positiveInteger(`${field}.maxKeyLength`, b.maxKeyLength, 0);
	if (b.kind !== undefined && !typeIs(b.kind, "string")) fail(`${field}.kind`, "must be a string", b.kind);
	return b;
}

// A board the backend can hold: a Sum board's writes, its longest storage name (a Reset board's holds the
// longest period id), and bounds within what its encoding stores (a narrower range than the game wrote would
// refuse values it meant to take).
function fits(board: Board) {
	const field = `options.Boards.${board.Name}`;
	const backend = board.Store.backend;
	if (board.Sum && !callable(backend.set) && backend.sums !== true)
		fail(`${field}.Sum`, "needs a backend with set() or sums = true", true);
	// A sum of encoded numbers is no encoded sum: the updater decodes, adds and encodes.
	if (board.Sum && !board.Encoding.Identity && !callable(backend.set))
		fail(`${field}.Values`, "on a Sum board needs a backend with set() where the store holds integers", "Big");
	const longest = board.storageFor(board.Period ? string.rep("0", PERIOD_ID_LENGTH) : undefined);
	const refusal = backend.refuseName?.(longest);
	if (refusal !== undefined) refuse(`${field} ${refusal}`);
	const limit = board.Encoding.Limit;
	const where = board.TieBreak
		? ` with TieBreak on ${board.Period ? `a ${board.Period.Reset}` : "an all-time"} board`
		: "";
	for (const [name, bound] of [
		["MinValue", board.MinValue],
		["MaxValue", board.MaxValue],
	] as const)
		if (bound !== undefined && math.abs(bound) > limit)
			fail(`${field}.${name}`, `is past what the board stores (±${limit}${where})`, bound);
}

// A bound: a finite number, or none.
function bound(field: string, value: unknown): number | undefined {
	if (value === undefined) return undefined;
	if (!typeIs(value, "number") || value !== value || math.abs(value) === math.huge)
		fail(field, "must be a finite number", value);
	return value;
}

// What a board stores (Values, TieBreak) and what submit refuses (the bounds, Validate).
function valueOptions(field: string, c: BoardConfig, sum: boolean, keepBest: boolean) {
	const values = c.Values ?? DEFAULTS.Values;
	if (values !== "Plain" && values !== "Big") fail(`${field}.Values`, 'must be "Plain" or "Big"', values);
	const tieBreak = c.TieBreak;
	if (tieBreak !== undefined) {
		if (tieBreak !== "Earliest") fail(`${field}.TieBreak`, 'must be "Earliest"', tieBreak);
		if (values === "Big") fail(`${field}.TieBreak`, 'needs whole values: not with Values = "Big"', tieBreak);
		if (sum || !keepBest)
			fail(
				`${field}.TieBreak`,
				`applies only to a keep-best board (not ${sum ? "Sum" : "KeepBest = false"})`,
				tieBreak,
			);
	}
	const min = bound(`${field}.MinValue`, c.MinValue);
	const max = bound(`${field}.MaxValue`, c.MaxValue);
	if (min !== undefined && max !== undefined && min > max)
		fail(`${field}.MinValue`, `is above MaxValue (${max})`, min);
	if (!sum && c.MaxAddedPerMinute !== undefined)
		fail(`${field}.MaxAddedPerMinute`, "applies only to a Sum board", c.MaxAddedPerMinute);
	if (c.Validate !== undefined && !callable(c.Validate))
		fail(`${field}.Validate`, "must be a function (key, value, previous) -> true or a reason", c.Validate);
	return {
		Values: values,
		TieBreak: tieBreak,
		MinValue: min,
		MaxValue: max,
		MaxAddedPerMinute:
			c.MaxAddedPerMinute === undefined
				? undefined
				: positive(`${field}.MaxAddedPerMinute`, c.MaxAddedPerMinute, 0),
		Validate: c.Validate,
	};
}

function board(name: string, config: unknown): BoardFields {
	const field = `options.Boards.${name}`;
	if (!typeIs(config, "table")) fail(field, "must be a BoardConfig table", config);
	checkKeys(field, config, BOARD_KEYS);
	const c = config as BoardConfig;
	const sum = flag(`${field}.Sum`, c.Sum, false);
	if (sum && c.KeepBest !== undefined) fail(`${field}.KeepBest`, "does not apply to a Sum board", c.KeepBest);
	if (!sum && c.NegativeDeltas !== undefined)
		fail(`${field}.NegativeDeltas`, "applies only to a Sum board", c.NegativeDeltas);
	const period = periodRule(field, c);
	if (!period && c.Retention !== undefined) fail(`${field}.Retention`, "needs Reset", c.Retention);
	const ascending = flag(`${field}.Ascending`, c.Ascending, DEFAULTS.Ascending);
	const keepBest = flag(`${field}.KeepBest`, c.KeepBest, DEFAULTS.KeepBest);
	const negativeDeltas = flag(`${field}.NegativeDeltas`, c.NegativeDeltas, false);
	const stored = valueOptions(field, c, sum, keepBest);
	return {
		...stored,
		Name: name,
		Ascending: ascending,
		KeepBest: keepBest,
		MaxEntries: positiveInteger(`${field}.MaxEntries`, c.MaxEntries, DEFAULTS.MaxEntries),
		CacheSeconds: positive(`${field}.CacheSeconds`, c.CacheSeconds, DEFAULTS.CacheSeconds),
		Sum: sum,
		NegativeDeltas: negativeDeltas,
		Rule: ruleOf(keepBest, ascending, sum, negativeDeltas, stored.Values === "Big" ? MAX_DOUBLE : undefined),
		// Off unless set.
		RefreshSeconds:
			c.RefreshSeconds === undefined ? undefined : positive(`${field}.RefreshSeconds`, c.RefreshSeconds, 0),
		Period: period,
		Retention: positive(`${field}.Retention`, c.Retention, period ? LONGEST_PERIOD[period.Reset] : 0),
		VisibleTop: wholeNumber(`${field}.VisibleTop`, c.VisibleTop, DEFAULTS.VisibleTop),
	};
}

// Each board's options checked, with the defaults; the names in name order (the order windows walk them).
function boardFieldsOf(options: LeaderboardOptions): LuaTuple<[Map<string, BoardFields>, string[]]> {
	if (options.Boards === undefined) refuse("options.Boards is required");
	if (!typeIs(options.Boards, "table")) fail("options.Boards", "must be a table of BoardConfig", options.Boards);
	const fields = new Map<string, BoardFields>();
	const names = new Array<string>();
	for (const [name, config] of pairs(options.Boards)) {
		if (!typeIs(name, "string") || name === "") fail("options.Boards", "names must be non-empty strings", name);
		fields.set(name, board(name, config));
		names.push(name);
	}
	if (names.isEmpty()) refuse("options.Boards has no boards");
	names.sort();
	return $tuple(fields, names);
}

function checkStages(stages: unknown) {
	if (stages === undefined) return;
	if (!typeIs(stages, "table")) fail("options.Stages", "must be a table of stage factories", stages);
	checkKeys("options.Stages", stages, STAGE_KEYS);
	for (const [name, factory] of pairs(stages))
		if (!callable(factory)) fail(`options.Stages.${name}`, "must be a function (context) -> stage", factory);
}

// Each board with its store: its own Backend, else the attach's; one store a backend table, so boards
// naming the same backend share its adapter (and its budget).
function boardsOf(
	options: LeaderboardOptions,
	fields: Map<string, BoardFields>,
	names: string[],
	attached: Store,
	unixTime: () => number,
): Map<string, Board> {
	const stores = new Map<Backend, Store>([[attached.backend, attached]]);
	const boards = new Map<string, Board>();
	for (const name of names) {
		const config = fields.get(name)!;
		const own = (options.Boards as Record<string, BoardConfig>)[name].Backend;
		const field = `options.Boards.${name}.Backend`;
		const backend = own === undefined ? attached.backend : backendOf(field, own);
		let store = stores.get(backend);
		if (!store) {
			store = new Store(backend, field, attached.clock, attached.requestSeconds);
			stores.set(backend, store);
		}
		const board = new Board(config, store, unixTime);
		fits(board);
		boards.set(name, board);
	}
	return boards;
}

// The attach's backend (options.Backend, else OrderedDataStores with StorePrefix), wrapped once.
function attachedStore(options: LeaderboardOptions, clock: () => number, requestSeconds: number): Store {
	const storePrefix = options.StorePrefix ?? DEFAULTS.StorePrefix;
	if (!typeIs(storePrefix, "string")) fail("options.StorePrefix", "must be a string", storePrefix);
	// The default backend meets the same checks as a game's own.
	const backend = backendOf(
		"options.Backend",
		options.Backend ?? orderedDataStoreBackend(storePrefix, DataStoreService),
	);
	const label = options.Backend === undefined ? "the default backend (OrderedDataStores)" : "options.Backend";
	return new Store(backend, label, clock, requestSeconds);
}

/**
 * Checks attach's options, naming the field at fault, and applies every
 * default. Raises without a position: attach() raises it at the game's call.
 */
export function settingsOf(options: LeaderboardOptions): Settings {
	if (!typeIs(options, "table")) fail("options", "must be a table", options);
	checkKeys("options", options, OPTION_KEYS);
	const [fields, boardNames] = boardFieldsOf(options);
	const shutdown = options.ShutdownSeconds ?? DEFAULTS.ShutdownSeconds;
	if (!typeIs(shutdown, "number") || shutdown !== shutdown || shutdown < 0 || shutdown === math.huge)
		fail("options.ShutdownSeconds", "must be finite and not negative", shutdown);
	const clock = timeSource("options.Clock", options.Clock, os.clock, true);
	// An all-time board never reads the calendar.
	const periodic = boardNames.some((name) => fields.get(name)!.Period !== undefined);
	const unixTime = timeSource("options.UnixTime", options.UnixTime, os.time, periodic);
	const requestSeconds = positive("options.RequestSeconds", options.RequestSeconds, DEFAULTS.RequestSeconds);
	const store = attachedStore(options, clock, requestSeconds);
	checkStages(options.Stages);
	return {
		boards: boardsOf(options, fields, boardNames, store, unixTime),
		boardNames,
		FlushSeconds: positive("options.FlushSeconds", options.FlushSeconds, DEFAULTS.FlushSeconds),
		WritesPerFlush: positiveInteger("options.WritesPerFlush", options.WritesPerFlush, DEFAULTS.WritesPerFlush),
		MaxWriteAttempts: positiveInteger(
			"options.MaxWriteAttempts",
			options.MaxWriteAttempts,
			DEFAULTS.MaxWriteAttempts,
		),
		ShutdownSeconds: shutdown,
		RequestSeconds: requestSeconds,
		WritesInFlight: positiveInteger("options.WritesInFlight", options.WritesInFlight, DEFAULTS.WritesInFlight),
		backend: store.backend,
		store,
		clock,
		unixTime,
		skipLoop: flag("options.SkipLoop", options.SkipLoop, false),
		userService: service("options.UserService", options.UserService, "GetUserInfosByUserIdsAsync", UserService),
		// Players:GetFriendsAsync takes a UserId (typed User in @rbxts/types).
		players: service("options.Players", options.Players, "GetPlayerByUserId", Players as unknown as PlayerLookup),
		sharePages: flag("options.SharePages", options.SharePages, DEFAULTS.SharePages),
		storePrefix: options.StorePrefix ?? DEFAULTS.StorePrefix,
		memoryStore: service(
			"options.MemoryStoreService",
			options.MemoryStoreService,
			"GetHashMap",
			MemoryStoreService,
		),
		messaging: service("options.MessagingService", options.MessagingService, "PublishAsync", MessagingService),
		manifest: flag("options.Manifest", options.Manifest, DEFAULTS.Manifest),
		dataStores: service("options.DataStoreService", options.DataStoreService, "GetDataStore", DataStoreService),
	};
}
