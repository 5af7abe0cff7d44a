import { Board, PendingWrite, PeriodRule } from "../../contracts";
import { periodAt } from "../../core";

export interface Slot {
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
	/** The value entered the board's visible top: written by a prompt window, its landing announced. */
	record?: boolean;
	/** Taken by a prompt window (takeRecord) while still in the arrival order: dequeue() passes over it. */
	taken?: boolean;
}

// One board's pending values: a slot per (storage name, key), and the slots in
// arrival order. A Reset board's submits go to the current period's storage
// name, found again only when the clock leaves that period's span. A key whose
// write has not returned is `out`: its slot waits parked, off the order, so
// take() never walks past it, and rejoins the order's end when the write settles.
export class BoardQueue {
	readonly stores = new Map<string, Map<string, Slot>>();
	readonly out = new Map<string, Set<string>>();
	order = new Array<Slot>();
	head = 0;
	// Record slots in the order they were flagged; some may have gone (written, parked) since.
	records = new Array<Slot>();
	recordHead = 0;
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
		// An all-time board's storage name (a Reset board's first submit finds its period's).
		this.store = board.storageFor(undefined);
		this.slots = this.slotsOf(this.store);
	}

	// The period's storage name at `now`; a board with nothing pending at the roll does no work until its next submit.
	roll(period: PeriodRule, now: number) {
		const current = periodAt(period, now);
		if (this.slots.isEmpty()) this.stores.delete(this.store);
		this.store = this.board.storageFor(current.Id);
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
		} else this.join(slot);
	}

	// A slot joins the arrival order (and, a record, the prompt windows' list).
	private join(slot: Slot) {
		this.order.push(slot);
		this.count += 1;
		if (slot.record) this.records.push(slot);
	}

	// A queued slot's value entered the visible top: a prompt window takes it ahead of the order.
	flag(slot: Slot) {
		slot.record = true;
		if (slot.parked) return;
		// Records written by ordinary windows meanwhile go first, so the list holds only what waits.
		while (this.recordHead < this.records.size() && this.gone(this.records[this.recordHead])) this.recordHead += 1;
		if (this.recordHead > 64 && this.recordHead * 2 > this.records.size()) {
			this.records = this.records.filter((_, i) => i >= this.recordHead);
			this.recordHead = 0;
		}
		this.records.push(slot);
	}

	// The slot is no longer queued where a prompt window could take it.
	private gone(slot: Slot): boolean {
		return slot.taken === true || slot.parked === true || this.stores.get(slot.store)?.get(slot.key) !== slot;
	}

	// Records a prompt window may find (some may have gone since they were flagged). O(1).
	recordsWaiting(): number {
		return this.records.size() - this.recordHead;
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
			this.join(slot);
			return;
		}
		slots.delete(key);
		if (slots !== this.slots && slots.isEmpty()) this.stores.delete(store);
	}

	dequeue(): Slot | undefined {
		while (this.count > 0) {
			const slot = this.order[this.head];
			this.head += 1;
			// A prompt window took it already (and counted it).
			if (slot.taken) continue;
			this.count -= 1;
			return this.checkout(slot);
		}
		return undefined;
	}

	// The oldest record still queued, ahead of the arrival order (a prompt window's).
	dequeueRecord(): Slot | undefined {
		while (this.recordHead < this.records.size()) {
			const slot = this.records[this.recordHead];
			this.recordHead += 1;
			if (this.gone(slot)) continue;
			slot.taken = true;
			this.count -= 1;
			return this.checkout(slot);
		}
		// Every ordinary take asks first: the list is renewed only when it held something.
		if (this.recordHead > 0) {
			this.records = [];
			this.recordHead = 0;
		}
		return undefined;
	}

	// A slot leaves the queue for a write: its key is out until the write settles.
	private checkout(slot: Slot): Slot {
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
