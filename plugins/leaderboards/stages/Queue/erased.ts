import { BoardQueue } from "./BoardQueue";

/** Drops every slot of `key` on one board, in every period (erase()): parked ones and those in the arrival order. Returns how many. */
export function dropKey(queue: BoardQueue, key: string): number {
	let dropped = 0;
	const stores = new Array<string>();
	for (const [store] of queue.stores) stores.push(store);
	for (const store of stores) if (queue.drop(store, key) !== undefined) dropped += 1;
	return dropped;
}
