import { Logger } from "../../../../kernel";
import { Board, PendingWrite, QueueStage, StageContext, Stats, Subject, Topics } from "../../contracts";
import { refuseKey, refuseValue, shown, storeOf, subjectKey, SUBJECTS, Warnings } from "../../core";
import { BoardQueue, Slot } from "./BoardQueue";
import { Bounds } from "./bounds";
import { dropKey } from "./erased";
import { restoreInto, settleIn } from "./returns";

const log = Logger.scope("Leaderboards");

// What submit() says of each kind of value it refuses (refuseValue's reasons), naming the first one seen.
const VALUE_REFUSALS: Record<string, (value: unknown, board: Board) => string> = {
	"not a number": (value) => `the value is not a number (got ${shown(value)}: submit a number)`,
	NaN: () => "the value is NaN (a division by zero upstream?)",
	infinite: (value) => `the value is ${value} (a division by zero upstream?)`,
	fractional: (_, board) =>
		board.TieBreak
			? "fractional (TieBreak stores whole numbers: scale fractions (times in milliseconds))"
			: "fractional (the store holds integers only: scale fractions (times in milliseconds))",
	"outside ±2^53": (value) =>
		`the value is outside ±2^53 (got ${value}: a double holds integers exactly only that far; Values = "Big" takes any finite number)`,
	"outside the board's range": (value, board) =>
		`the value is outside ±${board.Encoding.Limit} (got ${value}: TieBreak folds the time into the stored number, leaving this board that range)`,
};

// What submit() says of a value a board's own bounds refuse.
function boundRefusal(reason: string, value: number, board: Board): string {
	if (reason === "below MinValue") return `the value is below MinValue (got ${value}, MinValue ${board.MinValue})`;
	if (reason === "above MaxValue") return `the value is above MaxValue (got ${value}, MaxValue ${board.MaxValue})`;
	if (reason === "over MaxAddedPerMinute")
		return `the key would add more than MaxAddedPerMinute (${board.MaxAddedPerMinute}) this minute (got ${value})`;
	return `Validate refused the value (${reason})`;
}

/**
 * The submit queue: one pending value per board, storage name and key, the
 * best of the submitted ones (the newest with KeepBest = false, their sum on a
 * Sum board). A value stays with the period it was submitted in, whenever it is
 * written. submit is O(1) and allocates only for a key not yet pending. Keys
 * leave in arrival order, one per take(), so a window never walks the whole
 * queue; a key whose write has not settled is not taken again until it has
 * (never two writes for one key in a window), and a late success is applied to
 * what went back (settle).
 */
export class Queue implements QueueStage {
	readonly Name = "Leaderboards.Queue";
	private readonly boards = new Map<string, BoardQueue>();
	private readonly warnings = new Warnings();
	/** The boards with bounds of their own (MinValue, MaxValue, MaxAddedPerMinute, Validate). */
	private readonly bounds = new Map<string, Bounds>();
	private readonly stats: Stats;
	private readonly unixTime: () => number;
	private total = 0;
	private closed = false;

	constructor(private readonly context: StageContext) {
		for (const [name, board] of context.settings.boards) {
			this.boards.set(name, new BoardQueue(board));
			if (Bounds.needed(board)) this.bounds.set(name, new Bounds(board, context.settings.clock));
		}
		this.stats = context.stats;
		this.unixTime = context.settings.unixTime;
	}

	submit(board: string, subject: Subject, value: unknown): boolean {
		if (this.closed) return false;
		const queue = this.boards.get(board);
		if (!queue) {
			// A typo in a game's submit would drop every score of that board unnoticed.
			this.warnings.boardOf(this.context.settings, "submit", board);
			return false;
		}
		const config = queue.board;
		const [key, junk] = subjectKey(subject);
		const refusal = refuseValue(value, config.Encoding.Integers, config.Encoding.Limit);
		if (refusal !== undefined)
			return this.refused(board, key, value, refusal, VALUE_REFUSALS[refusal](value, config));
		if (key === undefined)
			return this.refused(
				board,
				key,
				value,
				`the subject is ${junk}`,
				`the subject is ${junk} (submit ${SUBJECTS})`,
			);
		// An erasure under way: a value written now would put back what it removes.
		if (this.context.removals.isErasing(key))
			return this.refused(board, key, value, "erasing", "the key is being erased (erase())");
		const ruled = config.Rule.refuse(value as number);
		if (ruled) return this.refused(board, key, value, ruled.reason, `${ruled.reason} (${ruled.advice})`);
		this.roll(queue);
		let slot = queue.slots.get(key);
		// Checked once, when the key first queues.
		const keyRefusal = slot ? undefined : refuseKey(key, config.Store.maxKeyLength);
		if (keyRefusal !== undefined)
			return this.refused(board, key, value, keyRefusal, `${keyRefusal} (the store cannot hold such a key)`);
		const bounds = this.bounds.get(board);
		if (bounds) {
			const bounded = bounds.refuse(key, value as number, slot?.remove === "only" ? undefined : slot?.value);
			if (bounded !== undefined)
				return this.refused(board, key, value, bounded, boundRefusal(bounded, value as number, config));
			bounds.accepted(key, value as number);
		}
		if (slot) {
			if (slot.remove === "only") {
				// Submitted after a removal: written after it, whatever was stored.
				slot.value = value as number;
				slot.remove = "first";
			} else slot.value = config.Rule.merge(slot.value, value as number);
		} else {
			const periodEnd = config.Period ? queue.until : undefined;
			slot = { store: queue.store, key, until: periodEnd, value: value as number, failures: 0 };
			queue.enqueue(slot);
			this.added();
		}
		if (!slot.record && config.VisibleTop > 0 && this.entersTop(board, slot)) {
			queue.flag(slot);
			this.context.kernel.Bus.publish(Topics.Prompt, board);
		}
		this.stats.Submitted += 1;
		return true;
	}

	// The value now pending for a key enters the board's visible top on the cached page (O(1)).
	private entersTop(board: string, slot: Slot): boolean {
		return this.context.stages.Reader.entersTop?.(board, slot.store, slot.key, slot.value) === true;
	}

	pending(): number {
		return this.total;
	}

	pendingOn(board: string): number {
		const queue = this.boards.get(board);
		return queue ? queue.count + queue.parked : 0;
	}

	waiting(board?: string): number {
		if (board !== undefined) return this.boards.get(board)?.parked ?? 0;
		let parked = 0;
		for (const [, queue] of this.boards) parked += queue.parked;
		return parked;
	}

	take(board: string): PendingWrite | undefined {
		const queue = this.boards.get(board);
		return queue && this.writeOf(queue, queue.dequeue());
	}

	takeRecord(board: string): PendingWrite | undefined {
		const queue = this.boards.get(board);
		return queue && this.writeOf(queue, queue.dequeueRecord());
	}

	recordsOn(board: string): number {
		return this.boards.get(board)?.recordsWaiting() ?? 0;
	}

	// A slot detached for a write, as the write carries it.
	private writeOf(queue: BoardQueue, slot: Slot | undefined): PendingWrite | undefined {
		if (slot === undefined) return undefined;
		const board = queue.board.Name;
		this.total -= 1;
		const lifetime = slot.until !== undefined ? slot.until + queue.board.Retention - this.unixTime() : undefined;
		return {
			Board: board,
			Store: slot.store,
			Key: slot.key,
			Value: slot.value,
			Failures: slot.failures,
			Remove: slot.remove,
			Record: slot.record,
			PeriodEnd: slot.until,
			Lifetime: lifetime,
		};
	}

	remove(board: string, key: string): boolean {
		const queue = this.boards.get(board);
		if (this.closed || !queue) return false;
		// The current period's value goes, as a submit now would land there.
		this.roll(queue);
		const slot = queue.slots.get(key);
		if (slot) {
			slot.value = 0;
			slot.failures = 0;
			slot.remove = "only";
			// Newer than anything a late write lands.
			slot.echo = undefined;
		} else {
			const periodEnd = queue.board.Period ? queue.until : undefined;
			queue.enqueue({ store: queue.store, key, until: periodEnd, value: 0, failures: 0, remove: "only" });
			this.added();
		}
		return true;
	}

	drop(key: string): number {
		let dropped = 0;
		for (const [, queue] of this.boards) dropped += dropKey(queue, key);
		this.total -= dropped;
		return dropped;
	}

	restore(write: PendingWrite, draining: boolean): boolean {
		const queue = this.boards.get(write.Board);
		if (!queue) return false;
		// Erased meanwhile: the value goes, not back into the queue.
		if (this.context.removals.isErasing(write.Key)) return false;
		const failures = write.Failures + 1;
		const store = storeOf(write);
		// Never while draining: a write launched before destroy() may fail during the drain.
		if (!draining && !this.closed && failures >= this.context.settings.MaxWriteAttempts) {
			this.stats.Dropped += 1;
			const what = write.Remove === "only" ? `the removal of ${write.Key}` : `${write.Key} = ${write.Value}`;
			log.warn(`dropped ${store} ${what} after ${failures} failed write windows (MaxWriteAttempts)`);
			const value = write.Remove ? undefined : write.Value;
			this.context.kernel.Bus.publish(Topics.Dropped, write.Board, write.Key, value);
			return true;
		}
		if (restoreInto(queue, store, write, failures)) this.added();
		return false;
	}

	settle(write: PendingWrite, landed: boolean) {
		const queue = this.boards.get(write.Board);
		if (queue && settleIn(queue, write, landed)) this.total -= 1;
	}

	// A Reset board's submits (and removals) go to the current period.
	private roll(queue: BoardQueue) {
		const period = queue.board.Period;
		if (!period) return;
		const now = this.unixTime();
		if (now < queue.from || now >= queue.until) queue.roll(period, now);
	}

	close() {
		this.closed = true;
	}

	private added() {
		this.total += 1;
		if (this.total === 1) this.context.kernel.Bus.publish(Topics.Pending);
	}

	// A board refused a submit: one warning per board and reason, counted, told on the Bus.
	private refused(board: string, key: string | undefined, value: unknown, reason: string, message: string): false {
		this.warnings.once(board, reason, `submit refused, ${message}`);
		this.stats.Refused += 1;
		this.context.kernel.Bus.publish(Topics.Refused, board, key, value, reason);
		return false;
	}
}
