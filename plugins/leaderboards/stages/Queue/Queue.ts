import { Logger } from "../../../../kernel";
import {
	Board,
	PendingWrite,
	PeriodRule,
	QueueStage,
	SUBJECTS,
	StageContext,
	Stats,
	Subject,
	Topics,
	Warnings,
	periodAt,
	refuseKey,
	refuseValue,
	storageName,
	subjectKey,
	storeOf,
} from "../../types";

const log = Logger.scope("Leaderboards");

interface Slot {
	readonly store: string;
	readonly key: string;
	/** When the slot's period ends (Unix seconds); undefined on an all-time board. */
	readonly until?: number;
	value: number;
	failures: number;
	/** remove(): "only" (value unused) or "first" (then value is written). */
	remove?: "only" | "first";
	/** Waiting, out of the arrival order, for its key's write to return. */
	parked?: boolean;
	/** A write given up on (past RequestSeconds) that went back into this slot: its late success is applied here. */
	echo?: PendingWrite;
}

// One board's pending values: a slot per (storage name, key), and the slots in
// arrival order. A Reset board's submits go to the current period's storage
// name, found again only when the clock leaves that period's span. A key whose
// write has not returned is `out`: its slot waits parked, off the order, so
// take() never walks past it, and rejoins the order's end when the write settles.
class BoardQueue {
	readonly stores = new Map<string, Map<string, Slot>>();
	readonly out = new Map<string, Set<string>>();
	order = new Array<Slot>();
	head = 0;
	// Slots in the order, and parked ones.
	count = 0;
	parked = 0;
	// Where submits go now: a storage name, its slots, and the span it holds for
	// (none yet: a Reset board's first submit finds its period).
	store: string;
	slots: Map<string, Slot>;
	from = math.huge;
	until = -math.huge;

	constructor(readonly board: Board) {
		this.store = board.Name;
		this.slots = this.slotsOf(board.Name);
	}

	// The period's storage name at `now`; a board with nothing pending at the roll does no work until its next submit.
	roll(period: PeriodRule, now: number) {
		const current = periodAt(period, now);
		if (this.slots.isEmpty()) this.stores.delete(this.store);
		this.store = storageName(this.board.Name, current.Id);
		this.slots = this.slotsOf(this.store);
		this.from = current.Start;
		this.until = current.Finish;
	}

	slotsOf(store: string): Map<string, Slot> {
		let slots = this.stores.get(store);
		if (!slots) {
			slots = new Map();
			this.stores.set(store, slots);
		}
		return slots;
	}

	enqueue(slot: Slot) {
		this.slotsOf(slot.store).set(slot.key, slot);
		if (this.out.get(slot.store)?.has(slot.key)) {
			slot.parked = true;
			this.parked += 1;
		} else {
			this.order.push(slot);
			this.count += 1;
		}
	}

	// The key's write settled: its parked slot rejoins the order, or goes (`drop`).
	release(store: string, key: string, drop: boolean) {
		const keys = this.out.get(store);
		keys?.delete(key);
		if (keys?.isEmpty()) this.out.delete(store);
		const slots = this.stores.get(store);
		const slot = slots?.get(key);
		if (!slots || !slot?.parked) return;
		slot.parked = undefined;
		slot.echo = undefined;
		this.parked -= 1;
		if (!drop) {
			this.order.push(slot);
			this.count += 1;
			return;
		}
		slots.delete(key);
		if (slots !== this.slots && slots.isEmpty()) this.stores.delete(store);
	}

	dequeue(): Slot | undefined {
		if (this.count === 0) return undefined;
		const slot = this.order[this.head];
		this.head += 1;
		this.count -= 1;
		const slots = this.stores.get(slot.store)!;
		slots.delete(slot.key);
		let keys = this.out.get(slot.store);
		if (!keys) {
			keys = new Set();
			this.out.set(slot.store, keys);
		}
		keys.add(slot.key);
		// A past period's slots go once empty; the current one's stay for the next submit.
		if (slots !== this.slots && slots.isEmpty()) this.stores.delete(slot.store);
		// Drop the consumed prefix now and then, so the array does not grow forever.
		if (this.head > 1024 && this.head * 2 > this.order.size()) {
			const rest = new Array<Slot>(this.count);
			for (let i = this.head; i < this.order.size(); i++) rest.push(this.order[i]);
			this.order = rest;
			this.head = 0;
		}
		return slot;
	}
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
	private readonly stats: Stats;
	private readonly integersOnly: boolean;
	private readonly maxKeyLength?: number;
	private readonly unixTime: () => number;
	private total = 0;
	private closed = false;

	constructor(private readonly context: StageContext) {
		for (const [name, board] of context.settings.boards) {
			this.boards.set(name, new BoardQueue(board));
		}
		this.stats = context.stats;
		this.integersOnly = context.settings.store.integers;
		this.maxKeyLength = context.settings.store.maxKeyLength;
		this.unixTime = context.settings.unixTime;
	}

	submit(board: string, subject: Subject, value: unknown): boolean {
		if (this.closed) return false;
		const queue = this.boards.get(board);
		if (!queue) return false;
		const refusal = refuseValue(value, this.integersOnly);
		if (refusal !== undefined) {
			if (refusal === "fractional")
				this.refused(board, refusal, "the store holds integers only: scale fractions (times in milliseconds)");
			return false;
		}
		const [key, junk] = subjectKey(subject);
		if (key === undefined) {
			this.refused(board, `the subject is ${junk}`, `submit ${SUBJECTS}`);
			return false;
		}
		const config = queue.board;
		const ruled = config.Rule.refuse(value as number);
		if (ruled) {
			this.refused(board, ruled.reason, ruled.advice);
			return false;
		}
		this.roll(queue);
		const slot = queue.slots.get(key);
		if (slot) {
			if (slot.remove === "only") {
				// Submitted after a removal: written after it, whatever was stored.
				slot.value = value as number;
				slot.remove = "first";
			} else slot.value = config.Rule.merge(slot.value, value as number);
		} else {
			// Checked once, when the key first queues.
			const keyRefusal = refuseKey(key, this.maxKeyLength);
			if (keyRefusal !== undefined) {
				this.refused(board, keyRefusal, "the store cannot hold such a key");
				return false;
			}
			const periodEnd = config.Period ? queue.until : undefined;
			queue.enqueue({ store: queue.store, key, until: periodEnd, value: value as number, failures: 0 });
			this.added();
		}
		this.stats.Submitted += 1;
		return true;
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
		const slot = queue?.dequeue();
		if (queue === undefined || slot === undefined) return undefined;
		this.total -= 1;
		const lifetime = slot.until !== undefined ? slot.until + queue.board.Retention - this.unixTime() : undefined;
		return {
			Board: board,
			Store: slot.store,
			Key: slot.key,
			Value: slot.value,
			Failures: slot.failures,
			Remove: slot.remove,
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

	restore(write: PendingWrite, draining: boolean): boolean {
		const queue = this.boards.get(write.Board);
		if (!queue) return false;
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
		const config = queue.board;
		const newer = queue.stores.get(store)?.get(write.Key);
		if (newer) {
			// A removal queued since this write was taken supersedes it.
			if (newer.remove) return false;
			if (write.Remove) {
				// What was submitted since is written after the removal, merged with what came before.
				if (write.Remove === "first") newer.value = config.Rule.merge(write.Value, newer.value);
				newer.remove = "first";
			} else newer.value = config.Rule.merge(write.Value, newer.value);
			newer.failures = failures;
			newer.echo = write;
		} else {
			queue.enqueue({
				store,
				key: write.Key,
				until: write.PeriodEnd,
				value: write.Value,
				failures,
				remove: write.Remove,
				echo: write,
			});
			this.added();
		}
		return false;
	}

	settle(write: PendingWrite, landed: boolean) {
		const queue = this.boards.get(write.Board);
		if (!queue) return;
		const store = storeOf(write);
		const slot = queue.stores.get(store)?.get(write.Key);
		const drop = landed && slot?.echo === write && this.landedOver(queue.board, slot, write);
		queue.release(store, write.Key, drop);
		if (drop) this.total -= 1;
	}

	// Applies a late success to the slot it went back into; true when nothing is left to write.
	private landedOver(board: Board, slot: Slot, write: PendingWrite): boolean {
		if (write.Remove) {
			// The removal landed: a slot holding only it is done, one with a value writes just that.
			if (slot.remove === "only") return true;
			slot.remove = undefined;
			if (write.Remove === "only") return false;
		}
		// The store holds the landed value: the rule says what is left, and whether the store already covers it.
		slot.value = board.Rule.unlanded(slot.value, write.Value);
		return slot.remove === undefined && board.Rule.covers(write.Value, slot.value);
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

	private refused(board: string, reason: string, why: string) {
		this.warnings.once(board, reason, `submit refused, ${reason} (${why})`);
	}
}
