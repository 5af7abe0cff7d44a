import { SingleFlight, join, sleep } from "../../../../kernel";
import {
	DEADLINE_EXCEEDED,
	DrainerStage,
	NO_PROGRESS,
	ShutdownResult,
	StageContext,
	Topics,
	WindowSummary,
} from "../../contracts";
import { drainPause, FAILED_WINDOWS, FAILED_WRITES } from "../../core";

// Windows in a row with failures, and in which every write failed, with their failed writes.
interface Streak {
	failing: number;
	dead: number;
	deadWrites: number;
}

// A rejection's message: Promise wraps an error raised inside it in a
// Promise.Error whose `error` field holds what was raised.
function messageOf(problem: unknown): string {
	const wrapped = typeIs(problem, "table") ? (problem as { error?: unknown }).error : undefined;
	return tostring(wrapped ?? problem);
}

/**
 * destroy(): publishes Leaderboard.Draining, on which the Queue refuses new
 * submits, the Flusher cancels the armed window (and gives up on every write
 * past RequestSeconds: their keys are written now) and the Reader releases
 * waiting readers; joins every write in flight, then runs capped
 * windows (the Flusher's own) until the queue is empty or ShutdownSeconds have
 * passed. No write starts at or after that deadline; a write still in flight
 * then may land later and counts in InFlight. Drains never drop a value. A
 * window the request budget left empty waits for the budget to refill (it is
 * spent on the same deadline); after a window with failures the drain pauses
 * (drainPause, growing while failures continue) and retries what failed. It
 * stops early, no progress, after FAILED_WINDOWS windows in a row in which
 * every write failed and none was throttled (a throttled store is busy, not
 * down), FAILED_WRITES failed writes in all, or when a window with budget
 * attempts nothing. An erasure under way (Eraser) hands its progress back
 * within the same deadline before the result comes. An incomplete result
 * always names its reason. Every
 * caller shares one drain and one frozen result; cancelling a caller does not
 * cancel the drain. A backend that calls destroy() from inside one of its
 * writes gets a pending result at once instead of waiting on itself.
 */
export class Drainer implements DrainerStage {
	readonly Name = "Leaderboards.Drainer";
	private drain?: SingleFlight<ShutdownResult>;

	constructor(private readonly context: StageContext) {}

	destroyed(): boolean {
		return this.drain !== undefined;
	}

	destroy(): LuaTuple<[boolean, ShutdownResult]> {
		const { stages, kernel } = this.context;
		if (!this.drain) {
			// The Queue refuses submits, the Flusher disarms, the Reader lets its readers go, timers stop.
			kernel.Bus.publish(Topics.Draining);
			this.drain = new SingleFlight(() => this.run());
		}
		if (!this.drain.settled() && stages.Flusher.isWriting(coroutine.running()))
			return $tuple(false, table.freeze({ ...this.unwritten(), Complete: false, Failed: 0 }));
		const result = this.drain.wait();
		return $tuple(result.Complete, result);
	}

	private run(): ShutdownResult {
		const { stages, stats, settings, kernel } = this.context;
		const scheduler = kernel.Scheduler;
		const deadline = scheduler.now() + settings.ShutdownSeconds;
		const left = () => math.max(0, deadline - scheduler.now());
		const failedBefore = stats.Failed;
		let problem: string | undefined;

		if (stages.Flusher.inFlight() > 0 && !join(scheduler, stages.Flusher.landed(), left()).expect().settled)
			problem = DEADLINE_EXCEEDED;
		// Windows in a row with failures (the pause grows), and in which every write failed (the store
		// accepts nothing), with their failed writes.
		const streak = { failing: 0, dead: 0, deadWrites: 0 };
		while (problem === undefined && stages.Queue.pending() > 0) {
			if (left() <= 0) {
				problem = DEADLINE_EXCEEDED;
				break;
			}
			// The window runs on its own thread so a write that never returns cannot hold the drain past its deadline.
			const window = new Promise<WindowSummary>((resolve) => resolve(stages.Flusher.runWindow({ deadline })));
			const joined = join(scheduler, window, left()).expect();
			if (!joined.settled) problem = DEADLINE_EXCEEDED;
			else if (!joined.ok) problem = messageOf(joined.problem);
			else problem = this.after(joined.value!, streak, left);
		}
		// An erasure under way hands its progress back before the close returns (the server ends then).
		const erasure = stages.Eraser.handedBack?.();
		if (erasure) join(scheduler, erasure, left()).expect();
		const { Remaining, InFlight } = this.unwritten();
		const result: ShutdownResult = table.freeze({
			Complete: Remaining === 0 && InFlight === 0 && problem === undefined,
			Remaining,
			InFlight,
			Failed: stats.Failed - failedBefore,
			Error: problem,
		});
		kernel.Bus.publish(Topics.Drained, result);
		return result;
	}

	// What is not written yet: queued values and writes in flight (a write past RequestSeconds has its value
	// back in the queue: counted once in Remaining), and writes whose call has not returned.
	private unwritten() {
		const { Queue, Flusher } = this.context.stages;
		return { Remaining: Queue.pending() + Flusher.inFlight(), InFlight: Flusher.unresolved() };
	}

	// After a drain window: why the drain stops, or undefined after pausing as the rule says.
	private after(summary: WindowSummary, streak: Streak, left: () => number) {
		if (summary.Budget > 0 && summary.Attempted === 0) return left() <= 0 ? DEADLINE_EXCEEDED : NO_PROGRESS;
		// A window the budget left empty neither breaks a streak nor adds to it; one the store throttled
		// is a busy store, not one that accepts nothing: it pauses, and the dead streak waits.
		const throttled = this.context.stages.Flusher.lastThrottled?.() ?? 0;
		if (summary.Attempted > 0) {
			streak.failing = summary.Failed > 0 ? streak.failing + 1 : 0;
			if (summary.Written > 0) {
				streak.dead = 0;
				streak.deadWrites = 0;
			} else if (throttled === 0) {
				streak.dead += 1;
				streak.deadWrites += summary.Failed;
			}
		}
		if (streak.dead >= FAILED_WINDOWS && streak.deadWrites >= FAILED_WRITES) return NO_PROGRESS;
		if ((summary.Failed > 0 || summary.Budget === 0) && this.context.stages.Queue.pending() > 0)
			sleep(this.context.kernel.Scheduler, math.min(drainPause(streak.failing), left())).await();
		return undefined;
	}
}
