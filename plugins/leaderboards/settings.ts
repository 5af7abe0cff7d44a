import { DataStoreService, MemoryStoreService, MessagingService, Players, UserService } from "@rbxts/services";
import { orderedDataStoreBackend } from "./backends/OrderedDataStore";
import { replicateOf } from "./replicate";
import {
	backendOf,
	callable,
	checkKeys,
	fail,
	flag,
	keysOf,
	positive,
	positiveInteger,
	refuse,
	wholeNumber,
} from "./checks";
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
	DEFAULT_PREFIX,
	LONGEST_PERIOD,
	MAX_DOUBLE,
	PERIOD_ID_LENGTH,
	RESET_SCHEDULES,
	ruleOf,
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
	StorePrefix: DEFAULT_PREFIX,
	Ascending: false,
	KeepBest: true,
	MaxEntries: 100,
	CacheSeconds: 60,
	VisibleTop: 10,
	SharePages: true,
	Manifest: true,
	Values: "Plain",
} as const;

const BOARD_KEYS = keysOf<BoardConfig>({
	Ascending: true,
	KeepBest: true,
	MaxEntries: true,
	CacheSeconds: true,
	Reset: true,
	ResetOffset: true,
	WeekStart: true,
	Sum: true,
	NegativeDeltas: true,
	RefreshSeconds: true,
	Retention: true,
	Backend: true,
	VisibleTop: true,
	Values: true,
	TieBreak: true,
	MinValue: true,
	MaxValue: true,
	MaxAddedPerMinute: true,
	Validate: true,
	Replicate: true,
});

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

function finiteNotNegative(field: string, value: unknown, fallback: number): number {
	const seconds = value ?? fallback;
	if (!typeIs(seconds, "number") || seconds !== seconds || seconds < 0 || seconds === math.huge)
		fail(field, "must be finite and not negative", seconds);
	return seconds;
}

function prefix(field: string, value: unknown, fallback: string): string {
	const chosen = value ?? fallback;
	if (!typeIs(chosen, "string")) fail(field, "must be a string", chosen);
	return chosen;
}

// Checked by its own step of settingsOf (the option needs another's value); its row only makes it known.
const APART = "apart";

// One row an option of LeaderboardOptions: its check (naming the field) with its default; its doc is on the
// option (contracts/options.ts). Leaving an option out, or naming one it lacks, does not compile.
const OPTIONS = {
	Boards: APART,
	FlushSeconds: (field, value) => positive(field, value, DEFAULTS.FlushSeconds),
	WritesPerFlush: (field, value) => positiveInteger(field, value, DEFAULTS.WritesPerFlush),
	MaxWriteAttempts: (field, value) => positiveInteger(field, value, DEFAULTS.MaxWriteAttempts),
	ShutdownSeconds: (field, value) => finiteNotNegative(field, value, DEFAULTS.ShutdownSeconds),
	RequestSeconds: (field, value) => positive(field, value, DEFAULTS.RequestSeconds),
	WritesInFlight: (field, value) => positiveInteger(field, value, DEFAULTS.WritesInFlight),
	Backend: APART,
	StorePrefix: (field, value) => prefix(field, value, DEFAULTS.StorePrefix),
	Clock: APART,
	UnixTime: APART,
	SkipLoop: (field, value) => flag(field, value, false),
	UserService: (field, value) => service(field, value, "GetUserInfosByUserIdsAsync", UserService),
	// Players:GetFriendsAsync takes a UserId (typed User in @rbxts/types).
	Players: (field, value) => service(field, value, "GetPlayerByUserId", Players as unknown as PlayerLookup),
	SharePages: (field, value) => flag(field, value, DEFAULTS.SharePages),
	MemoryStoreService: (field, value) => service(field, value, "GetHashMap", MemoryStoreService),
	MessagingService: (field, value) => service(field, value, "PublishAsync", MessagingService),
	Manifest: (field, value) => flag(field, value, DEFAULTS.Manifest),
	DataStoreService: (field, value) => service(field, value, "GetDataStore", DataStoreService),
	Stages: APART,
} satisfies {
	readonly [K in keyof Required<LeaderboardOptions>]: ((field: string, value: unknown) => unknown) | "apart";
};
const OPTION_KEYS = keysOf<LeaderboardOptions>(OPTIONS);

type Rows = typeof OPTIONS;
type Checked = { [K in keyof Rows]: Rows[K] extends "apart" ? never : K }[keyof Rows];

// An option through its row: checked, with its default.
function option<K extends Checked>(options: LeaderboardOptions, name: K): ReturnType<Rows[K]> {
	return (OPTIONS[name] as (field: string, value: unknown) => ReturnType<Rows[K]>)(`options.${name}`, options[name]);
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
		Replicate: replicateOf(`${field}.Replicate`, c.Replicate, c.MaxEntries ?? DEFAULTS.MaxEntries),
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
function attachedStore(
	options: LeaderboardOptions,
	storePrefix: string,
	clock: () => number,
	requestSeconds: number,
): Store {
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
	const shutdown = option(options, "ShutdownSeconds");
	const clock = timeSource("options.Clock", options.Clock, os.clock, true);
	// An all-time board never reads the calendar.
	const periodic = boardNames.some((name) => fields.get(name)!.Period !== undefined);
	const unixTime = timeSource("options.UnixTime", options.UnixTime, os.time, periodic);
	const requestSeconds = option(options, "RequestSeconds");
	const storePrefix = option(options, "StorePrefix");
	const store = attachedStore(options, storePrefix, clock, requestSeconds);
	return {
		boards: boardsOf(options, fields, boardNames, store, unixTime),
		boardNames,
		FlushSeconds: option(options, "FlushSeconds"),
		WritesPerFlush: option(options, "WritesPerFlush"),
		MaxWriteAttempts: option(options, "MaxWriteAttempts"),
		ShutdownSeconds: shutdown,
		RequestSeconds: requestSeconds,
		WritesInFlight: option(options, "WritesInFlight"),
		backend: store.backend,
		store,
		clock,
		unixTime,
		skipLoop: option(options, "SkipLoop"),
		userService: option(options, "UserService"),
		players: option(options, "Players"),
		sharePages: option(options, "SharePages"),
		storePrefix,
		memoryStore: option(options, "MemoryStoreService"),
		messaging: option(options, "MessagingService"),
		manifest: option(options, "Manifest"),
		dataStores: option(options, "DataStoreService"),
	};
}
