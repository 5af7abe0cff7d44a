import { BackendRange, BackendRow } from "../../contracts";
import { Quota } from "./quota";
import { Shards } from "./shards";

/** GetRangeAsync returns at most 200 items a call. */
export const RANGE_SIZE = 200;

/** A sorted map item, and a place in a map's order (exclusive range bounds). */
type Item = { key: string; value: unknown; sortKey?: number | string };
type Bound = { key?: string; sortKey?: number | string };

/** An item's score: its sort key (a Sum item's total), else its value. */
export function scoreOf(item: { value: unknown; sortKey?: number | string }): number {
	return typeIs(item.sortKey, "number") ? item.sortKey : (item.value as number);
}

// The engine's order on a board: by score, ties by key; descending reverses both.
function ranksBefore(a: Item, b: Item, ascending: boolean): boolean {
	return scoreOf(a) !== scoreOf(b) ? ascending === scoreOf(a) < scoreOf(b) : ascending === a.key < b.key;
}

function rowsOf(items: ReadonlyArray<Item>, limit: number): BackendRow[] {
	const rows = new Array<BackendRow>();
	for (const item of items) if (rows.size() < limit) rows.push({ Key: item.key, Value: scoreOf(item) });
	return rows;
}

/**
 * Ranked reads over a board's shards, all through one bounded range read
 * (read): top merges each shard's head, paging with exclusive bounds; around
 * reads each shard's rows on both sides of the subject's place ({ key,
 * sortKey = value }, exclusive, so its ties rank as in top), merged.
 */
export class Ranges {
	constructor(
		private readonly shards: Shards,
		private readonly quota: Quota,
	) {}

	/** Up to `count` rows of the board, best first. Raises what the engine raised. */
	top(board: string, ascending: boolean, count: number): BackendRow[] {
		const list = this.shards.of(board);
		// Each shard holds about count / shards of the head: read a little more than that a page.
		const page = math.min(RANGE_SIZE, count, math.max(10, math.ceil((2 * count) / list.size())));
		const cursors = list.map((map, shard) => this.cursor(map, shard, ascending, page));
		const result = new Array<BackendRow>();
		while (result.size() < count) {
			let best: Item | undefined;
			let from: ReturnType<Ranges["cursor"]> | undefined;
			for (const c of cursors) {
				const item = c.head();
				if (item && (!best || ranksBefore(item, best, ascending))) {
					best = item;
					from = c;
				}
			}
			if (!best) break;
			from!.advance();
			result.push({ Key: best.key, Value: scoreOf(best) });
		}
		return result;
	}

	/** The rows nearest the subject's place on each side, up to `size` each. Raises what the engine raised. */
	around(board: string, ascending: boolean, value: number, size: number, key: string): BackendRange {
		const place = { key, sortKey: value };
		const ahead = new Array<Item>();
		const behind = new Array<Item>();
		// The board's direction reads past the place (behind); the other reads before it (ahead).
		this.shards.of(board).forEach((map, shard) => {
			for (const item of this.read(map, shard, !ascending, size, place)) ahead.push(item);
			for (const item of this.read(map, shard, ascending, size, place)) behind.push(item);
		});
		ahead.sort((a, b) => ranksBefore(b, a, ascending));
		behind.sort((a, b) => ranksBefore(a, b, ascending));
		return { Ahead: rowsOf(ahead, size), Behind: rowsOf(behind, size) };
	}

	// The one range read: up to `size` items going `up` (ascending sort keys) or down from just past
	// `from` (none: the map's end). Its outcome goes to the breaker, its cost (a unit an item, one
	// when empty) to the quota after the fact.
	private read(map: MemoryStoreSortedMap, shard: number, up: boolean, size: number, from?: Bound): Item[] {
		const direction = up ? Enum.SortDirection.Ascending : Enum.SortDirection.Descending;
		const [ok, items] = pcall(() =>
			up ? map.GetRangeAsync(direction, size, from) : map.GetRangeAsync(direction, size, undefined, from),
		);
		this.shards.outcome(shard, ok, items);
		if (!ok) error(items, 0);
		this.quota.spendRead(math.max(1, items.size()));
		return items as Item[];
	}

	// One shard's items in board order, a page at a time.
	private cursor(map: MemoryStoreSortedMap, shard: number, ascending: boolean, page: number) {
		let buffer = new Array<Item>();
		let position = 0;
		let finished = false;
		let bound: Bound | undefined;
		return {
			/** The head item, reading the next page when needed; undefined when the shard is done. */
			head: () => {
				if (position < buffer.size()) return buffer[position];
				if (finished) return undefined;
				buffer = this.read(map, shard, ascending, page, bound);
				position = 0;
				finished = buffer.size() < page;
				const last = buffer[buffer.size() - 1];
				if (last) bound = { key: last.key, sortKey: last.sortKey };
				return buffer[0];
			},
			advance: () => {
				position += 1;
			},
		};
	}
}
