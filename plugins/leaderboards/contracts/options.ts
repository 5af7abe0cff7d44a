import { Backend } from "./backend";
import { ResetSchedule, Weekday } from "./periods";
import { PlayerLookup, UserLookup } from "./settings";
import { StageFactories } from "./stages";

/** What of a board its clients get (BoardConfig.Replicate). */
export interface ReplicateConfig {
	/** The rows sent: the top `Rows` of the page (1 to the board's MaxEntries). Default 10. */
	Rows?: number;
}

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
	/**
	 * Send this board's top rows to every client (stages/Replicator): the page on a client's ready
	 * signal, then the rows that changed, at most once a second; each player's own standing to that
	 * player only. Default none: the board stays on the server.
	 */
	Replicate?: ReplicateConfig;
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
 * Leaderboards.attach options. B is the union of the board names, inferred from
 * Boards: every call on the boards then accepts only those names in TypeScript
 * (Luau callers pass plain strings).
 */
export interface LeaderboardOptions<B extends string = string> {
	/** Required. { [name] = BoardConfig }; submits to other names return false. */
	Boards: Record<B, BoardConfig>;
	/** Delay from the first pending submit to its flush window. Default 15. */
	FlushSeconds?: number;
	/** Write cap per window, across all boards; a positive integer. Default 30. */
	WritesPerFlush?: number;
	/** Consecutive failed windows before a queued value is dropped. Default 10. */
	MaxWriteAttempts?: number;
	/** Total destroy() drain deadline, including the writes in flight. Finite, not negative; 0 drains nothing. Default 10. */
	ShutdownSeconds?: number;
	/** Deadline of every backend and engine call; a write past it counts as failed and is retried. Default 10. */
	RequestSeconds?: number;
	/** Writes a window keeps in flight at once (never more than its budget, never two for one key). Default 8. */
	WritesInFlight?: number;
	/** Default: OrderedDataStores. */
	Backend?: Backend;
	/** OrderedDataStore name prefix (default backend only). Default "CKBoard_". */
	StorePrefix?: string;
	/** Time source for cache windows and the names budget; must return a number. Default os.clock. */
	Clock?: () => number;
	/** Unix seconds (UTC) that place values and reads in Reset boards' periods. Default os.time. */
	UnixTime?: () => number;
	/** Never arm flush windows; specs call _flush() by hand. Default false. */
	SkipLoop?: boolean;
	/** Test injection point for names(). */
	UserService?: UserLookup;
	/** Test injection point for names(). */
	Players?: PlayerLookup;
	/**
	 * Boards on stores every server reads alike (the built-in backends) share one read of each top
	 * page for the whole experience, through a MemoryStore hash map, and announce records on
	 * MessagingService so every server shows them within seconds. Default true.
	 */
	SharePages?: boolean;
	/** Injection point for the shared pages (MemoryStoreService:GetHashMap). */
	MemoryStoreService?: MemoryStoreService;
	/** Injection point for the record announcements (PublishAsync, SubscribeAsync). */
	MessagingService?: MessagingService;
	/**
	 * Keep the manifest (a standard DataStore, StorePrefix .. "Manifest": the layout, the periods each board
	 * wrote, erasures, period ends), which erase() and onPeriodEnd() need. Default true.
	 */
	Manifest?: boolean;
	/** Injection point for the manifest (GetDataStore). */
	DataStoreService?: DataStoreService;
	/** Replace any stage with a game's own plugin meeting the same contract. */
	Stages?: StageFactories;
}
