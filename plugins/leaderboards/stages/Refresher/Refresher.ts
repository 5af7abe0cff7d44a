import { Logger, Priority, sleep } from "../../../../kernel";
import { RefresherStage, StageContext, Topics } from "../../contracts";

const log = Logger.scope("Leaderboards");

/**
 * RefreshSeconds: while the server runs (from the kernel's start() to
 * destroy() or stop()), each board with RefreshSeconds asks the Reader for its
 * top page on a Background timer, so the page stays fresh and
 * Leaderboard.Updated fires with no caller polling top(). The Reader reads only
 * when its page is stale, so a page refreshes at most once per CacheSeconds,
 * sharing the read with any top() callers of the moment.
 */
export class Refresher implements RefresherStage {
	readonly Name = "Leaderboards.Refresher";
	private readonly timers = new Map<string, Promise<void>>();
	private stopped = false;

	constructor(private readonly context: StageContext) {
		context.kernel.Bus.subscribe(Topics.Draining, () => this.stop());
	}

	start() {
		for (const [name, board] of this.context.settings.boards)
			if (board.RefreshSeconds !== undefined) this.arm(name, board.RefreshSeconds);
	}

	stop() {
		this.stopped = true;
		for (const [, timer] of this.timers) timer.cancel();
		this.timers.clear();
	}

	private arm(board: string, seconds: number) {
		if (this.stopped) return;
		const { kernel, stages } = this.context;
		const timer = sleep(kernel.Scheduler, seconds, Priority.Background).andThen(() => {
			this.timers.delete(board);
			// Its own thread: the read yields, and a backend that throws must not end the timer.
			task.spawn(() => {
				const [ok, problem] = pcall(() => stages.Reader.top(board));
				if (!ok) log.debug(`refresh of ${board} errored: ${problem}`);
				this.arm(board, seconds);
			});
		});
		this.timers.set(board, timer);
	}
}
