import { Logger } from "../../kernel";
import {
	PendingWrite,
	QueueStage,
	StageContext,
	Stats,
	Subject,
	Topics,
	keepOf,
	refuseKey,
	refuseValue,
	resolveKey,
} from "./types";

const log = Logger.scope("Leaderboards");

interface Slot {
	value: number;
	failures: number;
}

// One board's pending values: a slot per key, and the keys in arrival order.
class BoardQueue {
	readonly slots = new Map<string, Slot>();
	order = new Array<string>();
	head = 0;
	count = 0;

	constructor(
		readonly keepBest: boolean,
		readonly ascending: boolean,
	) {}

	enqueue(key: string, slot: Slot) {
		this.slots.set(key, slot);
		this.order.push(key);
		this.count += 1;
	}

	dequeue(): string | undefined {
		if (this.count === 0) return undefined;
		const key = this.order[this.head];
		this.head += 1;
		this.count -= 1;
		// Drop the consumed prefix now and then, so the array does not grow forever.
		if (this.head > 1024 && this.head * 2 > this.order.size()) {
			const rest = new Array<string>(this.count);
			for (let i = this.head; i < this.order.size(); i++) rest.push(this.order[i]);
			this.order = rest;
			this.head = 0;
		}
		return key;
	}
}

/**
 * The submit queue: one pending value per board and key, the best of the
 * submitted ones (or the newest with KeepBest = false). submit is O(1) and
 * allocates only for a key not yet pending. Keys leave in arrival order, one
 * per take(), so a window never walks the whole queue.
 */
export class Queue implements QueueStage {
	readonly Name = "Leaderboards.Queue";
	private readonly boards = new Map<string, BoardQueue>();
	private readonly warned = new Set<string>();
	private readonly stats: Stats;
	private readonly integersOnly: boolean;
	private readonly maxKeyLength?: number;
	private total = 0;
	private closed = false;

	constructor(private readonly context: StageContext) {
		for (const [name, board] of context.settings.boards) {
			this.boards.set(name, new BoardQueue(board.KeepBest, board.Ascending));
		}
		this.stats = context.stats;
		this.integersOnly = context.settings.backend.integers === true;
		this.maxKeyLength = context.settings.backend.maxKeyLength;
	}

	submit(board: string, subject: Subject, value: unknown): boolean {
		if (this.closed) return false;
		const queue = this.boards.get(board);
		if (!queue) return false;
		const refusal = refuseValue(value, this.integersOnly);
		if (refusal !== undefined) {
			if (refusal === "fractional")
				this.warnOnce(board, refusal, "the store holds integers only: scale fractions (times in milliseconds)");
			return false;
		}
		const key = resolveKey(subject);
		const slot = queue.slots.get(key);
		if (slot) {
			slot.value = keepOf(slot.value, value as number, queue.keepBest, queue.ascending);
		} else {
			// Checked once, when the key first queues.
			const keyRefusal = refuseKey(key, this.maxKeyLength);
			if (keyRefusal !== undefined) {
				this.warnOnce(board, keyRefusal, "the store cannot hold such a key");
				return false;
			}
			queue.enqueue(key, { value: value as number, failures: 0 });
			this.added();
		}
		this.stats.Submitted += 1;
		return true;
	}

	pending(): number {
		return this.total;
	}

	pendingOn(board: string): number {
		return this.boards.get(board)?.count ?? 0;
	}

	take(board: string): PendingWrite | undefined {
		const queue = this.boards.get(board);
		const key = queue?.dequeue();
		if (queue === undefined || key === undefined) return undefined;
		const slot = queue.slots.get(key)!;
		queue.slots.delete(key);
		this.total -= 1;
		return { Board: board, Key: key, Value: slot.value, Failures: slot.failures };
	}

	restore(write: PendingWrite, draining: boolean): boolean {
		const queue = this.boards.get(write.Board);
		if (!queue) return false;
		const failures = write.Failures + 1;
		if (!draining && failures >= this.context.settings.MaxWriteAttempts) {
			this.stats.Dropped += 1;
			log.warn(
				`dropped ${write.Board} ${write.Key} = ${write.Value} after ${failures} failed write windows (MaxWriteAttempts)`,
			);
			this.context.kernel.Bus.publish(Topics.Dropped, write.Board, write.Key, write.Value);
			return true;
		}
		const newer = queue.slots.get(write.Key);
		if (newer) {
			newer.value = keepOf(write.Value, newer.value, queue.keepBest, queue.ascending);
			newer.failures = failures;
		} else {
			queue.enqueue(write.Key, { value: write.Value, failures });
			this.added();
		}
		return false;
	}

	close() {
		this.closed = true;
	}

	private added() {
		this.total += 1;
		if (this.total === 1) this.context.kernel.Bus.publish(Topics.Pending);
	}

	private warnOnce(board: string, reason: string, why: string) {
		// reason first: it never holds a ":" (and "\0" would cut an interpolated string short).
		const id = `${reason}:${board}`;
		if (this.warned.has(id)) return;
		this.warned.add(id);
		log.warn(`${board}: submit refused, ${reason} (${why}); this warning shows once per board`);
	}
}
