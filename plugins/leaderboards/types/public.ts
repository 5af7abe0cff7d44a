import { ResetSchedule, Weekday } from "./periods";
import { MergeRule } from "./merge/rule";
import { PendingWrite } from "./stages";
import { ErasureReport } from "./durable";

/** A ranked row of a board: a storage key, its stored value, and its 1-based rank. */
export interface Entry {
	Key: string;
	Value: number;
	Rank: number;
	/** Added by names() for entries keyed by a UserId. */
	DisplayName?: string;
	Username?: string;
}

/**
 * Where a subject stands: what rank() returns, and the rows of around(). Value
 * is absent when nothing is stored for the key; Rank only where it is known
 * (within the board's loaded top page).
 */
export interface Standing {
	Key: string;
	Value?: number;
	Rank?: number;
	/** Added by names() for keys that are UserIds. */
	DisplayName?: string;
	Username?: string;
}

/**
 * What submit() and scores() accept: a Player, a User of this game (player.User, the key its Player
 * gets), a session (a table with a Player field), or any key.
 */
export type Subject = Player | User | { readonly Player: Player } | string | number;

/** One board's configuration. Every field is optional. */
export interface BoardConfig {
	/** Smaller values rank first (times). Default false: bigger values first (scores). */
	Ascending?: boolean;
	/** Write only improvements and keep the best pending value. false keeps and writes the newest. Default true. */
	KeepBest?: boolean;
	/** top() page size and backend read size. Default 100; above 100 the default backend reads several pages. */
	MaxEntries?: number;
	/** top() cache window in seconds. Default 60. */
	CacheSeconds?: number;
	/** Resets the board on a UTC calendar schedule: each period is stored apart. Default none: all-time. */
	Reset?: ResetSchedule;
	/** Seconds after the UTC boundary at which a Reset board rolls (4 * 3600: 04:00 UTC). Integer, -86400 < offset < 86400; Hourly 0..3599. Default 0. */
	ResetOffset?: number;
	/** The day a Weekly board's week starts. Default "Monday". */
	WeekStart?: Weekday;
	/** Each submit adds its value to the stored total (kills, coins earned). Default false. */
	Sum?: boolean;
	/** A Sum board accepts negative values, which subtract. Default false: refused. */
	NegativeDeltas?: boolean;
	/** Keep the top page fresh on a timer (Leaderboard.Updated fires with no caller polling). Default off. */
	RefreshSeconds?: number;
	/** On stores whose items expire (MemoryStore): seconds a Reset board's values outlive their period. Default one period (the longest of its schedule). */
	Retention?: number;
	/**
	 * The rows a player sees first (a scoreboard in the world, the top of a list): a submit that
	 * enters them is written within a second (a prompt window, within budget) and announced on
	 * MessagingService, so every server shows it within seconds. 0: no announcements. Default 10.
	 */
	VisibleTop?: number;
	/**
	 * Where this board's values live (OrderedDataStores for all-time boards and MemoryStore for daily
	 * ones, in one attach). Default: options.Backend, else OrderedDataStores. Give boards that share a
	 * store the same backend table.
	 */
	Backend?: Backend;
	/**
	 * "Big": any finite number, -1.8e308 to 1.8e308 (simulator coins past 2^53). On OrderedDataStores it is stored
	 * as an integer code keeping 42 significant bits (within 2.3e-13 of the value), on MemoryStore as the number
	 * itself. A Big board on OrderedDataStores is stored apart ("Kills#Big"). Default "Plain": numbers as they are,
	 * within ±2^53.
	 */
	Values?: "Plain" | "Big";
	/**
	 * "Earliest" (keep-best boards): equal values rank by who stored the value first, across servers, by folding
	 * the time into the stored number. Whole values within a range the board's period sets (all-time ±9,007,198;
	 * Daily ±90,071,992,546). Stored apart ("Kills#Earliest"). Default none: ties rank as the store orders them.
	 */
	TieBreak?: "Earliest";
	/** submit() refuses values below it (false, a warning, Leaderboard.Refused). Default none. */
	MinValue?: number;
	/** submit() refuses values above it (false, a warning, Leaderboard.Refused). Default none. */
	MaxValue?: number;
	/** Sum boards: submit() refuses a value that would take what one key added on this server this clock minute past it. Default none. */
	MaxAddedPerMinute?: number;
	/**
	 * The game's own check, after every other: true accepts, a string refuses with that reason. `previous` is the
	 * value queued for the key (nil when none is). Called with a dot; must not yield. Default none.
	 */
	Validate?: (key: string, value: number, previous: number | undefined) => true | string;
}

/**
 * What a backend's around() returns: the rows nearest the subject on each side. A store
 * that ranks ties by key (a sorted map) splits at the subject's place, so ties fall on
 * the side sorted() ranks them; one with value bounds only splits at the value.
 */
export interface BackendRange {
	/** Up to count rows ranked ahead of the subject (strictly better than the value, or tied and ranked before its key), nearest first. */
	Ahead: BackendRow[];
	/** Up to count + 1 rows ranked behind it (the value or worse: ties included, the subject's own row perhaps), nearest (best) first. */
	Behind: BackendRow[];
}

/** A row a backend's sorted() returns. */
export interface BackendRow {
	Key: string;
	Value: number;
}

/**
 * What every backend call gets as its last argument: the attach's Clock (the
 * time source of cache windows, and of a backend's own quota) and when the call
 * is given up on (Deadline, on that clock: RequestSeconds after it started). A
 * backend written to the design document's contract ignores it.
 */
export interface BackendCall {
	readonly Clock: () => number;
	readonly Deadline: number;
	/** sorted() only: the read refreshes a page every server shares (its one lease holder's), not this server's own. */
	readonly Shared?: boolean;
}

/** submit()'s and set()'s last argument: the pending write itself, its board's merge rule as data, and the call's context. */
export interface BackendWrite extends PendingWrite, BackendCall {
	/** The board's rule: Kind ("KeepBest", "KeepNewest", "Sum") and Ascending, and what each step of it does. */
	readonly Rule: MergeRule;
}

/**
 * Where scores live. Checked at attach: it needs sorted plus submit or set.
 * Functions are called with a dot (no self), as plain tables of functions.
 * Each gets a BackendCall (or, for submit and set, a BackendWrite) as its last
 * argument, after the ones the design document names.
 */
export interface Backend {
	/**
	 * Custom stores apply the keep-best rule themselves, atomically. Preferred over set.
	 * `store` is the board's storage name ("Kills", or "Kills@2026-12-06" for a period).
	 * `sum` (only for a backend that sets `sums`): add value to the stored total.
	 * `write`: the pending write itself, as data (its Failures, and on a Reset board
	 * its Lifetime: how long the stored value must live). Its `Superseded` turns
	 * true if the Flusher gives up on the write while it is out: a transform that
	 * runs from then on should write nothing (a later write carries the value).
	 */
	submit?: (
		store: string,
		key: string,
		value: number,
		keepBest: boolean,
		ascending: boolean,
		sum?: boolean,
		write?: BackendWrite,
	) => boolean;
	/** submit() understands its sum argument; without this, Sum boards write through set. */
	sums?: boolean;
	/** DataStore-shaped stores: call updater(old) and write a non-nil result; nil means no write. */
	set?: (
		store: string,
		key: string,
		updater: (old: number | undefined) => number | undefined,
		write?: BackendWrite,
	) => boolean;
	/** Ranked reads: up to count rows, best first; undefined on failure. */
	sorted: (store: string, ascending: boolean, count: number, call?: BackendCall) => BackendRow[] | undefined;
	/** Writes available now; each window takes the smaller of this and WritesPerFlush. */
	budget?: (call?: BackendCall) => number | undefined;
	/**
	 * Optional: writes a minute budget() refills at. Under a sustained backlog an ordinary window then
	 * leaves unspent what the close drain would need beyond ShutdownSeconds of refill (at most half
	 * a minute's), spent by prompt windows and the drain; without it windows spend all of budget().
	 */
	budgetRate?: (call?: BackendCall) => number | undefined;
	/** Stored values for keys, missing keys left out; undefined on failure. Needed by scores(). */
	scores?: (store: string, keys: string[], call?: BackendCall) => Map<string, number> | undefined;
	/** Keys scores() may read now; scores() refuses (nil, with a warning) more keys than this instead of waiting on a throttle. */
	readBudget?: (call?: BackendCall) => number | undefined;
	/** Optional, needed by remove(): deletes a stored value; false (or an error) on failure. */
	remove?: (store: string, key: string, call?: BackendCall) => boolean;
	/**
	 * Optional: removes the store allows now. erase() removes only while more than a few are left, so
	 * remove() and the game keep their part; without it erase() relies on remove() refusing.
	 */
	removeBudget?: (call?: BackendCall) => number | undefined;
	/**
	 * Optional, needed by around(): the rows nearest the subject `key` stored at
	 * `value`, on each side (value bounds on OrderedDataStores, range bounds at
	 * the value and key on a sorted map); undefined on failure or when the
	 * store's request budget is spent (refused, not throttled).
	 */
	around?: (
		store: string,
		ascending: boolean,
		value: number,
		count: number,
		key: string,
		call?: BackendCall,
	) => BackendRange | undefined;
	/** The store holds integers only: submit refuses fractions (the default backend sets this). */
	integers?: boolean;
	/** The longest key the store accepts (the default backend: 50). */
	maxKeyLength?: number;
	/**
	 * Optional: why the store cannot hold a storage name (checked at attach with
	 * each board's longest: "Kills", or "Kills@" and the longest period id), or
	 * undefined when it can. The default backend refuses names over 50 characters with its StorePrefix.
	 */
	refuseName?: (store: string) => string | undefined;
	/**
	 * Optional: backends of one kind draw on one request budget (the engine's, for the whole
	 * server), so a window asks one of them for budget() and spends it once across their boards.
	 * The default backend's kind is "OrderedDataStore". Unset (MemoryStore's): the backend table's
	 * budget is its own.
	 */
	kind?: string;
	/**
	 * Optional: every server reads the same values from this store, so one server's read of a top
	 * page can serve them all (the attach's SharePages, through a MemoryStore hash map). The
	 * built-in backends set it.
	 */
	sharePages?: boolean;
	/**
	 * Optional: where the store keeps a storage name, written to the manifest (docs/manifest.md) so a tool
	 * outside the game finds every store. The built-in backends set it; without it a board's layout says "Custom".
	 */
	layout?: BackendLayout;
}

/** Where a backend keeps a storage name: the manifest's Backend, Prefix and Shards. */
export interface BackendLayout {
	/** "OrderedDataStore", "MemoryStore" or "Custom". */
	readonly Backend: string;
	/** What precedes a storage name in a store's name: StorePrefix, or the MemoryStore backend's MapPrefix. */
	readonly Prefix: string;
	/** MemoryStore maps a board spreads over (1 when absent). */
	readonly Shards?: number;
}

/** The counters on boards.Stats. */
export interface Stats {
	/** Submits accepted into the queue. */
	Submitted: number;
	/** Successful backend writes. */
	Written: number;
	/** Failed write attempts. */
	Failed: number;
	/** Values dropped after MaxWriteAttempts consecutive failed windows. */
	Dropped: number;
	/** Submits a board refused (a value or subject it cannot take, a bound, Validate); not an unknown board's, nor after destroy(). */
	Refused: number;
}

/** What destroy() returns, frozen and shared by every caller. */
export interface ShutdownResult {
	/** Nothing queued, nothing in flight, no error. */
	readonly Complete: boolean;
	/** Queued submissions plus the writes still in flight (each score once: a write past RequestSeconds has its value back in the queue). */
	readonly Remaining: number;
	/** Writes still unresolved at the end: in flight at the deadline, or past RequestSeconds and never answered. Each may still land. */
	readonly InFlight: number;
	/** Failed write attempts during the drain. */
	readonly Failed: number;
	/** "leaderboard shutdown deadline exceeded", "leaderboard shutdown flush made no progress", a flush error, or nil. */
	readonly Error?: string;
}

export const DEADLINE_EXCEEDED = "leaderboard shutdown deadline exceeded";
export const NO_PROGRESS = "leaderboard shutdown flush made no progress";

/** Bus topics. Updated is the public one; the others tell the stages' story to games, specs and the demo. */
export const Topics = {
	/** (name, entries, period): a top() read refreshed the cache from the backend; period is the period id, nil on an all-time board. Failed reads publish nothing. */
	Updated: "Leaderboard.Updated",
	/** (): the queue went from empty to pending; the Flusher arms a window. */
	Pending: "Leaderboard.Pending",
	/** (summary: WindowSummary): a flush window finished. */
	Flushed: "Leaderboard.Flushed",
	/** (board, key): a remove() landed in the store. */
	Removed: "Leaderboard.Removed",
	/** (board): a submit entered the board's visible top; the Flusher arms a prompt window. */
	Prompt: "Leaderboard.Prompt",
	/** (board, key, value, period): a value that entered the visible top landed; value is what the store holds. */
	Record: "Leaderboard.Record",
	/** (board, key, value): a value was dropped after MaxWriteAttempts failed windows (value nil for a removal). */
	Dropped: "Leaderboard.Dropped",
	/** (): destroy() began draining. */
	Draining: "Leaderboard.Draining",
	/** (result: ShutdownResult): the drain ended. */
	Drained: "Leaderboard.Drained",
	/** (board, key, value, reason): a board refused a submit (key nil when the subject had none). */
	Refused: "Leaderboard.Refused",
	/** (key, report: ErasureReport): an erasure finished on this server: the key is in no store any board wrote. */
	Erased: "Leaderboard.Erased",
	/** (board, period, idempotencyKey): an onPeriodEnd handler returned on this server; the period is marked done. */
	PeriodEnded: "Leaderboard.PeriodEnded",
	/** (board, period, problem, attempts): an onPeriodEnd handler errored on this server; it is retried with backoff. */
	PeriodEndFailed: "Leaderboard.PeriodEndFailed",
} as const;

/** What one flush window did. */
export interface WindowSummary {
	/** Writes attempted. */
	readonly Attempted: number;
	readonly Written: number;
	readonly Failed: number;
	/** The window's write budget. */
	readonly Budget: number;
}

// The public topics' payloads, merged into the kernel's BusTopics: kernel.Bus.subscribe(Topics.Updated,
// (topic, name, entries, period) => ...) is typed, and every publish of them is checked.
declare module "../../../kernel/Bus" {
	interface BusTopics {
		/** A top() read refreshed the cache: the board, its page, the period id read (nil on an all-time board). */
		"Leaderboard.Updated": [board: string, entries: Entry[], period: string | undefined];
		/** The queue went from empty to pending. */
		"Leaderboard.Pending": [];
		/** A flush window finished. */
		"Leaderboard.Flushed": [summary: WindowSummary];
		/** A remove() landed in the store. */
		"Leaderboard.Removed": [board: string, key: string];
		/** A submit entered the board's visible top. */
		"Leaderboard.Prompt": [board: string];
		/** A value that entered the visible top landed: what the store holds, and its period (nil on an all-time board). */
		"Leaderboard.Record": [board: string, key: string, value: number, period: string | undefined];
		/** A value was dropped after MaxWriteAttempts failed windows (value nil for a removal). */
		"Leaderboard.Dropped": [board: string, key: string, value: number | undefined];
		/** destroy() began draining. */
		"Leaderboard.Draining": [];
		/** The drain ended. */
		"Leaderboard.Drained": [result: ShutdownResult];
		/** A board refused a submit: why, in `reason` ("below MinValue", Validate's own text); key nil when the subject had none. */
		"Leaderboard.Refused": [board: string, key: string | undefined, value: unknown, reason: string];
		/** An erasure finished here: the key is in no store any board wrote. */
		"Leaderboard.Erased": [key: string, report: ErasureReport];
		/** An onPeriodEnd handler returned here; the period is marked done. */
		"Leaderboard.PeriodEnded": [board: string, period: string, idempotencyKey: string];
		/** An onPeriodEnd handler errored here; it is retried with backoff (by any server). */
		"Leaderboard.PeriodEndFailed": [board: string, period: string, problem: string, attempts: number];
	}
}
