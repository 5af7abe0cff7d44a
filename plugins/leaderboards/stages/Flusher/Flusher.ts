import { Logger, Priority, sleep, within } from "../../../../kernel";
import {
	DrainLimits,
	FlusherStage,
	PendingWrite,
	StageContext,
	Topics,
	WindowSummary,
	writeThrough,
	storeOf,
} from "../../types";

const log = Logger.scope("Leaderboards");

/** Under a backlog the request budget held back, the next window comes this long (at most FlushSeconds) after the last. */
export const REFILL_SECONDS = 1;

// A write whose backend call has not returned. `thread` runs the call: a backend
// that calls destroy() from it must not wait on itself. `held`: past
// RequestSeconds, what went back to the queue, until the write returns or the
// hold ends.
interface Flight {
	thread?: thread;
	held?: { write: PendingWrite; restored: PendingWrite; timer: Promise<void> };
}

/**
 * Flush windows. The first pending submit arms one Background deadline
 * FlushSeconds later; it fires a window on its own thread, off the scheduler
 * step, because writes yield. A round is the windows that give every key
 * queued when it began one write: after a window, work left behind (more than
 * the window could take, and nothing failed) brings the round's next window as
 * soon as the budget allows, at once when WritesPerFlush was the cap,
 * REFILL_SECONDS later when the request budget was. Anything else, a round
 * done included, waits FlushSeconds: a key is written at most once a round, an
 * idle server runs no windows, and failures back off.
 *
 * A window takes min(WritesPerFlush, the backend's budget()) writes and walks the
 * boards in name order, resuming after the board it wrote last, one key per
 * board per turn and one attempt per key: it takes at most the keys a board had
 * queued when it began. Up to WritesInFlight writes overlap, each key's value
 * detached before its write (a submit during the write waits for a later
 * window), each write on its own thread with a RequestSeconds deadline: past it
 * the write counts as failed and its value goes back to the queue while the
 * request may still land; the queue does not hand the key out again until the
 * request returns (settle) or, RequestSeconds later, the write is given up on
 * (Superseded: a transform of it that runs after writes nothing). No window
 * is armed for held keys alone: releasing one arms the next. The window ends
 * when every write it started has resolved. Cost: O(budget x boards).
 */
export class Flusher implements FlusherStage {
	readonly Name = "Leaderboards.Flusher";
	// The armed window: a cancellable Promise on a Background Scheduler deadline.
	private armedWindow?: Promise<void>;
	private running = false;
	private disarmed = false;
	private lastBoard = -1;
	// Whether the last window left behind keys it had no budget for.
	private leftBehind = false;
	// Writes left in this round (keys queued when it began), and whether the
	// window about to run was armed early, continuing the round.
	private roundLeft = 0;
	private continuing = false;
	// Writes whose backend call has not returned; `unreturned` counts those not given up on (Set.size() walks).
	private readonly flights = new Set<Flight>();
	private unreturned = 0;
	// Writes in flight: started and neither returned nor past RequestSeconds.
	private flying = 0;
	// Resolves when `flying` drops to 0.
	private allLanded?: Promise<void>;
	private land?: () => void;

	constructor(private readonly context: StageContext) {
		context.kernel.Bus.subscribe(Topics.Pending, () => this.arm(context.settings.FlushSeconds));
	}

	armed(): boolean {
		return this.armedWindow !== undefined;
	}

	flushNow(): WindowSummary | undefined {
		if (this.running) return undefined;
		return this.runWindow();
	}

	disarm() {
		this.disarmed = true;
		this.armedWindow?.cancel();
		this.armedWindow = undefined;
		// A drain is the last chance to write a held key: no more waiting on its late request.
		for (const flight of this.flights) this.giveUp(flight);
	}

	inFlight(): number {
		return this.flying;
	}

	unresolved(): number {
		return this.unreturned;
	}

	landed(): Promise<void> {
		return this.allLanded ?? Promise.resolve();
	}

	isWriting(thread: thread): boolean {
		for (const flight of this.flights) if (flight.thread === thread) return true;
		return false;
	}

	runWindow(drain?: DrainLimits): WindowSummary {
		if (drain) return this.window(drain);
		this.running = true;
		let summary: WindowSummary | undefined;
		const continuing = this.continuing;
		this.continuing = false;
		if (!continuing) this.roundLeft = this.context.stages.Queue.pending();
		// A window that errors (a custom backend's budget() throwing) must not wedge the loop.
		try {
			// A round's later windows take no more than its keys still due.
			summary = this.window(undefined, continuing ? this.roundLeft : math.huge);
			return summary;
		} finally {
			this.running = false;
			if (this.due()) this.arm(this.pace(summary));
		}
	}

	// Something is queued that a window could take (not only keys waiting on a late write).
	private due(): boolean {
		const queue = this.context.stages.Queue;
		return queue.pending() > queue.waiting();
	}

	private window(drain?: DrainLimits, limit = math.huge): WindowSummary {
		const { settings, stages, kernel } = this.context;
		const names = settings.boardNames;
		const boardCount = names.size();
		const budget = math.min(this.budget(), limit);
		const slots = math.min(settings.WritesInFlight, budget);
		// One attempt per key: a board gives at most what it had queued now and
		// could take (a key waiting on a late write would be a failed key's second turn).
		const allowance = names.map((board) => stages.Queue.pendingOn(board) - stages.Queue.waiting(board));
		const tally = { written: 0, failed: 0, flying: 0 };
		let wake: (() => void) | undefined;
		const resolved = (ok: boolean) => {
			if (ok) tally.written += 1;
			else tally.failed += 1;
			tally.flying -= 1;
			wake?.();
		};
		let attempted = 0;
		let index = (this.lastBoard + 1) % boardCount;
		let idle = 0;
		for (;;) {
			while (tally.flying < slots && attempted < budget && idle < boardCount) {
				if (drain ? kernel.Scheduler.now() >= drain.deadline : this.disarmed) break;
				const write = allowance[index] > 0 ? stages.Queue.take(names[index]) : undefined;
				if (write) {
					idle = 0;
					allowance[index] -= 1;
					attempted += 1;
					tally.flying += 1;
					this.lastBoard = index;
					this.launch(write, drain !== undefined, resolved);
				} else {
					allowance[index] = 0;
					idle += 1;
				}
				index = (index + 1) % boardCount;
			}
			if (tally.flying === 0) break;
			// Wait until a write resolves: its slot takes the next key.
			new Promise<void>((resolve) => (wake = resolve)).await();
			wake = undefined;
		}
		this.leftBehind = allowance.some((count) => count > 0);
		const summary: WindowSummary = {
			Attempted: attempted,
			Written: tally.written,
			Failed: tally.failed,
			Budget: budget,
		};
		kernel.Bus.publish(Topics.Flushed, summary);
		return summary;
	}

	// The window's write cap: WritesPerFlush, capped by the backend's budget.
	private budget(): number {
		const { WritesPerFlush, store } = this.context.settings;
		const available = store.budget();
		const budget = available === undefined ? WritesPerFlush : math.min(WritesPerFlush, available);
		return math.max(0, math.floor(budget));
	}

	// Seconds to the next window after `summary`: FlushSeconds unless a backlog
	// remains in this round that nothing failed on; then as soon as the budget allows.
	private pace(summary?: WindowSummary): number {
		const { FlushSeconds, WritesPerFlush } = this.context.settings;
		if (summary) this.roundLeft -= summary.Attempted;
		if (!summary || !this.leftBehind || summary.Failed > 0 || this.roundLeft <= 0) return FlushSeconds;
		const capped = summary.Budget > 0 && summary.Budget >= math.floor(WritesPerFlush);
		return capped ? 0 : math.min(FlushSeconds, REFILL_SECONDS);
	}

	private arm(seconds: number) {
		const { settings, kernel } = this.context;
		if (settings.skipLoop || this.disarmed || this.armedWindow || this.running) return;
		this.armedWindow = sleep(kernel.Scheduler, seconds, Priority.Background).andThen(() => {
			this.armedWindow = undefined;
			task.spawn(() => {
				if (this.running) return;
				this.continuing = seconds < settings.FlushSeconds;
				this.runWindow();
			});
		});
	}

	// Starts one write on its own thread; `resolved` hears whether it succeeded,
	// once it returned or passed RequestSeconds.
	private launch(write: PendingWrite, draining: boolean, resolved: (ok: boolean) => void) {
		const { settings, stats, stages, kernel } = this.context;
		const board = settings.boards.get(write.Board)!;
		// Counted before the backend runs: a backend that calls destroy() from its
		// write must find this write in flight.
		const flight: Flight = {};
		this.flights.add(flight);
		this.unreturned += 1;
		this.flying += 1;
		if (this.flying === 1) this.allLanded = new Promise<void>((resolve) => (this.land = resolve));
		let removed = false;
		task.spawn(() => {
			const outcome = within(kernel.Scheduler, settings.RequestSeconds, () => {
				flight.thread = coroutine.running();
				const [ok, result] = pcall(() => {
					// remove(): the stored value goes first, then what was submitted after it.
					if (write.Remove) {
						if (settings.store.remove(storeOf(write), write.Key) !== true) return false;
						removed = true;
						kernel.Bus.publish(Topics.Removed, write.Board, write.Key);
						if (write.Remove === "only") return true;
					}
					return writeThrough(settings.store, board, write);
				});
				this.flights.delete(flight);
				if (!ok) log.debug(`write ${storeOf(write)} ${write.Key} errored: ${result}`);
				const landed = ok && result === true;
				const held = flight.held;
				// Given up on, it counts nowhere: what it carried went back to the queue then.
				if (!write.Superseded) this.unreturned -= 1;
				if (held) {
					flight.held = undefined;
					held.timer.cancel();
					// Counted failed at its deadline; a late success counts in Written too.
					if (landed) stats.Written += 1;
					stages.Queue.settle(held.restored, landed);
					this.resume();
				}
				return landed;
			});
			const succeeded = outcome.value === true;
			// The value is back in the queue before the write stops counting as in
			// flight, so a drain never sees it in neither.
			try {
				if (succeeded) stats.Written += 1;
				else {
					stats.Failed += 1;
					// A removal that landed is not repeated: only the value after it is retried.
					const restored = removed ? { ...write, Remove: undefined } : write;
					stages.Queue.restore(restored, draining);
					if (outcome.settled) stages.Queue.settle(restored, false);
					else this.hold(flight, write, restored);
				}
				if (succeeded) stages.Queue.settle(write, true);
			} finally {
				this.flying -= 1;
				if (this.flying === 0) this.land?.();
				resolved(succeeded);
			}
		});
	}

	// A write past RequestSeconds: its key waits RequestSeconds more for the
	// answer (applied exactly by settle), then is given up on; in a drain, at once.
	private hold(flight: Flight, write: PendingWrite, restored: PendingWrite) {
		const { kernel, settings } = this.context;
		log.debug(
			`write ${storeOf(write)} ${write.Key} passed RequestSeconds: counted failed, retried once it returns or in ${settings.RequestSeconds} s`,
		);
		const timer = sleep(kernel.Scheduler, settings.RequestSeconds, Priority.Background);
		flight.held = { write, restored, timer };
		timer.andThen(() => this.giveUp(flight));
		if (this.disarmed) this.giveUp(flight);
	}

	// Stops waiting on a held write: a transform of it that runs from now on
	// writes nothing, and its key is written again by a later window.
	private giveUp(flight: Flight) {
		const held = flight.held;
		if (!held) return;
		flight.held = undefined;
		held.timer.cancel();
		held.write.Superseded = true;
		this.unreturned -= 1;
		this.context.stages.Queue.settle(held.restored, false);
		this.resume();
	}

	// A key was released: a window comes FlushSeconds later if none is due.
	private resume() {
		if (this.due()) this.arm(this.context.settings.FlushSeconds);
	}
}
