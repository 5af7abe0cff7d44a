import { sleep } from "./cancellation";
import { Deadline, Priority, Scheduler } from "./Scheduler";

// One name's timer: its deadline, what it runs, and whether it still repeats (cancel() or destroy() while
// its work runs ends that).
interface Timer {
	deadline?: Deadline;
	live: boolean;
	readonly run: (timer: Timer) => void;
}

/**
 * Named timers one owner (a stage) arms on the Scheduler and cancels together. Each runs its work on its
 * own thread, so work may yield; arming a name replaces the timer armed under it. destroy() cancels every
 * timer, stops every repetition whose work is running, and makes later arms do nothing: work that was
 * under way at the close arms nothing more, with no flag for its owner to check.
 */
export class Timers {
	private readonly timers = new Map<string, Timer>();
	private readonly sleeps = new Set<Promise<void>>();
	private destroyed = false;

	constructor(
		private readonly scheduler: Scheduler,
		private readonly priority = Priority.Background,
	) {}

	/** Runs work once, `seconds` from now, in place of the timer armed under name. */
	arm(name: string, seconds: number, work: () => void) {
		this.start(name, seconds, (timer) => {
			if (this.timers.get(name) === timer) this.timers.delete(name);
			work();
		});
	}

	/**
	 * Runs work every `seconds`, the first `seconds` from now, each next one `seconds` after the last
	 * returned, until name is cancelled or replaced or the timers are destroyed. Work that errors is
	 * reported as its thread's error and the repetition goes on.
	 */
	every(name: string, seconds: number, work: () => void) {
		this.start(name, seconds, (timer) => {
			const [ok, problem] = pcall(work);
			if (timer.live) this.schedule(timer, seconds);
			if (!ok) error(problem, 0);
		});
	}

	/** Cancels the timer armed under name, and its repetition if its work is running. */
	cancel(name: string) {
		const timer = this.timers.get(name);
		if (!timer) return;
		timer.live = false;
		timer.deadline?.cancel();
		this.timers.delete(name);
	}

	/**
	 * A sleep() these timers own: destroy() cancels it, and one asked for after destroy() comes cancelled,
	 * so work that waits on it ends at its wait (`await()` gives false) with no flag to check.
	 */
	sleep(seconds: number): Promise<void> {
		const slept = sleep(this.scheduler, seconds, this.priority);
		if (this.destroyed) slept.cancel();
		else {
			this.sleeps.add(slept);
			slept.finally(() => this.sleeps.delete(slept));
		}
		return slept;
	}

	/** Cancels every timer and sleep; later arms do nothing and later sleeps come cancelled. */
	destroy() {
		this.destroyed = true;
		for (const [name] of this.timers) this.cancel(name);
		for (const slept of this.sleeps) slept.cancel();
	}

	private start(name: string, seconds: number, run: (timer: Timer) => void) {
		if (this.destroyed) return;
		this.cancel(name);
		const timer: Timer = { live: true, run };
		this.timers.set(name, timer);
		this.schedule(timer, seconds);
	}

	// The Scheduler's callback runs on its step, which must not yield: the work gets a thread of its own.
	private schedule(timer: Timer, seconds: number) {
		timer.deadline = this.scheduler.after(seconds, this.priority, () => task.spawn(timer.run, timer));
	}
}
