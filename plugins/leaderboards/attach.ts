import { Kernel, Logger, Service } from "../../kernel";
import { checkFactories, composeStages } from "./compose";
import { settingsOf } from "./settings";
import {
	Entry,
	ErasureReport,
	LeaderboardOptions,
	Period,
	PeriodEndHandler,
	PeriodEndOptions,
	QueueStage,
	Settings,
	ShutdownResult,
	StageContext,
	Stages,
	Standing as Place,
	Stats,
	Subject,
	WindowSummary,
} from "./contracts";
import { BoundSubmit, Queue } from "./stages/Queue/Queue";
import { Manifest, periodFor, refusePeriodArgument, Removals, secondsUntilRoll, Warnings } from "./core";

const log = Logger.scope("Leaderboards");

/** The Queue stage's submit as a function of the stage, found once (a game's own stage's too). */
type StageSubmit = (stage: QueueStage, board: string, subject: Subject, value: unknown) => boolean;

/** What names() fills in: any row keyed by a storage key (top(), rank(), around(), friends()). */
type Named = { Key: string; DisplayName?: string; Username?: string };

/**
 * The boards a game holds: what attach() returns. Also the kernel service
 * "Leaderboards", whose stop() drains (destroy()) when the server closes.
 * B is the union of the board names attach was given: a call naming another
 * board does not compile (at run time it is refused as an unknown board).
 */
export class Leaderboards<B extends string = string> implements Service {
	readonly Name = "Leaderboards";
	private readonly warnings = new Warnings();
	// The Queue stage, whose submit the first submit() binds on the boards.
	private readonly queue: QueueStage;

	constructor(
		private readonly kernel: Kernel,
		private readonly stages: Stages,
		/** Counters: accepted submits, successful writes, failed write attempts, values dropped after MaxWriteAttempts, submits a known board refused. */
		readonly Stats: Stats,
		private readonly settings: Settings,
	) {
		this.queue = stages.Queue;
	}

	/**
	 * Queues a score; a flush window writes it later. false for an unknown board, a non-number, NaN, infinities, a value past ±2^53 or an empty key
	 * (every backend; a Big board takes any finite number, a TieBreak board whole numbers within its range), after
	 * destroy(), a fraction or a too-long key where the backend declares integers or maxKeyLength (the default
	 * backend does), and a value the board's bounds refuse (MinValue, MaxValue, MaxAddedPerMinute, Validate), never
	 * clamped. Each refusal but destroy()'s warns, once per board name or per board and kind; a known board's count
	 * in Stats.Refused and publish Leaderboard.Refused. The first submit on a kernel that has not started warns once.
	 */
	submit(board: B, subject: Subject, value: number): boolean {
		this.checkStarted();
		// Later calls find a submit of the boards' own, ahead of this method: the default Queue's (its self
		// unused), called at once, or a game's own Queue stage's, found once (docs/benchmarks.md).
		const queue = this.queue;
		const submit = queue.submit as unknown as StageSubmit;
		const own: BoundSubmit = function (board, subject, value) {
			return submit(queue, board, subject, value);
		};
		(this as unknown as { submit: unknown }).submit = queue instanceof Queue ? submit : own;
		return this.submit(board, subject, value);
	}

	/**
	 * Up to min(count, MaxEntries) entries { Key, Value, Rank } from the board's cached page. Yields when the
	 * page is stale. On a Reset board, period is "current" (the default), "previous" or a period id, each
	 * with its own cache.
	 */
	top(board: B, count?: number, period?: string): Entry[] {
		return this.stages.Reader.top(board, count, period);
	}

	/** The stored values of chosen players, sessions or keys. Yields; nil when the read failed. period as for top(). */
	scores(board: B, subjects: ReadonlyArray<Subject>, period?: string): Map<string, number> | undefined {
		return this.stages.Reader.scores(board, subjects, period);
	}

	/**
	 * A Reset board's period { Id, Start, Finish } (Unix seconds, Finish excluded): which is "current" (the default),
	 * "previous" or an id. nil on an all-time or unknown board or for an id that names no period; raises for a which
	 * that is not a string.
	 */
	period(board: B, which?: string): Period | undefined {
		refusePeriodArgument(which, 3);
		const rule = this.warnings.boardOf(this.settings, "period", board)?.Period;
		return rule && periodFor(rule, which, this.settings.unixTime());
	}

	/** Seconds until a Reset board starts its next period, for a countdown. nil on an all-time or unknown board. */
	secondsUntilRoll(board: B): number | undefined {
		const rule = this.warnings.boardOf(this.settings, "secondsUntilRoll", board)?.Period;
		return rule && secondsUntilRoll(rule, this.settings.unixTime());
	}

	/**
	 * The subject's standing: { Key, Value, Rank } when the loaded top page holds it, no Rank
	 * past the page, no Value when nothing is stored. Yields; nil when the read failed or the board is unknown.
	 */
	rank(board: B, subject: Subject): Place | undefined {
		return this.stages.Standing.rank(board, subject);
	}

	/**
	 * The subject and up to count rows (default 5, floored, held to 0..50) on each side by value, best
	 * first, with Rank where it is known. Yields. {} when nothing is stored for the subject; nil when a
	 * read failed or was refused (request budget) or the board is unknown.
	 */
	around(board: B, subject: Subject, count?: number): Place[] | undefined {
		return this.stages.Standing.around(board, subject, count);
	}

	/**
	 * The player and their friends who have a stored value, ranked among themselves, and how many are
	 * not read yet (0: complete). Yields; each call reads what the read budget grants, so a long list
	 * fills in over calls. nil when a read failed or the board is unknown; raises when player is no
	 * Player, session with a Player or UserId.
	 */
	friends(board: B, player: Subject): LuaTuple<[Entry[] | undefined, number | undefined]> {
		return this.stages.Standing.friends(board, player);
	}

	/**
	 * Queues the removal of the subject's stored value: what is queued for the key is dropped and every
	 * read hides it at once; the next window removes it (retried like a write). false for an unknown
	 * board, an unstorable key, after destroy().
	 */
	remove(board: B, subject: Subject): boolean {
		return this.stages.Standing.remove(board, subject);
	}

	/**
	 * Erases the subject's key from every board, every period and every backend, durably: recorded in the
	 * manifest, then removed by one server at a time, resumed by another if it closes. Yields until
	 * recorded; removes within the remove budget. Returns the
	 * report: "pending" with every store still to do, or "failed" when it could not be recorded (call again).
	 * Submits for the key are refused while it runs. Raises for a subject with no key and a backend with no remove().
	 */
	erase(subject: Subject): ErasureReport {
		return this.stages.Eraser.erase(subject);
	}

	/** The erasure recorded for the subject's key: what was removed, what remains. Yields; nil when none was requested or the read failed. */
	erasure(subject: Subject): ErasureReport | undefined {
		return this.stages.Eraser.erasure(subject);
	}

	/**
	 * For each finished period of a Reset board, one server of the experience at a time calls
	 * handler(standings, info) with the final top options.Count (default 10) and a PeriodEndInfo whose
	 * IdempotencyKey is the same on every attempt. Read options.SettleSeconds after the period ends; an
	 * error is retried with backoff; a period that ended while the game was empty runs when a server
	 * starts. One handler a board.
	 */
	onPeriodEnd(board: B, handler: PeriodEndHandler, options?: PeriodEndOptions): void {
		this.stages.Rewards.onPeriodEnd(board, handler, options);
	}

	/** Adds DisplayName and Username to rows keyed by UserId and returns the same table. Yields. */
	names<T extends Named>(entries: T[]): (T & Named)[] {
		this.stages.NameResolver.names(entries as unknown as Entry[]);
		return entries;
	}

	/** Runs one capped window now and returns what it did. Yields; nil at once while a flush runs or once destroy() began (the drain runs the windows). */
	flushNow(): WindowSummary | undefined {
		if (this.stages.Drainer.destroyed()) return undefined;
		return this.stages.Flusher.flushNow();
	}

	/** Drains: refuses new submits, releases waiting readers, joins the writes in flight and runs capped windows until the queue is empty, ShutdownSeconds passed, or the drain stops early. Yields. */
	destroy(): LuaTuple<[boolean, ShutdownResult]> {
		return this.stages.Drainer.destroy();
	}

	/** For specs with SkipLoop: runs one capped window and returns what it did. Yields. */
	_flush(): WindowSummary {
		return this.stages.Flusher.runWindow();
	}

	// Without kernel.start() nothing is bound to BindToClose: the queued scores would be lost at shutdown, silently.
	private checkStarted() {
		if (this.kernel.hasStarted() || !this.kernel.bindToClose) return;
		log.warn(
			"submit() on a kernel that has not started: call kernel.start() after attach(), or nothing drains the queued scores when the server closes (BindToClose is bound by start()); this warning shows once",
		);
	}

	/** The kernel calls this when the server closes. */
	stop() {
		this.destroy();
	}
}

/**
 * Checks the options and builds the boards on the kernel. An error names the field at fault; the
 * stages (or a game's own, from options.Stages) and the "Leaderboards" service are registered with
 * the kernel. Nothing runs until the first
 * submit. Once a kernel: a second attach raises (boards on other stores go in
 * the same attach, each with its own BoardConfig.Backend).
 */
export function attach<B extends string>(kernel: Kernel, options: LeaderboardOptions<B>): Leaderboards<B> {
	// One attach a kernel: its stages are the kernel's services, and one drain covers every board.
	if (kernel.find("Leaderboards") !== undefined)
		error(
			"Leaderboards.attach: this kernel already has boards; attach once, with every board in options.Boards (a board may name its own Backend)",
			2,
		);
	// A bad option is the game's bug: raised at its call to attach, whatever check found it.
	const [valid, settings] = pcall(() => {
		const checked = settingsOf(options);
		checkFactories(options.Stages);
		return checked;
	});
	if (!valid) error(settings, 2);
	const stats: Stats = { Submitted: 0, Written: 0, Failed: 0, Dropped: 0, Refused: 0 };
	const stages = {} as { -readonly [K in keyof Stages]: Stages[K] };
	const context: StageContext = {
		kernel,
		settings,
		stats,
		stages,
		removals: new Removals(kernel),
		manifest: new Manifest(kernel, settings),
	};
	// A game's stage that breaks its contract is the game's bug: raised at its call to attach.
	const [composed, built] = pcall(composeStages, context, options.Stages ?? {});
	if (!composed) error(built, 2);
	for (const stage of built) kernel.add(stage);
	const boards = new Leaderboards<B>(kernel, stages, stats, settings);
	kernel.add(boards);
	return boards;
}
