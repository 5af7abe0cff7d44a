import { PendingWrite, StageContext } from "../../contracts";
import { Pacing } from "./pacing";

// One window's walk over the boards: in name order from after the board written last, one key per
// board per turn, each board giving at most what it had queued when the window began and could take
// (one attempt per key), each budget group at most its budget, the window at most `budget` in all.
export class Walk {
	readonly budget: number;
	attempted = 0;
	// The board the walk took from last (by its place in boardNames).
	last: number;
	private readonly allowance: number[];
	private readonly left: number[];
	private index: number;
	private idle = 0;

	constructor(
		private readonly context: StageContext,
		private readonly pacing: Pacing,
		last: number,
		limit: number,
		/** A prompt window's walk: only the values that entered a visible top (Queue.takeRecord). */
		private readonly records = false,
		/** Under a sustained backlog: each budget group keeps its drain reserve (Pacing.allot). */
		holding = false,
	) {
		const { settings, stages } = context;
		const queue = stages.Queue;
		// A key waiting on a late write would be a failed key's second turn: not in the allowance.
		this.allowance = settings.boardNames.map((board) =>
			records ? (queue.recordsOn?.(board) ?? 0) : queue.pendingOn(board) - queue.waiting(board),
		);
		const [left, budget] = pacing.allot(this.allowance, limit, holding, records);
		this.left = left;
		this.budget = budget;
		this.last = last;
		this.index = (last + 1) % settings.boardNames.size();
	}

	/** The next key to write, taken from the queue; undefined once a whole turn found none. */
	next(): PendingWrite | undefined {
		const names = this.context.settings.boardNames;
		while (this.attempted < this.budget && this.idle < names.size()) {
			const index = this.index;
			const group = this.pacing.groupOf[index];
			this.index = (index + 1) % names.size();
			const write = this.allowance[index] > 0 && this.left[group] > 0 ? this.take(names[index]) : undefined;
			if (write) {
				this.idle = 0;
				this.allowance[index] -= 1;
				this.left[group] -= 1;
				this.attempted += 1;
				this.last = index;
				return write;
			}
			// Nothing to take; a board whose group's budget ran out keeps its keys for a later window.
			if (this.left[group] > 0) this.allowance[index] = 0;
			this.idle += 1;
		}
		return undefined;
	}

	// A value that entered the visible top goes first in any window: one flagged while a window runs
	// takes that window's next write on its board instead of waiting for the window to end.
	private take(board: string): PendingWrite | undefined {
		const queue = this.context.stages.Queue;
		if (this.records) return queue.takeRecord?.(board);
		return queue.takeRecord?.(board) ?? queue.take(board);
	}

	/** Keys left behind that the window had no budget for. */
	leftBehind(): boolean {
		return this.allowance.some((count) => count > 0);
	}
}
