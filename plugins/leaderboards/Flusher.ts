import { Logger, Priority, sleep } from "../../kernel";
import { DrainLimits, FlusherStage, PendingWrite, StageContext, Topics, WindowSummary, updaterFor } from "./types";

const log = Logger.scope("Leaderboards");

/**
 * Flush windows. The first pending submit arms one Background deadline
 * FlushSeconds later; it fires a window on its own thread, off the scheduler
 * step, because writes yield; a window re-arms only while work remains, so an
 * idle server runs none.
 *
 * A window takes min(WritesPerFlush, backend.budget()) writes and walks the
 * boards in name order, resuming after the board it wrote last, one key per
 * board per turn and one attempt per key: it takes at most the keys a board had
 * queued when it began. Each value is detached before its yielding write, so a
 * submit during the write waits for a later window. Cost: O(budget x boards).
 */
export class Flusher implements FlusherStage {
	readonly Name = "Leaderboards.Flusher";
	// The armed window: a cancellable Promise on a Background Scheduler deadline.
	private armedWindow?: Promise<void>;
	private running = false;
	private disarmed = false;
	private lastBoard = -1;
	private writing?: Promise<boolean>;
	private writer?: thread;

	constructor(private readonly context: StageContext) {
		context.kernel.Bus.subscribe(Topics.Pending, () => this.arm());
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
	}

	inFlight(): Promise<boolean> | undefined {
		return this.writing?.getStatus() === Promise.Status.Started ? this.writing : undefined;
	}

	writingThread(): thread | undefined {
		return this.inFlight() ? this.writer : undefined;
	}

	runWindow(drain?: DrainLimits): WindowSummary {
		if (drain) return this.window(drain);
		this.running = true;
		// A window that errors (a custom backend's budget() throwing) must not wedge the loop.
		try {
			return this.window();
		} finally {
			this.running = false;
			if (this.context.stages.Queue.pending() > 0) this.arm();
		}
	}

	private window(drain?: DrainLimits): WindowSummary {
		const { settings, stages, kernel } = this.context;
		const names = settings.boardNames;
		const boardCount = names.size();
		const budget = this.budget();
		// One attempt per key: a board gives at most what it had queued now.
		const allowance = names.map((board) => stages.Queue.pendingOn(board));
		let attempted = 0;
		let written = 0;
		let failed = 0;
		let index = (this.lastBoard + 1) % boardCount;
		let idle = 0;
		while (attempted < budget && idle < boardCount) {
			if (drain ? kernel.Scheduler.now() >= drain.deadline : this.disarmed) break;
			const write = allowance[index] > 0 ? stages.Queue.take(names[index]) : undefined;
			if (write) {
				idle = 0;
				allowance[index] -= 1;
				attempted += 1;
				this.lastBoard = index;
				if (this.write(write, drain !== undefined)) written += 1;
				else failed += 1;
			} else {
				allowance[index] = 0;
				idle += 1;
			}
			index = (index + 1) % boardCount;
		}
		const summary: WindowSummary = { Attempted: attempted, Written: written, Failed: failed, Budget: budget };
		kernel.Bus.publish(Topics.Flushed, summary);
		return summary;
	}

	// The window's write cap: WritesPerFlush, capped by the backend's budget.
	private budget(): number {
		const { WritesPerFlush, backend } = this.context.settings;
		const available = backend.budget?.();
		const budget = available === undefined ? WritesPerFlush : math.min(WritesPerFlush, available);
		return math.max(0, math.floor(budget));
	}

	private arm() {
		const { settings, kernel } = this.context;
		if (settings.skipLoop || this.disarmed || this.armedWindow || this.running) return;
		this.armedWindow = sleep(kernel.Scheduler, settings.FlushSeconds, Priority.Background).andThen(() => {
			this.armedWindow = undefined;
			task.spawn(() => this.flushNow());
		});
	}

	// One write, on its own thread as a Promise the Drainer can join. Yields.
	private write(write: PendingWrite, draining: boolean): boolean {
		const { settings, stats, stages } = this.context;
		const board = settings.boards.get(write.Board)!;
		const backend = settings.backend;
		// Recorded before the backend runs: a backend that calls destroy() from its
		// write must find this write in flight.
		let open!: () => void;
		const writing = new Promise<void>((resolve) => (open = resolve)).andThen(() => {
			this.writer = coroutine.running();
			const [ok, result] = pcall(() =>
				backend.submit
					? backend.submit(write.Board, write.Key, write.Value, board.KeepBest, board.Ascending)
					: backend.set!(write.Board, write.Key, updaterFor(write.Value, board.KeepBest, board.Ascending)),
			);
			if (!ok) log.debug(`write ${write.Board} ${write.Key} errored: ${result}`);
			return ok && result === true;
		});
		this.writing = writing;
		open();
		const [, succeeded] = writing.await();
		if (succeeded === true) {
			stats.Written += 1;
			return true;
		}
		stats.Failed += 1;
		stages.Queue.restore(write, draining);
		return false;
	}
}
