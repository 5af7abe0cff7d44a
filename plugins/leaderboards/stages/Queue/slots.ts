import { PendingWrite } from "../../contracts";

// A queued slot as BoardQueue keeps it and as it leaves for a write.

/** What a slot holds besides its key, storage name and value: kept only for the few slots that need it. */
export interface SlotState {
	failures: number;
	/** remove(): "only" (value unused) or "first" (then value is written). */
	remove?: "only" | "first";
	/** Waiting, out of the arrival order, for its key's write to return. */
	parked?: boolean;
	/** A write given up on (past RequestSeconds) that went back into this slot: its late success is applied here. */
	echo?: PendingWrite;
	/** The value entered the board's visible top: written by a prompt window, its landing announced. */
	record?: boolean;
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
