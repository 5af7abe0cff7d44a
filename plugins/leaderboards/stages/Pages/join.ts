import { Scheduler } from "../../../../kernel";
import { heldElsewhere } from "../../core";
import { PageItem, itemOf } from "./item";

/** A server with no page waits for another server's refresh, asking the item this often. */
export const JOIN_POLL_SECONDS = 0.5;

/**
 * Yields. The page another server's refresh writes, for a server that has none (the design document: the
 * first caller starts one read and every concurrent caller waits on it). Asks the item every
 * JOIN_POLL_SECONDS until it holds rows; undefined at `deadline` (the scheduler's clock), when the holder's
 * lease ran out unwritten (the next top() refreshes), when MemoryStore failed, or when `pause` (a wait the
 * stage's close cancels) gives false.
 */
export function joinRefresh(
	map: MemoryStoreHashMap,
	key: string,
	me: string,
	now: () => number,
	scheduler: Scheduler,
	deadline: number,
	pause: (seconds: number) => boolean,
): PageItem | undefined {
	while (scheduler.now() + JOIN_POLL_SECONDS <= deadline) {
		if (!pause(JOIN_POLL_SECONDS)) return undefined;
		const [ok, value] = pcall(() => map.GetAsync(key));
		if (!ok) return undefined;
		const item = itemOf(value);
		if (item && item.size > 0) return item;
		if (!heldElsewhere(item?.lease, me, now())) return undefined;
	}
	return undefined;
}
