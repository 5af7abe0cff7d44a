import {
	DrainLimits,
	FlusherStage,
	PendingWrite,
	SingleFlight,
	StageContext,
	StoreWrite,
	Topics,
	WindowSummary,
} from "@rbxts/leaderboards/extend";

/**
 * A Flusher that writes only when the server closes, for a game with very few writes (a puzzle game's
 * best times, a few a session): submits wait in the queue, keeping each player's best, and destroy()
 * writes them all in its drain windows. No window is ever armed; boards.flushNow() still writes when the
 * game asks. A window takes at most WritesPerFlush writes and what the store's budget() allows (this game
 * has one store), one attempt per queued key, one write at a time.
 */
export function closeFlusher(context: StageContext): FlusherStage {
	const { settings, stages, kernel } = context;
	// The last window: landed() is its work (a settled one before any window ran).
	let last = new SingleFlight<WindowSummary | undefined>(() => undefined);
	let writing: thread | undefined;
	let closing = false;
	let throttled = 0;
	// destroy() began: a window the game started stops before its next write.
	kernel.Bus.subscribe(Topics.Draining, () => (closing = true));

	// One write as the default Flusher makes it (StoreWrite keeps the promises to the other stages: the
	// manifest, the board's rule, Stats, the Queue told, records announced): true when it landed.
	const write = (pending: PendingWrite, draining: boolean) => {
		const call = new StoreWrite(context, pending);
		writing = coroutine.running();
		const landed = call.send();
		writing = undefined;
		if (call.throttled) throttled += 1;
		call.settle(landed, draining);
		return landed;
	};

	const window = (drain?: DrainLimits): WindowSummary => {
		const budget = math.min(settings.WritesPerFlush, settings.store.budget() ?? math.huge);
		const summary = { Attempted: 0, Written: 0, Failed: 0, Budget: budget };
		throttled = 0;
		for (const name of settings.boardNames) {
			// The keys queued now, each once: a failed one waits for the next window.
			for (let keys = stages.Queue.pendingOn(name); keys > 0 && summary.Attempted < budget; keys--) {
				if (drain ? kernel.Scheduler.now() >= drain.deadline : closing) break;
				const pending = stages.Queue.take(name);
				if (!pending) break;
				summary.Attempted += 1;
				if (write(pending, drain !== undefined)) summary.Written += 1;
				else summary.Failed += 1;
			}
		}
		kernel.Bus.publish(Topics.Flushed, summary);
		return summary;
	};

	const run = (drain?: DrainLimits) => {
		last = new SingleFlight(() => window(drain));
		return last.wait()!;
	};

	return {
		Name: "Game.CloseFlusher",
		flushNow() {
			return last.settled() ? run() : undefined;
		},
		runWindow(drain) {
			return run(drain);
		},
		inFlight() {
			return writing ? 1 : 0;
		},
		unresolved() {
			return writing ? 1 : 0;
		},
		landed() {
			return last.work.then(() => {});
		},
		isWriting(thread) {
			return writing === thread;
		},
		armed() {
			return false;
		},
		lastThrottled() {
			return throttled;
		},
	};
}
