import { Logger, Timers } from "../../../../kernel";
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
	// A timer a board, each read RefreshSeconds after the last returned.
	private readonly timers: Timers;

	constructor(private readonly context: StageContext) {
		this.timers = new Timers(context.kernel.Scheduler);
		context.kernel.Bus.subscribe(Topics.Draining, () => this.stop());
	}

	start() {
		const { settings, stages } = this.context;
		for (const [name, board] of settings.boards) {
			if (board.RefreshSeconds === undefined) continue;
			this.timers.every(name, board.RefreshSeconds, () => {
				// A backend that throws is the read's failure, not the timer's: the next refresh comes.
				const [ok, problem] = pcall(() => stages.Reader.top(name));
				if (!ok) log.debug(`refresh of ${name} errored: ${problem}`);
			});
		}
	}

	stop() {
		this.timers.destroy();
	}
}
