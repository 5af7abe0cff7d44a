import { PendingWrite } from "../../contracts";

// A queued slot as BoardQueue keeps it and as it leaves for a write.

/** What a slot holds besides its key, storage name and value: kept only for the few slots that need it. */
export interface SlotState {
	failures: number;
	/** remove(): "only" (value unused) or "first" (then value is written). Changed by SlotStates.removeAs alone. */
	readonly remove?: "only" | "first";
	/** Waiting, out of the arrival order, for its key's write to return. */
	parked?: boolean;
	/** A write given up on (past RequestSeconds) that went back into this slot: its late success is applied here. */
	echo?: PendingWrite;
	/** The value entered the board's visible top: written by a prompt window, its landing announced. */
	record?: boolean;
}

/** The map kept for a storage name (a board's pending keys' seqs or values), made when it is first needed. */
export function mapIn(maps: Map<string, Map<string, number>>, store: string): Map<string, number> {
	let map = maps.get(store);
	if (!map) {
		map = new Map();
		maps.set(store, map);
	}
	return map;
}

/** A slot as it leaves the queue for a write. */
export interface TakenSlot {
	readonly store: string;
	readonly key: string;
	readonly value: number;
	/** When the slot's period ends (Unix seconds); undefined on an all-time board. */
	readonly until?: number;
	readonly failures: number;
	readonly remove?: "only" | "first";
	readonly record?: boolean;
}

/**
 * The slots' states by seq, counting those that hold only a removal: a submit to such a slot is written
 * after the removal instead of being kept by comparison, so while one is pending the board's submits take
 * the checked path (BoardQueue.direct). A state's removal changes through removeAs alone.
 */
export class SlotStates {
	private readonly bySeq = new Map<number, SlotState>();
	private removals = 0;

	/** `onRemoving` is called each time removing() changes. */
	constructor(private readonly onRemoving: () => void) {}

	/** Whether a slot holds only a removal. */
	removing(): boolean {
		return this.removals > 0;
	}

	get(seq: number): SlotState | undefined {
		return this.bySeq.get(seq);
	}

	/** The state of a slot, made when it first needs one. */
	of(seq: number): SlotState {
		let state = this.bySeq.get(seq);
		if (!state) {
			state = { failures: 0 };
			this.bySeq.set(seq, state);
		}
		return state;
	}

	set(seq: number, state: SlotState) {
		this.bySeq.set(seq, state);
		if (state.remove === "only") this.count(1);
	}

	/** A slot's state moves with it to its new seq. */
	move(from: number, to: number) {
		const state = this.bySeq.get(from);
		if (!state) return;
		this.bySeq.delete(from);
		this.bySeq.set(to, state);
	}

	delete(seq: number) {
		const state = this.bySeq.get(seq);
		if (!state) return;
		this.bySeq.delete(seq);
		if (state.remove === "only") this.count(-1);
	}

	/** Sets a slot's removal: "only" (its value unused), "first" (its value written after it) or none. */
	removeAs(state: SlotState, remove: SlotState["remove"]) {
		const change = (remove === "only" ? 1 : 0) - (state.remove === "only" ? 1 : 0);
		(state as { remove?: SlotState["remove"] }).remove = remove;
		if (change !== 0) this.count(change);
	}

	private count(change: number) {
		const before = this.removing();
		this.removals += change;
		if (this.removing() !== before) this.onRemoving();
	}
}
