// What games get back: rows, standings, the counters, what destroy() and a flush window tell.

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

/** What one flush window did. */
export interface WindowSummary {
	/** Writes attempted. */
	readonly Attempted: number;
	readonly Written: number;
	readonly Failed: number;
	/** The window's write budget. */
	readonly Budget: number;
}
