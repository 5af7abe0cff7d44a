import { Backend, PendingWrite } from "../../contracts";
import { ruleOf, updaterFor } from "../../core";
import { MAX_EXPIRATION, MemoryParts, clocked } from "./parts";

type Transform = (old: unknown) => LuaTuple<[number, number]> | undefined;
type Updatable = {
	UpdateAsync(this: MemoryStoreSortedMap, key: string, transform: Transform, expiration: number): unknown;
};

// One UpdateAsync on the key's shard; a paused shard is not asked (the value waits in the queue).
function update(parts: MemoryParts, board: string, key: string, transform: Transform, lifetime: number): boolean {
	const { shards, quota } = parts;
	const shard = shards.shardOf(key);
	if (shards.isPaused(shard)) return false;
	const map = shards.of(board)[shard] as unknown as Updatable & MemoryStoreSortedMap;
	quota.spendWrite();
	const [ok, result] = pcall(() => map.UpdateAsync(key, transform, lifetime));
	shards.outcome(shard, ok, result);
	if (!ok) error(result, 0);
	return true;
}

// A Sum board's write: the item carries the total and the ledger that makes it exactly once.
function sum(
	parts: MemoryParts,
	board: string,
	key: string,
	value: number,
	lifetime: number,
	write?: PendingWrite,
	limit?: number,
) {
	const [item, attempt] = parts.ledger.begin(board, key, value, write, limit);
	const sent = update(
		parts,
		board,
		key,
		(old) => {
			const summed = item(old);
			if (!summed) return undefined;
			if (write) write.Stored = summed.Total;
			return $tuple(summed as unknown as number, summed.Total);
		},
		lifetime,
	);
	// Settled unless the Flusher gave up on it (its value is retried); later attempts stay in doubt.
	if (sent && write?.Superseded !== true) parts.ledger.settle(board, key, attempt);
	return sent;
}

/** The MemoryStore backend's writes: submit (keep-best, newest, sums), remove, and the write budget. */
export function memoryWrites(parts: MemoryParts): Pick<Backend, "submit" | "remove" | "removeBudget" | "budget"> {
	const { shards, quota } = parts;
	return {
		submit: (board, key, value, keepBest, ascending, isSum, write) => {
			clocked(parts, write);
			// A period's items live until the period ends plus the board's Retention (45 days at most).
			const lifetime =
				write?.Lifetime !== undefined
					? math.clamp(math.ceil(write.Lifetime), 1, MAX_EXPIRATION)
					: parts.expiration;
			// The rule as data on the write record; a call made the design document's way names it by its flags.
			const rule = write?.Rule ?? ruleOf(keepBest, ascending, isSum);
			if (rule.Kind === "Sum") return sum(parts, board, key, value, lifetime, write, rule.Limit);
			const updater = updaterFor(value, rule, write);
			return update(
				parts,
				board,
				key,
				(old) => {
					const better = updater(typeIs(old, "number") ? old : undefined);
					if (better === undefined) return undefined;
					return $tuple(better, better);
				},
				lifetime,
			);
		},

		remove: (board, key, call) => {
			clocked(parts, call);
			const shard = shards.shardOf(key);
			// Refused, not sent past this server's share: retried when the quota refills.
			if (shards.isPaused(shard) || quota.writable() < 1) return false;
			quota.spendWrite();
			const [ok, message] = pcall(() => shards.of(board)[shard].RemoveAsync(key));
			shards.outcome(shard, ok, message);
			if (!ok) error(message, 0);
			return true;
		},

		budget: (call) => {
			clocked(parts, call);
			return (math.floor(quota.writable()) * shards.open()) / shards.count;
		},

		removeBudget: (call) => {
			clocked(parts, call);
			return math.floor(quota.writable());
		},
	};
}
