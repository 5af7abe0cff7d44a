import { BoardQueue, Slot } from "./BoardQueue";

/**
 * Drops every slot of `key` on one board, in every period (erase()): parked ones and those in the
 * arrival order, which is rebuilt without them (O(queued), and erasures are rare). Returns how many.
 */
export function dropKey(queue: BoardQueue, key: string): number {
	const dropped = new Set<Slot>();
	for (const [store, slots] of queue.stores) {
		const slot = slots.get(key);
		if (!slot) continue;
		slots.delete(key);
		dropped.add(slot);
		if (slot.parked) queue.parked -= 1;
		if (slots !== queue.slots && slots.isEmpty()) queue.stores.delete(store);
	}
	if (dropped.isEmpty()) return 0;
	const kept = new Array<Slot>();
	for (let i = queue.head; i < queue.order.size(); i++) {
		const slot = queue.order[i];
		// A slot a prompt window took is out already: queue.count does not count it.
		if (!dropped.has(slot) && !slot.taken) kept.push(slot);
	}
	queue.order = kept;
	queue.head = 0;
	queue.count = kept.size();
	return dropped.size();
}
