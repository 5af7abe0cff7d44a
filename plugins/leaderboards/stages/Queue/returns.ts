import { Board, PendingWrite } from "../../contracts";
import { storeOf } from "../../core";
import { BoardQueue } from "./BoardQueue";
import { SlotState } from "./slots";

// What a write brings back to its board's queue: a failed value (restore) and a settled request (settle).

// A failed write's value goes back, merged into what was submitted since; true when it queued a new slot.
export function restoreInto(queue: BoardQueue, store: string, write: PendingWrite, failures: number): boolean {
	const rule = queue.board.Rule;
	const seq = queue.stores.get(store)?.get(write.Key);
	if (seq === undefined) {
		const state: SlotState = { failures, remove: write.Remove, echo: write, record: write.Record };
		queue.enqueue(store, write.Key, write.Value, write.PeriodEnd, state);
		return true;
	}
	const newer = queue.states.of(seq);
	// A removal queued since this write was taken supersedes it.
	if (newer.remove) return false;
	const values = queue.held.get(store)!;
	const merged = rule.merge(write.Value, values.get(write.Key)!);
	if (write.Remove) {
		// What was submitted since is written after the removal, merged with what came before.
		if (write.Remove === "first") values.set(write.Key, merged);
		queue.states.removeAs(newer, "first");
	} else values.set(write.Key, merged);
	newer.failures = failures;
	newer.echo = write;
	if (write.Record) newer.record = true;
	return false;
}

// The write's request returned (or was given up on): its key is released; true when its slot went
// because a late success left nothing to write.
export function settleIn(queue: BoardQueue, write: PendingWrite, landed: boolean): boolean {
	const store = storeOf(write);
	const seq = queue.stores.get(store)?.get(write.Key);
	const state = seq !== undefined ? queue.states.get(seq) : undefined;
	const drop = landed && state?.echo === write && landedOver(queue, store, state, write);
	queue.release(store, write.Key, drop);
	return drop;
}

// Applies a late success to the slot it went back into; true when nothing is left to write.
function landedOver(queue: BoardQueue, store: string, slot: SlotState, write: PendingWrite): boolean {
	if (write.Remove) {
		// The removal landed: a slot holding only it is done, one with a value writes just that.
		if (slot.remove === "only") return true;
		queue.states.removeAs(slot, undefined);
		if (write.Remove === "only") return false;
	}
	// The store holds the landed value: the rule says what is left, and whether the store already covers it.
	const board: Board = queue.board;
	const values = queue.held.get(store)!;
	const left = board.Rule.unlanded(values.get(write.Key)!, write.Value);
	values.set(write.Key, left);
	return slot.remove === undefined && board.Rule.covers(write.Value, left);
}
