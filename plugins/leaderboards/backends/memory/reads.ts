import { Backend } from "../../contracts";
import { MemoryParts, clocked } from "./parts";
import { READ_SHARE } from "./quota";
import { RANGE_SIZE } from "./range";

/** The MemoryStore backend's reads: sorted, scores, around, and the read budget, all on the read bucket. */
export function memoryReads(parts: MemoryParts): Pick<Backend, "sorted" | "scores" | "around" | "readBudget"> {
	const { shards, quota, ranges } = parts;
	return {
		sorted: (board, ascending, count, call) => {
			clocked(parts, call);
			if (count < 1) return [];
			// Refused while the read bucket is in debt: the Reader keeps its page and asks a window later.
			if (quota.readable() <= 0) return undefined;
			const [ok, rows] = pcall(() => ranges.top(board, ascending, count));
			return ok ? rows : undefined;
		},

		scores: (board, keys, call) => {
			clocked(parts, call);
			const list = shards.of(board);
			const result = new Map<string, number>();
			let failed = false;
			quota.spendRead(keys.size());
			// Every key's read in flight at once, each a Promise on its own thread; all joined.
			const reads = keys.map(
				(key) =>
					new Promise<void>((resolve) => {
						const shard = shards.shardOf(key);
						const [ok, message] = pcall(() => {
							const [value, sortKey] = list[shard].GetAsync(key);
							if (value !== undefined)
								result.set(key, typeIs(sortKey, "number") ? sortKey : (value as number));
						});
						shards.outcome(shard, ok, message);
						if (!ok) failed = true;
						resolve();
					}),
			);
			Promise.all(reads).await();
			return failed ? undefined : result;
		},

		around: (board, ascending, value, count, key, call) => {
			clocked(parts, call);
			const size = math.clamp(count, 1, RANGE_SIZE);
			// A unit per item returned, at most 2 x size a shard: refused, not sent, while the read
			// bucket holds less (or less than half of it, for a dearer call: it then goes into debt,
			// and top() goes first, needing only a bucket out of debt).
			const cost = 2 * size * shards.count;
			const whole = quota.share();
			if (quota.readable(whole) < math.min(cost, (whole * READ_SHARE) / 2)) return undefined;
			const [ok, range] = pcall(() => ranges.around(board, ascending, value, size, key));
			return ok ? range : undefined;
		},

		readBudget: (call) => {
			clocked(parts, call);
			return math.max(0, math.floor(quota.readable()));
		},
	};
}
