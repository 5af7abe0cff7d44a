import { PendingWrite } from "./backend";
import { ErasureReport } from "./durable";
import { Entry, ShutdownResult, WindowSummary } from "./entries";
import { Visible } from "./visible";

/** ShutdownResult.Error when the drain ran out of ShutdownSeconds, carried by Leaderboard.Drained. */
export const DEADLINE_EXCEEDED = "leaderboard shutdown deadline exceeded";
/** ShutdownResult.Error when a drain's windows in a row wrote nothing to a store that accepts nothing. */
export const NO_PROGRESS = "leaderboard shutdown flush made no progress";

/** Bus topics. Updated is the public one; the others tell the stages' story to games, specs and the demo. */
export const Topics = {
	/** (name, entries, period): a top() read refreshed the cache from the backend; period is the period id, nil on an all-time board. Failed reads publish nothing. */
	Updated: "Leaderboard.Updated",
	/** (): the queue went from empty to pending; the Flusher arms a window. */
	Pending: "Leaderboard.Pending",
	/** (summary: WindowSummary): a flush window finished. */
	Flushed: "Leaderboard.Flushed",
	/** (board, key): a remove() landed in the store. */
	Removed: "Leaderboard.Removed",
	/** (board, key): remove() queued a removal: the Reader drops the key from the current period's cached page. */
	Removing: "Leaderboard.Removing",
	/** (write, landed): a write's backend call returned (landed: it succeeded) or the Flusher gave up on it: the Queue may hand its key out again (settle). */
	Settled: "Leaderboard.Settled",
	/** (write, draining): a write failed: the Queue takes its value back, or drops it at MaxWriteAttempts (never while draining). */
	WriteFailed: "Leaderboard.WriteFailed",
	/** (key): an erasure blocks a key here: the Queue drops its values, the Reader and NameResolver what they cached of it. */
	Erasing: "Leaderboard.Erasing",
	/**
	 * (board, period, key, value, sent): another server announced a record (sent at Unix seconds; a keep-best
	 * record, announced as its write was sent, RequestSeconds later: by then its write landed or counts as
	 * failed): the Reader patches it into a page read before `sent`.
	 */
	Heard: "Leaderboard.Heard",
	/** (board, storage, visible): a cached page's visible top changed (nil: no page cached); the Queue keeps it to tell, in O(1), a submit that enters it. */
	Visible: "Leaderboard.Visible",
	/** (board): a submit entered the board's visible top; the Flusher arms a prompt window. */
	Prompt: "Leaderboard.Prompt",
	/** (board, key, value, period): the write of a value that entered the visible top was sent; value is what it writes (on a Sum board, what it adds). */
	Recording: "Leaderboard.Recording",
	/** (board, key, value, period): a value that entered the visible top landed; value is what the store holds. */
	Record: "Leaderboard.Record",
	/** (board, key, value): a value was dropped after MaxWriteAttempts failed windows (value nil for a removal). */
	Dropped: "Leaderboard.Dropped",
	/** (): destroy() began draining: the Queue refuses submits, the Flusher disarms, the Reader lets its waiting readers go, timers stop. */
	Draining: "Leaderboard.Draining",
	/** (result: ShutdownResult): the drain ended. */
	Drained: "Leaderboard.Drained",
	/** (board, key, value, reason): a board refused a submit (key nil when the subject had none). */
	Refused: "Leaderboard.Refused",
	/** (key, report: ErasureReport): an erasure finished on this server: the key is in no store any board wrote. */
	Erased: "Leaderboard.Erased",
	/** (board, period, idempotencyKey): an onPeriodEnd handler returned on this server; the period is marked done. */
	PeriodEnded: "Leaderboard.PeriodEnded",
	/** (board, period, problem, attempts): an onPeriodEnd handler errored on this server; it is retried with backoff. */
	PeriodEndFailed: "Leaderboard.PeriodEndFailed",
} as const;

// The public topics' payloads, merged into the kernel's BusTopics: kernel.Bus.subscribe(Topics.Updated,
// (topic, name, entries, period) => ...) is typed, and every publish of them is checked.
declare module "../../../kernel/Bus" {
	interface BusTopics {
		/** A top() read refreshed the cache: the board, its page, the period id read (nil on an all-time board). */
		"Leaderboard.Updated": [board: string, entries: Entry[], period: string | undefined];
		/** The queue went from empty to pending. */
		"Leaderboard.Pending": [];
		/** A flush window finished. */
		"Leaderboard.Flushed": [summary: WindowSummary];
		/** A remove() landed in the store. */
		"Leaderboard.Removed": [board: string, key: string];
		/** remove() queued a removal of the key. */
		"Leaderboard.Removing": [board: string, key: string];
		/** A write's backend call returned (landed: it succeeded) or was given up on. */
		"Leaderboard.Settled": [write: PendingWrite, landed: boolean];
		/** A write failed; draining: destroy() began (nothing is dropped then). */
		"Leaderboard.WriteFailed": [write: PendingWrite, draining: boolean];
		/** An erasure blocks the key on this server. */
		"Leaderboard.Erasing": [key: string];
		/** Another server announced a record: the board, its period id (nil on an all-time board), the key, the value, when it was sent (Unix seconds). */
		"Leaderboard.Heard": [board: string, period: string | undefined, key: string, value: number, sent: number];
		/** A cached page's visible top changed: the board, the page's storage name, what it shows first (nil: no page cached). */
		"Leaderboard.Visible": [board: string, storage: string, visible: Visible | undefined];
		/** A submit entered the board's visible top. */
		"Leaderboard.Prompt": [board: string];
		/** The write of a value that entered the visible top was sent: what it writes (on a Sum board, what it adds), and its period. */
		"Leaderboard.Recording": [board: string, key: string, value: number, period: string | undefined];
		/** A value that entered the visible top landed: what the store holds, and its period (nil on an all-time board). */
		"Leaderboard.Record": [board: string, key: string, value: number, period: string | undefined];
		/** A value was dropped after MaxWriteAttempts failed windows (value nil for a removal). */
		"Leaderboard.Dropped": [board: string, key: string, value: number | undefined];
		/** destroy() began draining. */
		"Leaderboard.Draining": [];
		/** The drain ended. */
		"Leaderboard.Drained": [result: ShutdownResult];
		/** A board refused a submit: why, in `reason` ("below MinValue", Validate's own text); key nil when the subject had none. */
		"Leaderboard.Refused": [board: string, key: string | undefined, value: unknown, reason: string];
		/** An erasure finished here: the key is in no store any board wrote. */
		"Leaderboard.Erased": [key: string, report: ErasureReport];
		/** An onPeriodEnd handler returned here; the period is marked done. */
		"Leaderboard.PeriodEnded": [board: string, period: string, idempotencyKey: string];
		/** An onPeriodEnd handler errored here; it is retried with backoff (by any server). */
		"Leaderboard.PeriodEndFailed": [board: string, period: string, problem: string, attempts: number];
	}
}
