/**
 * Removals in one place, asked by every reader of a board (Reader's pages,
 * Standing's answers): a key removed by remove() is hidden from the moment it
 * is queued until its removal lands (Leaderboard.Removed), and from any read
 * that began before it landed; a removal dropped after MaxWriteAttempts
 * (Leaderboard.Dropped with a nil value) left the value stored, so it is shown
 * again. Landings are numbered: a read notes `mark()` as it starts.
 */
export interface Removals {
	/** remove() queued: the key is hidden from now on. */
	hide(board: string, key: string): void;
	/** The number a read notes as it starts. */
	mark(): number;
	/** The key is hidden from a read that began at `since` (mark()); without it, from a read starting now. O(1). */
	hides(board: string, key: string, since?: number): boolean;
	/** An erasure of the key began (here or on another server): hidden on every board, every cache stale. */
	erase(key: string, boards: ReadonlyArray<string>): void;
	/** The key's erasure is done: reads that began before now still hide it. */
	erased(key: string, boards: ReadonlyArray<string>): void;
	/** Erasures under way: while none, no key isErasing (submit reads this, not a call, every time). */
	readonly underWay: number;
	/** The key's erasure is under way: submits for it are refused, and a failed write of it is not retried. O(1). */
	isErasing(key: string): boolean;
	/** A read that began at `since` finished: removals landed before it need not be remembered. */
	readFrom(board: string, since: number): void;
	/** Calls `listener(board)` whenever one of the board's removals landed or was dropped (caches go stale). */
	onSettled(listener: (board: string) => void): void;
}
