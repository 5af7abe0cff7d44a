import { Board, PeriodRule, Visible } from "../../contracts";
import { periodAt } from "../../core";
import { admissionOf } from "./admission";
import { barOf } from "./bar";
import { Bounds } from "./bounds";
import { mapIn, SlotState, SlotStates, TakenSlot } from "./slots";

// A key that left its place in the arrival order (written, dropped, moved): never a storable key.
const LEFT = "";

// One board's pending values: a slot per (storage name, key), in arrival order. A slot is its place
// in that order (its seq): its key and storage name at seq - base in two arrays, its value in its
// storage name's map by key (one lookup a submit), and anything else (failures, a removal, a record)
// in `states`, for the few slots that have any: 126 bytes a queued key (docs/benchmarks.md). A Reset
// board's submits go to the current period's storage name, found again only when the clock leaves
// that period's span. A key whose write has not returned is `out`: its slot waits parked, passed
// over by take(), and moves to the order's end when the write settles.
export class BoardQueue {
	/** Per storage name, each pending key's seq, and its pending value. */
	readonly stores = new Map<string, Map<string, number>>();
	readonly held = new Map<string, Map<string, number>>();
	readonly out = new Map<string, Set<string>>();
	/** When each storage name's period ends (Unix seconds): none on an all-time board. */
	readonly ends = new Map<string, number>();
	/** By seq - base: the slot's key (LEFT once it left) and storage name. */
	keys = new Array<string>();
	storeAt = new Array<string>();
	/** The seq at index 0; seqs below it left. */
	base = 0;
	/** The next seq take() looks at: every slot before it left or is parked. */
	head = 0;
	/** The slots' other state, by seq. */
	readonly states = new SlotStates(() => this.route(this.quick, this.visible));
	// Record seqs in the order they were flagged; some may have gone (written, parked) since.
	records = new Array<number>();
	recordHead = 0;
	// Slots in the order, and parked ones.
	count = 0;
	parked = 0;
	// Where submits go now: a storage name, its maps, the span it holds for (none yet: a Reset board's first submit finds it).
	store!: string;
	slots!: Map<string, number>;
	values!: Map<string, number>;
	from = math.huge;
	until = -math.huge;

	// What submit asks of the board, read once (what it takes at once: admission.ts), and its route now.
	readonly low: number;
	readonly high: number;
	readonly whole: boolean;
	readonly plain: boolean;
	readonly better: number;
	quick = false;
	readonly bounds?: Bounds;
	readonly merge: (held: number, incoming: number) => number;
	readonly period?: PeriodRule;
	/** The current storage name's visible top (Leaderboard.Visible): undefined while no page is cached. */
	visible?: Visible;
	/** The values while submits are direct (quick, all-time, a bar over -inf, no slot holding only a removal). */
	direct: Map<string, number> | false = false;
	/** Under it a direct submit enters no visible top (bar.ts). */
	bar = math.huge;

	constructor(
		readonly board: Board,
		clock: () => number,
	) {
		({
			low: this.low,
			high: this.high,
			whole: this.whole,
			plain: this.plain,
			better: this.better,
		} = admissionOf(board));
		if (Bounds.needed(board)) this.bounds = new Bounds(board, clock);
		this.merge = board.Rule.merge;
		this.period = board.Period;
		// An all-time board's storage name (a Reset board's first submit finds its period's).
		this.use(board.storageFor(undefined));
		this.route(this.plain, undefined);
	}

	// The period's storage name at `now`; a board with nothing pending at the roll does no work until its next submit.
	roll(period: PeriodRule, now: number) {
		const current = periodAt(period, now);
		if (this.slots.isEmpty()) this.forget(this.store);
		this.use(this.board.storageFor(current.Id));
		this.from = current.Start;
		this.until = current.Finish;
	}

	/** Whether submits may skip the checks now (not after close(), nor in an erasure), the visible top (its bar): their route. */
	route(quick: boolean, visible: Visible | undefined) {
		this.quick = quick;
		this.visible = visible;
		this.bar = barOf(this.better, visible);
		this.direct = quick && !this.period && this.bar > -math.huge && !this.states.removing() && this.values;
	}

	// Submits go to `store` now: its slots and values.
	private use(store: string) {
		this.store = store;
		this.slots = mapIn(this.stores, store);
		this.values = mapIn(this.held, store);
	}

	// A storage name with nothing pending goes (the current one's maps stay for the next submit).
	private forget(store: string) {
		this.stores.delete(store);
		this.held.delete(store);
		this.ends.delete(store);
	}

	/** A slot for a key with none pending in `store`, at the order's end (parked while its write is out); its seq. */
	enqueue(store: string, key: string, value: number, periodEnd: number | undefined, state?: SlotState): number {
		const seq = this.place(store, key);
		mapIn(this.stores, store).set(key, seq);
		mapIn(this.held, store).set(key, value);
		if (periodEnd !== undefined) this.ends.set(store, periodEnd);
		if (state) this.states.set(seq, state);
		if (this.out.get(store)?.has(key)) {
			this.states.of(seq).parked = true;
			this.parked += 1;
		} else this.joined(seq, state);
		return seq;
	}

	// A slot's key and storage name at the order's end: its seq.
	private place(store: string, key: string): number {
		const seq = this.base + this.keys.size();
		this.keys.push(key);
		this.storeAt.push(store);
		return seq;
	}

	// A slot joined the arrival order (and, a record, the prompt windows' list).
	private joined(seq: number, state: SlotState | undefined) {
		this.count += 1;
		if (state?.record) this.records.push(seq);
	}

	// A queued slot's value entered the visible top: a prompt window takes it ahead of the order.
	flag(seq: number) {
		const state = this.states.of(seq);
		state.record = true;
		if (state.parked) return;
		// Records written by ordinary windows meanwhile go first, so the list holds only what waits.
		while (this.recordHead < this.records.size() && this.gone(this.records[this.recordHead])) this.recordHead += 1;
		if (this.recordHead > 64 && this.recordHead * 2 > this.records.size()) {
			this.records = this.records.filter((_, i) => i >= this.recordHead);
			this.recordHead = 0;
		}
		this.records.push(seq);
	}

	// The slot is no longer queued where a prompt window could take it (seqs are never reused).
	private gone(seq: number): boolean {
		return seq < this.base || this.keys[seq - this.base] === LEFT || this.states.get(seq)?.parked === true;
	}

	// Records a prompt window may find (some may have gone since they were flagged). O(1).
	recordsWaiting(): number {
		return this.records.size() - this.recordHead;
	}

	// The key's write settled: its parked slot joins the order's end, or goes (`drop`).
	release(store: string, key: string, drop: boolean) {
		const keys = this.out.get(store);
		keys?.delete(key);
		if (keys?.isEmpty()) this.out.delete(store);
		const slots = this.stores.get(store);
		const seq = slots?.get(key);
		const state = seq !== undefined ? this.states.get(seq) : undefined;
		if (!slots || seq === undefined || !state?.parked) return;
		state.parked = undefined;
		state.echo = undefined;
		this.parked -= 1;
		this.leave(seq);
		if (drop) {
			this.unslot(store, slots, key);
			return;
		}
		const moved = this.place(store, key);
		slots.set(key, moved);
		this.states.set(moved, state);
		this.joined(moved, state);
	}

	/** Removes a slot from wherever it is (erase()); true when it was in the order, false when parked. */
	drop(store: string, key: string): boolean | undefined {
		const slots = this.stores.get(store);
		const seq = slots?.get(key);
		if (!slots || seq === undefined) return undefined;
		const parked = this.states.get(seq)?.parked === true;
		if (parked) this.parked -= 1;
		else this.count -= 1;
		this.leave(seq);
		this.unslot(store, slots, key);
		return !parked;
	}

	// A key's slot and value go; a past period's maps go once empty (the current one's stay for the next submit).
	private unslot(store: string, slots: Map<string, number>, key: string) {
		slots.delete(key);
		this.held.get(store)?.delete(key);
		if (slots !== this.slots && slots.isEmpty()) this.forget(store);
	}

	// A seq's slot left its place: its key is LEFT and its state goes.
	private leave(seq: number) {
		this.keys[seq - this.base] = LEFT;
		this.states.delete(seq);
	}

	dequeue(): TakenSlot | undefined {
		while (this.count > 0) {
			const seq = this.head;
			this.head += 1;
			// Written or dropped already, or waiting for its key's write.
			if (this.keys[seq - this.base] === LEFT || this.states.get(seq)?.parked) continue;
			this.count -= 1;
			return this.checkout(seq);
		}
		return undefined;
	}

	// The oldest record still queued, ahead of the arrival order (a prompt window's).
	dequeueRecord(): TakenSlot | undefined {
		while (this.recordHead < this.records.size()) {
			const seq = this.records[this.recordHead];
			this.recordHead += 1;
			if (this.gone(seq)) continue;
			this.count -= 1;
			return this.checkout(seq);
		}
		// Every ordinary take asks first: the list is renewed only when it held something.
		if (this.recordHead > 0) {
			this.records = [];
			this.recordHead = 0;
		}
		return undefined;
	}

	// A slot leaves the queue for a write: its key is out until the write settles.
	private checkout(seq: number): TakenSlot {
		const index = seq - this.base;
		const store = this.storeAt[index];
		const key = this.keys[index];
		const state = this.states.get(seq);
		const slots = this.stores.get(store)!;
		const taken: TakenSlot = {
			store,
			key,
			value: this.held.get(store)!.get(key)!,
			until: this.ends.get(store),
			failures: state?.failures ?? 0,
			remove: state?.remove,
			record: state?.record,
		};
		this.leave(seq);
		let keys = this.out.get(store);
		if (!keys) {
			keys = new Set();
			this.out.set(store, keys);
		}
		keys.add(key);
		this.unslot(store, slots, key);
		// Drop the passed prefix now and then, so the arrays do not grow forever.
		const passed = this.head - this.base;
		if (passed > 1024 && passed * 2 > this.keys.size()) this.compact(passed);
		return taken;
	}

	// The arrays from `passed` on: seqs keep their numbers (base moves), parked slots behind the head move past the end.
	private compact(passed: number) {
		const [keys, storeAt] = [this.keys, this.storeAt];
		const size = keys.size();
		this.keys = new Array<string>(size - passed);
		this.storeAt = new Array<string>(size - passed);
		for (let i = passed; i < size; i++) {
			this.keys.push(keys[i]);
			this.storeAt.push(storeAt[i]);
		}
		const base = this.base;
		this.base = this.head;
		for (let i = 0; i < passed; i++) {
			if (keys[i] === LEFT) continue;
			const moved = this.place(storeAt[i], keys[i]);
			this.stores.get(storeAt[i])!.set(keys[i], moved);
			this.states.move(base + i, moved);
		}
	}
}
