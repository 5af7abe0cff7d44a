import { MergeRule } from "./merge";

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

/** A value detached from the queue for one write. */
export interface PendingWrite {
	readonly Board: string;
	/** Where the value goes: the storage name of the period it was submitted in. Absent: the board's own name. */
	readonly Store?: string;
	readonly Key: string;
	readonly Value: number;
	/** Consecutive failed windows of this key so far: 0 for a value no attempt has carried yet. */
	readonly Failures: number;
	/** remove(): "only" removes the stored value (Value unused); "first" removes it, then writes Value. */
	readonly Remove?: "only" | "first";
	/** On a Reset board: when the value's period ends (Unix seconds, by the UnixTime clock). */
	readonly PeriodEnd?: number;
	/** On a Reset board: seconds the stored value must live from now, until its period ends plus the board's Retention. */
	readonly Lifetime?: number;
	/** The value entered the board's visible top when queued: its write comes promptly and its landing is announced. */
	readonly Record?: boolean;
	/** What the write put in the store, where the rule's transform ran here (set backends, the MemoryStore one). */
	Stored?: number;
	/**
	 * Set by the Flusher when it gives up on this write (RequestSeconds past its
	 * deadline): its key is written again by a later window, so a transform that
	 * runs from then on writes nothing (updaterFor; a custom backend's submit checks it).
	 */
	Superseded?: boolean;
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
	 * `storage` is the board's storage name ("Kills", or "Kills@2026-12-06" for a period).
	 * `sum` (only for a backend that sets `sums`): add value to the stored total.
	 * `write`: the pending write itself, as data (its Failures, and on a Reset board
	 * its Lifetime: how long the stored value must live). Its `Superseded` turns
	 * true if the Flusher gives up on the write while it is out: a transform that
	 * runs from then on should write nothing (a later write carries the value).
	 */
	submit?: (
		storage: string,
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
		storage: string,
		key: string,
		updater: (old: number | undefined) => number | undefined,
		write?: BackendWrite,
	) => boolean;
	/** Ranked reads: up to count rows, best first; undefined on failure. */
	sorted: (storage: string, ascending: boolean, count: number, call?: BackendCall) => BackendRow[] | undefined;
	/** Writes available now; each window takes the smaller of this and WritesPerFlush. */
	budget?: (call?: BackendCall) => number | undefined;
	/**
	 * Optional: writes a minute budget() refills at. Under a sustained backlog an ordinary window then
	 * leaves unspent what the close drain would need beyond ShutdownSeconds of refill (at most half
	 * a minute's), spent by prompt windows and the drain; without it windows spend all of budget().
	 */
	budgetRate?: (call?: BackendCall) => number | undefined;
	/** Stored values for keys, missing keys left out; undefined on failure. Needed by scores(). */
	scores?: (storage: string, keys: string[], call?: BackendCall) => Map<string, number> | undefined;
	/** Keys scores() may read now; scores() refuses (nil, with a warning) more keys than this instead of waiting on a throttle. */
	readBudget?: (call?: BackendCall) => number | undefined;
	/** Optional, needed by remove(): deletes a stored value; false (or an error) on failure. */
	remove?: (storage: string, key: string, call?: BackendCall) => boolean;
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
		storage: string,
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
	refuseName?: (storage: string) => string | undefined;
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
