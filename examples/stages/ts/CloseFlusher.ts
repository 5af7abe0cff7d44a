import {
	Board,
	DrainLimits,
	FlusherStage,
	PendingWrite,
	SingleFlight,
	StageContext,
	Topics,
	WindowSummary,
	isThrottle,
	storeOf,
	writeThrough,
} from "@rbxts/leaderboards/extend";

/**
 * A Flusher that writes only when the server closes, for a game with very few writes (a puzzle game's
 * best times, a few a session): submits wait in the queue, keeping each player's best, and destroy()
 * writes them all in its drain windows. No window is ever armed; boards.flushNow() still writes when the
 * game asks. A window takes at most WritesPerFlush writes and what the store's budget() allows (this game
 * has one store), one attempt per queued key, one write at a time.
 */
export function closeFlusher(context: StageContext): FlusherStage {
	const { settings, stages, stats, kernel, manifest } = context;
	// The last window: landed() is its work (a settled one before any window ran).
	let last = new SingleFlight<WindowSummary | undefined>(() => undefined);
	let writing: thread | undefined;
	let closing = false;
	let throttled = 0;
	// destroy() began: a window the game started stops before its next write.
	kernel.Bus.subscribe(Topics.Draining, () => (closing = true));

	// One write as the default Flusher makes it: true when it landed.
	const write = (board: Board, pending: PendingWrite, draining: boolean) => {
		const storage = storeOf(pending);
		let removed = false;
		writing = coroutine.running();
		const [ok, result] = pcall(() => {
			// A Reset board's period is listed in the manifest before its first write (erase() finds it).
			if (pending.Remove !== "only" && !manifest.note(board, storage)) return false;
			if (pending.Remove) {
				if (board.Store.remove(storage, pending.Key) !== true) return false;
				removed = true;
				kernel.Bus.publish(Topics.Removed, pending.Board, pending.Key);
				if (pending.Remove === "only") return true;
			}
			return writeThrough(board, pending);
		});
		writing = undefined;
		if (ok && result === true) {
			stats.Written += 1;
			// The Queue may hand the key out again.
			kernel.Bus.publish(Topics.Settled, pending, true);
			// A value that entered the visible top landed: the Herald tells the other servers.
			if (pending.Record && pending.Stored !== undefined) {
				const value = board.codecFor(pending)?.decode(pending.Stored) ?? pending.Stored;
				kernel.Bus.publish(Topics.Record, pending.Board, pending.Key, value, board.periodOf(storage));
			}
			return true;
		}
		if (!ok && isThrottle(result)) throttled += 1;
		stats.Failed += 1;
		// A removal that landed is not repeated: only the value after it goes back.
		const back = removed ? { ...pending, Remove: undefined } : pending;
		kernel.Bus.publish(Topics.WriteFailed, back, draining);
		kernel.Bus.publish(Topics.Settled, back, false);
		return false;
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
				if (write(settings.boards.get(name)!, pending, drain !== undefined)) summary.Written += 1;
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
