import { Logger } from "../../../../kernel";
import { PendingWrite, QueueStage, Removals, StageContext, Stats, Subject, Topics, Visible } from "../../contracts";
import { enters, storeOf, Warnings } from "../../core";
import { admit, Refusal } from "./admit";
import { BoardQueue } from "./BoardQueue";
import { dropKey } from "./erased";
import { restoreInto, settleIn } from "./returns";
import { TakenSlot } from "./slots";

const log = Logger.scope("Leaderboards");

/** submit() as a function whose self is unused: the boards may hold it as their own method. */
export type BoundSubmit = (this: unknown, board: string, subject: Subject, value: unknown) => boolean;

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
	/** QueueStage.submit, a closure over the stage: it needs no self, so attach binds it on the boards as their own method. */
	readonly submit: BoundSubmit;

	constructor(private readonly context: StageContext) {
		for (const [name, board] of context.settings.boards)
			this.boards.set(name, new BoardQueue(board, context.settings.clock));
		const bus = context.kernel.Bus;
		bus.subscribe(Topics.Visible, (_, board, store, visible) => this.see(board, store, visible));
		bus.subscribe(Topics.Settled, (_, write, landed) => this.settle(write, landed));
		bus.subscribe(Topics.WriteFailed, (_, write, draining) => this.restore(write, draining));
		bus.subscribe(Topics.Erasing, (_, key) => this.drop(key));
		bus.subscribe(Topics.Draining, () => this.close());
		// An erasure began or ended (removals tell every board): submits take the quick path only while none is under way.
		context.removals.onSettled((board) => this.quicken(this.boards.get(board)));
		this.stats = context.stats;
		this.unixTime = context.settings.unixTime;
		this.removals = context.removals;
		this.submit = this.submitter();
	}

	// The common case, a value within the board's admission (admission.ts) for a key pending on a `direct`
	// board, under its visible top's bar, reads a few fields and calls nothing but type() (docs/benchmarks.md);
	// anything else goes through `checked`.
	private submitter(): BoundSubmit {
		const boards = this.boards;
		const stats = this.stats;
		const stage = this;
		return function (board, subject, value) {
			const queue = boards.get(board);
			if (!queue) return stage.unknown(board);
			// A value within the board's admission, of a pending key on a direct board: nothing else to ask.
			const better = queue.better;
			let within = false;
			let values: Map<string, number> | false = false;
			let held: number | undefined;
			if (
				typeIs(value, "number") &&
				value >= queue.low &&
				value <= queue.high &&
				(value % 1 === 0 || !queue.whole)
			) {
				within = true;
				values = queue.direct;
				if (values) held = values.get(subject as string);
				// At or over a visible top's bar, the value or the pending one may enter it: the checked path prompts.
				const bar = queue.bar;
				if (held !== undefined && ((value as number) * better >= bar || held * better >= bar)) held = undefined;
			}
			let key = subject as string;
			let checked = false;
			if (held === undefined || !values) {
				const pending = stage.checked(queue, board, subject, value, within && queue.quick);
				if (pending === true || pending === false) return pending;
				key = pending;
				values = queue.values;
				held = values.get(key)!;
				checked = true;
			}
			// A keep-best board keeps the better value in one comparison (admission.ts); other rules merge.
			if (better === 0) values.set(key, queue.merge(held, value as number));
			else if ((value as number) * better > held * better) values.set(key, value as number);
			if (checked) stage.prompt(queue, board, key);
			stats.Submitted += 1;
			return true;
		};
	}

	// A submit off the common case: the period rolled, every check in order where the value is not taken at
	// once or the key not pending (naming the refusal), a new slot, a value after a removal. false: refused;
	// true: queued; a string: the pending key whose value submit keeps.
	private checked(queue: BoardQueue, board: string, subject: Subject, value: unknown, taken: boolean) {
		if (queue.period) this.roll(queue);
		let key = subject as string;
		let seq = queue.slots.get(key);
		if (seq === undefined || !taken) {
			if (this.closed) return false;
			const admitted = admit(queue, subject, value, this.removals);
			if (!typeIs(admitted, "string")) return this.refused(board, admitted, value);
			key = admitted;
			seq = queue.slots.get(key);
		}
		if (seq === undefined) {
			queue.enqueue(queue.store, key, value as number, queue.period ? queue.until : undefined);
			this.added();
		} else {
			const state = queue.states.get(seq);
			if (state?.remove !== "only") return key;
			// Submitted after a removal: written after it, whatever was stored.
			queue.values.set(key, value as number);
			queue.states.removeAs(state, "first");
		}
		this.prompt(queue, board, key);
		this.stats.Submitted += 1;
		return true;
	}

	// The value now pending enters the visible top of the page the Reader last published (O(1)): a prompt window takes it.
	private prompt(queue: BoardQueue, board: string, key: string) {
		const visible = queue.visible;
		const seq = queue.slots.get(key)!;
		if (visible === undefined || queue.states.get(seq)?.record) return;
		if (!enters(queue.board, visible, key, queue.values.get(key)!)) return;
		queue.flag(seq);
		this.context.kernel.Bus.publish(Topics.Prompt, board);
	}

	// A typo in a game's submit would drop every score of that board unnoticed.
	private unknown(board: string): false {
		if (!this.closed) this.warnings.boardOf(this.context.settings, "submit", board);
		return false;
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
			queue.values.set(key, 0);
			const state = queue.states.of(seq);
			state.failures = 0;
			queue.states.removeAs(state, "only");
			// Newer than anything a late write lands.
			state.echo = undefined;
		} else {
			const periodEnd = queue.board.Period ? queue.until : undefined;
			queue.enqueue(queue.store, key, 0, periodEnd, { failures: 0, remove: "only" });
			this.added();
		}
		return true;
	}

	// Every value queued for an erased key goes, on every board and period.
	private drop(key: string) {
		let dropped = 0;
		for (const [, queue] of this.boards) dropped += dropKey(queue, key);
		this.total -= dropped;
	}

	// A failed write's value goes back, merged with anything newer, counting the failed window; at
	// MaxWriteAttempts it is dropped instead (never while draining: a write launched before destroy() may fail then).
	private restore(write: PendingWrite, draining: boolean) {
		const queue = this.boards.get(write.Board);
		if (!queue) return;
		// Erased meanwhile: the value goes, not back into the queue.
		if (this.context.removals.isErasing(write.Key)) return;
		const failures = write.Failures + 1;
		const store = storeOf(write);
		if (!draining && !this.closed && failures >= this.context.settings.MaxWriteAttempts) {
			this.stats.Dropped += 1;
			const what = write.Remove === "only" ? `the removal of ${write.Key}` : `${write.Key} = ${write.Value}`;
			log.warn(`dropped ${store} ${what} after ${failures} failed write windows (MaxWriteAttempts)`);
			const value = write.Remove ? undefined : write.Value;
			this.context.kernel.Bus.publish(Topics.Dropped, write.Board, write.Key, value);
			return;
		}
		if (restoreInto(queue, store, write, failures)) this.added();
	}

	// The write returned (landed: it succeeded) or was given up on: its key may be taken again. Restored
	// before it returned (past RequestSeconds), a late success applies to what went back: a Sum board
	// subtracts the landed value, other boards drop a value the store now holds or beats.
	private settle(write: PendingWrite, landed: boolean) {
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
			queue.route(queue.quick, this.tops.get(`${queue.board.Name}\0${queue.store}`));
		}
	}

	// A cached page's visible top changed (nil: the page went): kept for the submits to its storage name.
	private see(board: string, store: string, visible: Visible | undefined) {
		const queue = this.boards.get(board);
		if (!queue) return;
		if (visible) this.tops.set(`${board}\0${store}`, visible);
		else this.tops.delete(`${board}\0${store}`);
		if (store === queue.store) queue.route(queue.quick, visible);
	}

	// destroy() began: every later submit is refused.
	private close() {
		this.closed = true;
		for (const [, queue] of this.boards) this.quicken(queue);
	}

	// Whether a board's submits may skip the checks (a pending key, a value its admission takes at once).
	private quicken(queue: BoardQueue | undefined) {
		queue?.route(queue.plain && !this.closed && this.removals.underWay === 0, queue.visible);
	}

	private added() {
		this.total += 1;
		if (this.total === 1) this.context.kernel.Bus.publish(Topics.Pending);
	}

	// A board refused a submit: one warning per board and reason, counted, told on the Bus.
	private refused(board: string, refusal: Refusal, value: unknown): false {
		this.warnings.once(board, refusal.reason, `submit refused, ${refusal.message}`);
		this.stats.Refused += 1;
		this.context.kernel.Bus.publish(Topics.Refused, board, refusal.key, value, refusal.reason);
		return false;
	}
}
