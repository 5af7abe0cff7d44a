import { Kernel } from "../../../kernel";
import { Topics } from "./public";

/**
 * Removals in one place, asked by every reader of a board (Reader's pages,
 * Standing's answers): a key removed by remove() is hidden from the moment it
 * is queued until its removal lands (Leaderboard.Removed), and from any read
 * that began before it landed; a removal dropped after MaxWriteAttempts
 * (Leaderboard.Dropped with a nil value) left the value stored, so it is shown
 * again. Landings are numbered: a read notes `mark()` as it starts.
 */
export class Removals {
	// Per board and key: math.huge until the removal lands, then the landing's number.
	private readonly hidden = new Map<string, Map<string, number>>();
	private landings = 0;
	// Keys being erased (erase()), on every board: math.huge until the erasure is done, then the landing's number.
	private readonly erasing = new Map<string, number>();
	// Erasures under way: while none, isErasing answers without a lookup (submit asks it every call).
	private underWay = 0;
	private readonly listeners = new Array<(board: string) => void>();

	constructor(kernel: Kernel) {
		kernel.Bus.subscribe(Topics.Removed, (_, board, key) => {
			const hidden = this.hidden.get(board);
			if (!hidden?.has(key)) return;
			this.landings += 1;
			hidden.set(key, this.landings);
			this.settled(board);
		});
		kernel.Bus.subscribe(Topics.Dropped, (_, board, key, value) => {
			if (value !== undefined || !this.hidden.get(board)?.delete(key)) return;
			this.settled(board);
		});
	}

	/** remove() queued: the key is hidden from now on. */
	hide(board: string, key: string) {
		let hidden = this.hidden.get(board);
		if (!hidden) {
			hidden = new Map();
			this.hidden.set(board, hidden);
		}
		hidden.set(key, math.huge);
	}

	/** The number a read notes as it starts. */
	mark(): number {
		return this.landings;
	}

	/** The key is hidden from a read that began at `since` (mark()); without it, from a read starting now. O(1). */
	hides(board: string, key: string, since?: number): boolean {
		const at = math.max(this.hidden.get(board)?.get(key) ?? -1, this.erasing.get(key) ?? -1);
		return at > (since ?? this.landings);
	}

	/** An erasure of the key began (here or on another server): hidden on every board, every cache stale. */
	erase(key: string, boards: ReadonlyArray<string>) {
		if (this.erasing.get(key) !== math.huge) this.underWay += 1;
		this.erasing.set(key, math.huge);
		for (const board of boards) this.settled(board);
	}

	/** The key's erasure is done: reads that began before now still hide it. */
	erased(key: string, boards: ReadonlyArray<string>) {
		if (this.erasing.get(key) !== math.huge) return;
		this.underWay -= 1;
		this.landings += 1;
		this.erasing.set(key, this.landings);
		for (const board of boards) this.settled(board);
	}

	/** The key's erasure is under way: submits for it are refused, and a failed write of it is not retried. O(1). */
	isErasing(key: string): boolean {
		return this.underWay > 0 && this.erasing.get(key) === math.huge;
	}

	/** A read that began at `since` finished: removals landed before it need not be remembered. */
	readFrom(board: string, since: number) {
		const hidden = this.hidden.get(board);
		if (!hidden) return;
		for (const [key, at] of hidden) if (at <= since) hidden.delete(key);
		if (hidden.isEmpty()) this.hidden.delete(board);
	}

	/** Calls `listener(board)` whenever one of the board's removals landed or was dropped (caches go stale). */
	onSettled(listener: (board: string) => void) {
		this.listeners.push(listener);
	}

	private settled(board: string) {
		for (const listener of this.listeners) listener(board);
	}
}
