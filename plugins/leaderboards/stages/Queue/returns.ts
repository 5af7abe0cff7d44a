import { Board, PendingWrite } from "../../contracts";
import { storeOf } from "../../core";
import { BoardQueue, Slot } from "./BoardQueue";

// What a write brings back to its board's queue: a failed value (restore) and a settled request (settle).

// A failed write's value goes back, merged into what was submitted since; true when it queued a new slot.
export function restoreInto(queue: BoardQueue, store: string, write: PendingWrite, failures: number): boolean {
	const rule = queue.board.Rule;
	const newer = queue.stores.get(store)?.get(write.Key);
	if (!newer) {
		queue.enqueue({
			store,
			key: write.Key,
			until: write.PeriodEnd,
			value: write.Value,
			failures,
			remove: write.Remove,
			echo: write,
			record: write.Record,
		});
		return true;
	}
	// A removal queued since this write was taken supersedes it.
	if (newer.remove) return false;
	if (write.Remove) {
		// What was submitted since is written after the removal, merged with what came before.
		if (write.Remove === "first") newer.value = rule.merge(write.Value, newer.value);
		newer.remove = "first";
	} else newer.value = rule.merge(write.Value, newer.value);
	newer.failures = failures;
	newer.echo = write;
	if (write.Record) newer.record = true;
	return false;
}

// The write's request returned (or was given up on): its key is released; true when its slot went
// because a late success left nothing to write.
export function settleIn(queue: BoardQueue, write: PendingWrite, landed: boolean): boolean {
	const store = storeOf(write);
	const slot = queue.stores.get(store)?.get(write.Key);
	const drop = landed && slot?.echo === write && landedOver(queue.board, slot, write);
	queue.release(store, write.Key, drop);
	return drop;
}

// Applies a late success to the slot it went back into; true when nothing is left to write.
function landedOver(board: Board, slot: Slot, write: PendingWrite): boolean {
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
