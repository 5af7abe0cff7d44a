import { Logger } from "../../../../kernel";
import { PendingWrite, QueueStage, Removals, StageContext, Stats, Subject, Topics, Visible } from "../../contracts";
import { enters, refuseKey, refuseValue, storeOf, subjectKey, SUBJECTS, Warnings } from "../../core";
import { boundRefusal, VALUE_REFUSALS } from "./admission";
import { BoardQueue } from "./BoardQueue";
import { dropKey } from "./erased";
import { restoreInto, settleIn } from "./returns";
import { SlotState, TakenSlot } from "./slots";

const log = Logger.scope("Leaderboards");

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
	// By board and storage name, the visible top of each cached page (Leaderboard.Visible).
	private readonly tops = new Map<string, Visible>();
	private readonly warnings = new Warnings();
	private readonly stats: Stats;
	private readonly unixTime: () => number;
	private readonly removals: Removals;
	private total = 0;
	private closed = false;

	constructor(private readonly context: StageContext) {
		for (const [name, board] of context.settings.boards)
			this.boards.set(name, new BoardQueue(board, context.settings.clock));
		context.kernel.Bus.subscribe(Topics.Visible, (_, board, store, visible) => this.see(board, store, visible));
		// An erasure began or ended (removals tell every board): submits take the quick path only while none is under way.
		context.removals.onSettled((board) => this.quicken(this.boards.get(board)));
		this.stats = context.stats;
		this.unixTime = context.settings.unixTime;
		this.removals = context.removals;
	}

	submit(board: string, subject: Subject, value: unknown): boolean {
		const queue = this.boards.get(board);
		if (!queue) {
			// A typo in a game's submit would drop every score of that board unnoticed.
			if (!this.closed) this.warnings.boardOf(this.context.settings, "submit", board);
			return false;
		}
		if (queue.period) this.roll(queue);
		// The common case, a key already pending (so a storable string) and a value the board takes at once
		// (admission.ts), costs a few tests (docs/benchmarks.md); anything else goes through every check in
		// order, naming the refusal.
		let key = subject as string;
		let seq = queue.slots.get(key);
		if (
			seq === undefined ||
			!queue.quick ||
			!typeIs(value, "number") ||
			!(value >= queue.low && value <= queue.high) ||
			(value % 1 !== 0 && queue.whole)
		) {
			const admitted = this.admit(queue, board, subject, value);
			if (admitted === undefined) return false;
			key = admitted;
			seq = queue.slots.get(key);
		}
		const values = queue.values;
		let state: SlotState | undefined;
		if (seq === undefined) {
			seq = queue.enqueue(queue.store, key, value as number, queue.period ? queue.until : undefined);
			this.added();
		} else {
			state = queue.states.get(seq);
			const index = seq - queue.base;
			if (state?.remove === "only") {
				// Submitted after a removal: written after it, whatever was stored.
				values[index] = value as number;
				state.remove = "first";
			} else {
				const held = values[index];
				const better = queue.better;
				// A keep-best board keeps the better value in one comparison (admission.ts); other rules merge.
				if (better === 0) values[index] = queue.merge(held, value as number);
				else if ((value as number) * better > held * better) values[index] = value as number;
			}
		}
		// The value now pending enters the visible top of the page the Reader last published (O(1)).
		const visible = queue.visible;
		if (visible !== undefined && !state?.record && enters(queue.board, visible, key, values[seq - queue.base])) {
			queue.flag(seq);
			this.context.kernel.Bus.publish(Topics.Prompt, board);
		}
		this.stats.Submitted += 1;
		return true;
	}

	// Every check submit makes, in order: the key (undefined, warned and told, when a check refuses).
	private admit(queue: BoardQueue, board: string, subject: Subject, value: unknown): string | undefined {
		if (this.closed) return undefined;
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
		const ruled = config.Rule.refuse?.(value as number);
		if (ruled) return this.refused(board, key, value, ruled.reason, `${ruled.reason} (${ruled.advice})`);
		const seq = queue.slots.get(key);
		// Checked once, when the key first queues.
		const keyRefusal = seq !== undefined ? undefined : refuseKey(key, config.Store.maxKeyLength);
		if (keyRefusal !== undefined)
			return this.refused(board, key, value, keyRefusal, `${keyRefusal} (the store cannot hold such a key)`);
		const bounds = queue.bounds;
		if (bounds) {
			const state = seq !== undefined ? queue.states.get(seq) : undefined;
			const previous = seq === undefined || state?.remove === "only" ? undefined : queue.values[seq - queue.base];
			const bounded = bounds.refuse(key, value as number, previous);
			if (bounded !== undefined)
				return this.refused(board, key, value, bounded, boundRefusal(bounded, value as number, config));
			bounds.accepted(key, value as number);
		}
		return key;
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
	private writeOf(queue: BoardQueue, slot: TakenSlot | undefined): PendingWrite | undefined {
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
		const seq = queue.slots.get(key);
		if (seq !== undefined) {
			queue.values[seq - queue.base] = 0;
			const state = queue.stateOf(seq);
			state.failures = 0;
			state.remove = "only";
			// Newer than anything a late write lands.
			state.echo = undefined;
		} else {
			const periodEnd = queue.board.Period ? queue.until : undefined;
			queue.enqueue(queue.store, key, 0, periodEnd, { failures: 0, remove: "only" });
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
		if (now < queue.from || now >= queue.until) {
			queue.roll(period, now);
			queue.visible = this.tops.get(`${queue.board.Name}\0${queue.store}`);
		}
	}

	// A cached page's visible top changed (nil: the page went): kept for the submits to its storage name.
	private see(board: string, store: string, visible: Visible | undefined) {
		const queue = this.boards.get(board);
		if (!queue) return;
		if (visible) this.tops.set(`${board}\0${store}`, visible);
		else this.tops.delete(`${board}\0${store}`);
		if (store === queue.store) queue.visible = visible;
	}

	close() {
		this.closed = true;
		for (const [, queue] of this.boards) this.quicken(queue);
	}

	// Whether a board's submits may skip the checks (a pending key, a value its admission takes at once).
	private quicken(queue: BoardQueue | undefined) {
		if (queue) queue.quick = queue.plain && !this.closed && this.removals.underWay === 0;
	}

	private added() {
		this.total += 1;
		if (this.total === 1) this.context.kernel.Bus.publish(Topics.Pending);
	}

	// A board refused a submit: one warning per board and reason, counted, told on the Bus.
	private refused(
		board: string,
		key: string | undefined,
		value: unknown,
		reason: string,
		message: string,
	): undefined {
		this.warnings.once(board, reason, `submit refused, ${message}`);
		this.stats.Refused += 1;
		this.context.kernel.Bus.publish(Topics.Refused, board, key, value, reason);
		return undefined;
	}
}
