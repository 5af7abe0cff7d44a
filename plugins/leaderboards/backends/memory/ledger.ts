import { HttpService } from "@rbxts/services";
import { PendingWrite } from "../../contracts";
import { sumOf } from "../../core";

/** Servers a sum item remembers the last write of (newest first): the exactly-once ledger's bound. */
export const WRITERS_KEPT = 32;

/** A Sum board's item: the total (also the sort key) and the last write id of each recent server. */
interface SumItem {
	Total: number;
	Writers: Array<[server: string, write: string]>;
}

/**
 * A sum write's transform, pure: adds delta to the stored total, minus what an
 * earlier attempt of the same value already added. `doubted` holds this
 * server's attempts whose outcome is unknown (failed, perhaps landed), oldest
 * first, each carrying all before it (a failed sum goes back merged into the
 * next); the item says which of them landed last, so only the rest is added.
 * Write ids grow on each server: an attempt that lands after a later one of the
 * same server (it outlived its RequestSeconds) is already in that later one, so
 * it writes nothing (undefined).
 */
export function sumItem(
	old: unknown,
	delta: number,
	doubted: ReadonlyArray<[write: string, delta: number]>,
	server: string,
	write: string,
	limit?: number,
): SumItem | undefined {
	const item = typeIs(old, "table") ? (old as SumItem) : undefined;
	const total = item ? item.Total : typeIs(old, "number") ? old : 0;
	const writers = item?.Writers ?? [];
	let last: string | undefined;
	for (const [who, id] of writers) if (who === server) last = id;
	if (last !== undefined && (tonumber(last) ?? 0) > (tonumber(write) ?? 0)) return undefined;
	let counted = 0;
	for (const [id, carried] of doubted) if (id === last) counted = carried;
	const kept: Array<[string, string]> = [[server, write]];
	for (const entry of writers) if (entry[0] !== server && kept.size() < WRITERS_KEPT) kept.push(entry);
	return { Total: sumOf(total, delta - counted, limit), Writers: kept };
}

type Attempt = [write: string, delta: number];

/**
 * This server's side of the exactly-once ledger: its name in sum items, its
 * write counter, and its sum attempts in doubt per map and key, from their
 * start until one succeeds that the Flusher did not give up on (it carried
 * every earlier attempt), or a fresh value comes (one a failure never went back into).
 */
export class Ledger {
	private readonly server = HttpService.GenerateGUID(false);
	private writes = 0;
	private readonly doubts = new Map<string, Map<string, Attempt[]>>();

	/**
	 * Starts an attempt of `delta` on board and key: its transform (the item, or undefined for no write), and its
	 * id. Totals stop at ±limit (the rule's: 2^53, or the largest double on a Big board).
	 */
	begin(
		board: string,
		key: string,
		delta: number,
		write?: PendingWrite,
		limit?: number,
	): LuaTuple<[(old: unknown) => SumItem | undefined, number]> {
		const inDoubt = this.doubts.get(board) ?? new Map<string, Attempt[]>();
		this.doubts.set(board, inDoubt);
		if (write === undefined || write.Failures === 0) inDoubt.delete(key);
		const doubted = inDoubt.get(key) ?? [];
		this.writes += 1;
		const id = `${this.writes}`;
		// In doubt from the start: one the Flusher gives up on may land after a later attempt began.
		inDoubt.set(key, [...doubted, [id, delta]]);
		const server = this.server;
		return $tuple((old: unknown) => sumItem(old, delta, doubted, server, id, limit), this.writes);
	}

	/** Attempt `mine` succeeded and was not given up on: it and every earlier one are settled. */
	settle(board: string, key: string, mine: number) {
		const inDoubt = this.doubts.get(board);
		if (!inDoubt) return;
		const later = (inDoubt.get(key) ?? []).filter(([id]) => tonumber(id)! > mine);
		if (later.isEmpty()) inDoubt.delete(key);
		else inDoubt.set(key, later);
		if (inDoubt.isEmpty()) this.doubts.delete(board);
	}
}
