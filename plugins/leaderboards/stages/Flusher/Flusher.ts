import { Priority, sleep, within } from "../../../../kernel";
import { DrainLimits, FlusherStage, PendingWrite, StageContext, Topics, WindowSummary } from "../../contracts";
import { StoreWrite } from "../../core";
import { Flights } from "./flights";
import { Pacing } from "./pacing";
import { Walk } from "./walk";

// How a write went: landed, failed, or failed because the store refused it for its request budget.
type Outcome = "landed" | "failed" | "throttled";

export { RECORD_ROOM, REFILL_SECONDS } from "./pacing";

/** A submit that enters a board's visible top is written by a window this soon. */
export const PROMPT_SECONDS = 0.1;

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
 *
 * Under a sustained backlog (the last window, ordinary or prompt, left keys
 * behind for want of budget) a window the loop runs leaves the drain reserve
 * unspent (types/drain.ts, drainReserve), so the close finds budget waiting,
 * and RECORD_ROOM more for prompt windows, which keep the reserve only while
 * records are a backlog themselves.
 */
export class Flusher implements FlusherStage {
	readonly Name = "Leaderboards.Flusher";
	// The armed window: a cancellable Promise on a Background Scheduler deadline.
	private armedWindow?: Promise<void>;
	// The armed prompt window: values that entered a visible top, written ahead of the others; and
	// whether the last one left some behind (its budget ran out).
	private promptWindow?: Promise<void>;
	private recordsLeft = false;
	// A prompt window came due while another window ran: it runs when that one ends.
	private promptAfter = false;
	private running = false;
	private disarmed = false;
	private lastBoard = -1;
	// Failed writes of the last window that the store refused for its request budget.
	private throttled = 0;
	private readonly flights: Flights;
	private readonly pacing: Pacing;

	constructor(private readonly context: StageContext) {
		this.flights = new Flights(context, () => this.resume());
		this.pacing = new Pacing(context);
		context.kernel.Bus.subscribe(Topics.Pending, () => this.arm(context.settings.FlushSeconds));
		context.kernel.Bus.subscribe(Topics.Prompt, () => this.prompt());
		context.kernel.Bus.subscribe(Topics.Draining, () => this.disarm());
	}

	lastThrottled(): number {
		return this.throttled;
	}

	armed(): boolean {
		return this.armedWindow !== undefined;
	}

	flushNow(): WindowSummary | undefined {
		if (this.running) return undefined;
		return this.runWindow();
	}

	// destroy() began: cancels the armed window, stops a running scheduled window before its next write,
	// arms no more, and gives up on every write past RequestSeconds (the drain writes their keys again).
	disarm() {
		this.disarmed = true;
		this.armedWindow?.cancel();
		this.armedWindow = undefined;
		this.promptWindow?.cancel();
		this.promptWindow = undefined;
		this.flights.giveUpAll();
	}

	inFlight(): number {
		return this.flights.inFlight();
	}

	unresolved(): number {
		return this.flights.unresolved();
	}

	landed(): Promise<void> {
		return this.flights.landed();
	}

	isWriting(thread: thread): boolean {
		return this.flights.isWriting(thread);
	}

	runWindow(drain?: DrainLimits): WindowSummary {
		if (drain) return this.window(drain);
		return this.ordinaryWindow(false);
	}

	// A window of the round: one the loop armed under a sustained backlog holds the drain's reserve
	// back; one a caller runs spends all the budget allows.
	private ordinaryWindow(holding: boolean): WindowSummary {
		this.running = true;
		let summary: WindowSummary | undefined;
		const limit = this.pacing.begin();
		// A window that errors (a custom backend's budget() throwing) must not wedge the loop.
		try {
			summary = this.window(undefined, limit, false, holding);
			return summary;
		} finally {
			this.running = false;
			if (this.due()) this.arm(this.pacing.pace(summary));
			if (this.promptAfter) {
				this.promptAfter = false;
				task.defer(() => this.promptNow());
			}
		}
	}

	// The last window, ordinary or prompt, left keys behind for want of budget: a sustained backlog.
	private backlogged(): boolean {
		return this.pacing.leftBehind || this.recordsLeft;
	}

	// Something is queued that a window could take (not only keys waiting on a late write).
	private due(): boolean {
		const queue = this.context.stages.Queue;
		return queue.pending() > queue.waiting();
	}

	private window(drain?: DrainLimits, limit = math.huge, records = false, holding = false): WindowSummary {
		const { settings, kernel } = this.context;
		const walk = new Walk(this.context, this.pacing, this.lastBoard, limit, records, holding);
		const slots = math.min(settings.WritesInFlight, walk.budget);
		const tally: Record<Outcome | "flying", number> = { landed: 0, failed: 0, throttled: 0, flying: 0 };
		let wake: (() => void) | undefined;
		const resolved = (outcome: Outcome) => {
			tally[outcome] += 1;
			tally.flying -= 1;
			wake?.();
		};
		for (;;) {
			while (tally.flying < slots) {
				if (drain ? kernel.Scheduler.now() >= drain.deadline : this.disarmed) break;
				const write = walk.next();
				if (!write) break;
				tally.flying += 1;
				this.launch(write, drain !== undefined, resolved);
			}
			if (tally.flying === 0) break;
			// Wait until a write resolves: its slot takes the next key.
			new Promise<void>((resolve) => (wake = resolve)).await();
			wake = undefined;
		}
		this.lastBoard = walk.last;
		// A prompt window's keys left behind (no budget yet) bring another prompt; the round's pace is the ordinary windows'.
		if (records) this.recordsLeft = walk.leftBehind();
		else this.pacing.leftBehind = walk.leftBehind();
		this.throttled = tally.throttled;
		const summary: WindowSummary = {
			Attempted: walk.attempted,
			Written: tally.landed,
			Failed: tally.failed + tally.throttled,
			Budget: walk.budget,
		};
		kernel.Bus.publish(Topics.Flushed, summary);
		return summary;
	}

	private arm(seconds: number) {
		const { settings, kernel } = this.context;
		if (settings.skipLoop || this.disarmed || this.armedWindow || this.running) return;
		this.armedWindow = sleep(kernel.Scheduler, seconds, Priority.Background).andThen(() => {
			this.armedWindow = undefined;
			task.spawn(() => {
				if (this.running) return;
				this.pacing.continuing = seconds < settings.FlushSeconds;
				this.ordinaryWindow(this.backlogged());
			});
		});
	}

	// A submit entered a board's visible top: a prompt window comes within PROMPT_SECONDS and writes
	// such values only (within budget, as any window), so the others keep coalescing until theirs.
	// It spends the RECORD_ROOM and the drain reserve the ordinary windows keep, unless records are a
	// backlog themselves (the last prompt window left some behind): then it keeps the reserve.
	private prompt() {
		const { kernel, settings } = this.context;
		if (settings.skipLoop || this.disarmed || this.promptWindow) return;
		this.promptWindow = sleep(kernel.Scheduler, PROMPT_SECONDS, Priority.Background).andThen(() => {
			this.promptWindow = undefined;
			task.spawn(() => this.promptNow());
		});
	}

	// The prompt window itself; while another window runs, it runs as soon as that one ends.
	private promptNow() {
		if (this.disarmed) return;
		if (this.running) {
			this.promptAfter = true;
			return;
		}
		this.running = true;
		try {
			this.window(undefined, math.huge, true, this.recordsLeft);
		} finally {
			this.running = false;
			if (this.recordsLeft) this.prompt();
			if (this.due()) this.arm(this.context.settings.FlushSeconds);
		}
	}

	// Starts one write on its own thread; `resolved` hears how it went (throttled: failed, refused
	// for the store's request budget), once it returned or passed RequestSeconds.
	private launch(write: PendingWrite, draining: boolean, resolved: (outcome: Outcome) => void) {
		const { settings, kernel } = this.context;
		const flight = this.flights.start();
		const call = new StoreWrite(this.context, write);
		task.spawn(() => {
			const outcome = within(kernel.Scheduler, settings.RequestSeconds, () => {
				flight.thread = coroutine.running();
				const landed = call.send();
				this.flights.returned(flight, write, landed);
				return landed;
			});
			const succeeded = outcome.value === true;
			// The value is back in the queue before the write stops counting as in
			// flight, so a drain never sees it in neither.
			try {
				const restored = call.settle(succeeded, draining, outcome.settled);
				// Past RequestSeconds: its key stays held until the call returns or is given up on.
				if (restored && !outcome.settled) this.flights.hold(flight, write, restored, this.disarmed);
			} finally {
				this.flights.resolved();
				resolved(succeeded ? "landed" : call.throttled ? "throttled" : "failed");
			}
		});
	}

	// A key was released: a window comes FlushSeconds later if none is due.
	private resume() {
		if (this.due()) this.arm(this.context.settings.FlushSeconds);
	}
}
