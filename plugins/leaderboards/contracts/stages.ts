import { Kernel, Service } from "../../../kernel";
import { BackendRow, PendingWrite } from "./backend";
import { Board } from "./board";
import { ErasureReport, PeriodEndHandler, PeriodEndOptions } from "./durable";
import { Entry, ShutdownResult, Standing, Stats, Subject, WindowSummary } from "./entries";
import { Manifest } from "./manifest";
import { Removals } from "./removals";
import { Settings } from "./settings";

/**
 * Queue: resolves subjects, validates values, keeps the best (or newest) pending value per key.
 *
 * Hears Leaderboard.Visible (a cached page's visible top: kept per board and storage name, so a submit
 * tells in O(1) that it enters it, asking no one). Publishes Leaderboard.Pending (the queue went from
 * empty to pending), Leaderboard.Prompt (a submit entered the visible top), Leaderboard.Refused and Leaderboard.Dropped (a value,
 * or a removal with a nil value, dropped after MaxWriteAttempts); refuses submits for a key
 * `removals.isErasing`. Answers the boards (submit), the Flusher (pending, pendingOn, waiting, take,
 * takeRecord, recordsOn, restore, settle), the Drainer (pending, close), Standing (remove) and the
 * Eraser (drop).
 */
export interface QueueStage extends Service {
	/** Queues a value; false (nothing queued) for every refusal. O(1). */
	submit(board: string, subject: Subject, value: unknown): boolean;
	/** Values queued across all boards. O(1). */
	pending(): number;
	/** Values queued on one board. O(1). */
	pendingOn(board: string): number;
	/**
	 * Values queued whose key's write has not settled: take() hands them out once
	 * it has. On one board O(1), else across all boards O(boards).
	 */
	waiting(board?: string): number;
	/**
	 * Detaches the oldest queued key's value on board for a write. A key taken
	 * before and not yet settled is never taken (its value stays queued): never
	 * two writes for one key.
	 */
	take(board: string): PendingWrite | undefined;
	/** Optional: the oldest queued value that entered the visible top (a prompt window's), as take() detaches it. */
	takeRecord?(board: string): PendingWrite | undefined;
	/** Optional: at most how many such values takeRecord() may find on board now. O(1). */
	recordsOn?(board: string): number;
	/**
	 * Puts a failed write back, merged with anything newer, counting the failed
	 * window. At MaxWriteAttempts the value is dropped instead (never once destroy() began).
	 * Returns whether it was dropped.
	 */
	restore(write: PendingWrite, draining: boolean): boolean;
	/**
	 * The write's backend call returned (landed: it succeeded), or the Flusher
	 * gave up on it (landed false): its key may be taken again. write is what
	 * take() gave, or what went to restore(). When it was restored before it
	 * returned (past RequestSeconds), a late success applies to what went back:
	 * a Sum board subtracts the landed value, other boards drop a value the
	 * store now holds or beats. A late failure changes nothing. O(1).
	 */
	settle(write: PendingWrite, landed: boolean): void;
	/**
	 * Queues the removal of a key's stored value (remove()): drops what is queued
	 * for it, and a later submit queues behind the removal. false after close()
	 * or for an unknown board.
	 */
	remove?(board: string, key: string): boolean;
	/** Drops every value queued for a key, on every board and period (erase()); how many. */
	drop?(key: string): number;
	/** Refuses every later submit (destroy). */
	close(): void;
}

/** A drain window's limits: no write starts at or after the deadline (kernel Scheduler time). */
export interface DrainLimits {
	readonly deadline: number;
}

/**
 * Flusher: arms windows and runs capped windows against the backend.
 *
 * Hears Leaderboard.Pending (arm a window) and Leaderboard.Prompt (arm a prompt window). For each
 * write: `manifest.note(board, storage)` before a Reset board's period is first written (false: the
 * write waits), the value through `writeThrough` (the board's encoding and rule), then `Queue.settle`
 * once the backend call returned or was given up on, and `Queue.restore` for a failed one. Publishes
 * Leaderboard.Removed (a removal landed: removals and caches depend on it), Leaderboard.Record (a value
 * that entered the visible top landed: the Herald announces it) and Leaderboard.Flushed (a window
 * ended). Answers the boards (flushNow) and the Drainer (runWindow, disarm, inFlight, unresolved,
 * landed, isWriting, lastThrottled).
 */
export interface FlusherStage extends Service {
	/** Runs one capped window now; returns at once if one is running. Yields. */
	flushNow(): WindowSummary | undefined;
	/**
	 * Runs one capped window on this thread (the Drainer's windows pass limits,
	 * and give up first on every write past RequestSeconds: their keys are
	 * written again now); it returns once every write it started resolved. Yields.
	 */
	runWindow(drain?: DrainLimits): WindowSummary;
	/** Cancels the armed window, stops a running scheduled window before its next write, and arms no more. */
	disarm(): void;
	/** Writes in flight: started, neither returned nor past RequestSeconds (their values are out of the queue). O(1). */
	inFlight(): number;
	/** Writes whose backend call has not returned, those past RequestSeconds and not yet given up on included (they may still land). O(1). */
	unresolved(): number;
	/** Resolves once no write is in flight: each resolves by its RequestSeconds deadline at the latest. */
	landed(): Promise<void>;
	/** thread runs a write that has not returned (a backend that calls destroy() from it must not wait on itself). */
	isWriting(thread: thread): boolean;
	/** A window deadline is armed. */
	armed(): boolean;
	/**
	 * Optional: failed writes of the last window the store refused for its request budget (throttled:
	 * busy, not down). A drain does not count a window of them as a store that accepts nothing.
	 */
	lastThrottled?(): number;
}

/**
 * Reader: cached, single-flight top(); scores().
 *
 * Reads a page through `Pages.read` (shared by the experience, or the store itself) and hides what
 * `removals.hides`; publishes Leaderboard.Updated when a read refreshed a page, and Leaderboard.Visible
 * when a cached page's visible top changed (read, patched, a key dropped; nil when the page went), on a
 * board with VisibleTop: without it no submit enters the visible top (no prompt writes, no records
 * announced). Answers the boards (top, scores), the Refresher and Standing (top, scores), the Herald
 * (patch), Standing (forget), the Eraser (erase) and the Drainer (release).
 */
export interface ReaderStage extends Service {
	/** period: "current" (the default), "previous" or a period id, on a Reset board. */
	top(board: string, count?: number, period?: string): Entry[];
	scores(board: string, subjects: ReadonlyArray<Subject>, period?: string): Map<string, number> | undefined;
	/** Lets every reader waiting on a backend read go now, with the cached page. */
	release(): void;
	/** Drops a removed key from the cached page, and from pages read before its removal lands. */
	forget?(board: string, key: string): void;
	/** Drops an erased key from every cached page of every board and period. */
	erase?(key: string): void;
	/** A record another server stored (sent at Unix seconds `sent`): patched into the cached page, when newer. */
	patch?(board: string, period: string | undefined, key: string, value: number, sent: number): void;
}

/**
 * Standing: where a subject stands (rank, around, friends) and remove().
 *
 * Asks the Reader (top, scores, forget), the Queue (remove), the Drainer (destroyed) and `removals`
 * (hide, hides, onSettled). Answers the boards only.
 */
export interface StandingStage extends Service {
	rank(board: string, subject: Subject): Standing | undefined;
	around(board: string, subject: Subject, count?: number): Standing[] | undefined;
	/** The friends board read so far, and how many of the player and their friends are unread (nil, nil: failed). */
	friends(board: string, player: Subject): LuaTuple<[Entry[] | undefined, number | undefined]>;
	remove(board: string, subject: Subject): boolean;
}

/** A top page as the experience shares it: its rows, and when the store was read for them (experienceTime). */
export interface SharedPage {
	readonly Rows: BackendRow[];
	readonly ReadAt: number;
}

/**
 * Pages: one read of a board's top page per refresh for the whole experience (a MemoryStore hash map item).
 * Answers the Reader (read) and the Eraser (erase).
 */
export interface PagesStage extends Service {
	/** Yields. The page of a storage name, shared or read; undefined when no page could be had. */
	read(board: Board, storage: string, count: number): SharedPage | undefined;
	/** Yields. Drops an erased key from every shared page that holds it; false when MemoryStore failed. */
	erase?(key: string): boolean;
}

/**
 * Herald: records announced on MessagingService and patched into every server's page. Hears
 * Leaderboard.Record; patches what other servers announce through `Reader.patch`. Answers nobody.
 */
export type HeraldStage = Service;

/**
 * Refresher: keeps RefreshSeconds boards' top pages fresh on a timer (through `Reader.top`) until
 * Leaderboard.Draining. Answers nobody.
 */
export type RefresherStage = Service;

/** NameResolver: DisplayName and Username for entries keyed by UserId. Answers the boards (names) and the Eraser (forget). */
export interface NameResolverStage extends Service {
	names(entries: Entry[]): Entry[];
	/** Forgets what it knows of a key's user (an erased key). */
	forget?(key: string): void;
}

/**
 * Eraser: erase() and erasure(); resumes any server's unfinished erasure. Keeps its records in the
 * manifest; blocks a key through `removals.erase`/`erased`, `Queue.drop`, `Reader.erase`,
 * `NameResolver.forget` and `Pages.erase`; publishes Leaderboard.Erased; stops on Leaderboard.Draining.
 * Answers the boards only.
 */
export interface EraserStage extends Service {
	/** Yields until the request is recorded; the work goes on, on whichever server is up. */
	erase(subject: Subject): ErasureReport;
	/** Yields. The erasure recorded for a subject's key; undefined when none was ever requested or the read failed. */
	erasure(subject: Subject): ErasureReport | undefined;
	/** Resolves once no erasure runs here (after stop(): the run under way has handed its progress back). */
	handedBack?(): Promise<void>;
}

/**
 * Rewards: onPeriodEnd(), run once for the experience per finished period. Keeps its records in the
 * manifest; publishes Leaderboard.PeriodEnded and Leaderboard.PeriodEndFailed; stops on
 * Leaderboard.Draining. Answers the boards only.
 */
export interface RewardsStage extends Service {
	onPeriodEnd(board: string, handler: PeriodEndHandler, options?: PeriodEndOptions): void;
}

/**
 * Drainer: destroy(). Closes the Queue (`close`), disarms the Flusher, releases the Reader's waiting
 * readers (`release`) and publishes Leaderboard.Draining; then runs the Flusher's windows (`runWindow`
 * with DrainLimits, `landed`, the counts, `lastThrottled`) until the queue is empty or the deadline, and
 * publishes Leaderboard.Drained with the frozen result. Answers the boards (destroy) and Standing
 * (destroyed).
 */
export interface DrainerStage extends Service {
	destroy(): LuaTuple<[boolean, ShutdownResult]>;
	destroyed(): boolean;
}

/**
 * Replicator: the top rows of boards with Replicate, sent to clients through one RemoteEvent it makes
 * (ReplicatedStorage.Leaderboards.Pages). Hears Leaderboard.Updated; asks the Reader (top, once at
 * start) and the NameResolver (names). A client may send only a ready signal: anything else is
 * ignored and counted. Answers nobody but its counter.
 */
export interface ReplicatorStage extends Service {
	/** What clients sent that was not a ready signal, or came within a second of their last one. */
	ignored(): number;
}

/**
 * The stages, as each sees the others: only through these contracts. A game's own stage (options.Stages)
 * must be a table with its contract's methods and a Name (attach refuses it otherwise, naming the
 * method); an optional method it leaves out switches off what attach's warning names.
 */
export interface Stages {
	readonly Queue: QueueStage;
	readonly Flusher: FlusherStage;
	readonly Reader: ReaderStage;
	readonly NameResolver: NameResolverStage;
	readonly Drainer: DrainerStage;
	readonly Standing: StandingStage;
	readonly Refresher: RefresherStage;
	readonly Pages: PagesStage;
	readonly Herald: HeraldStage;
	readonly Eraser: EraserStage;
	readonly Rewards: RewardsStage;
	readonly Replicator: ReplicatorStage;
}

/** What a stage is built with. `stages` is complete once attach has built them all. */
export interface StageContext {
	readonly kernel: Kernel;
	readonly settings: Settings;
	readonly stats: Stats;
	readonly stages: Stages;
	/** Removed keys, hidden from every read until their removal lands: Reader and Standing ask it. */
	readonly removals: Removals;
	/** The manifest's records (docs/manifest.md): the write path notes periods, Eraser and Rewards keep their work there. */
	readonly manifest: Manifest;
}

/** Builds a stage; options.Stages takes these to replace the defaults. */
export type StageFactory<T> = (context: StageContext) => T;

export interface StageFactories {
	Queue?: StageFactory<QueueStage>;
	Flusher?: StageFactory<FlusherStage>;
	Reader?: StageFactory<ReaderStage>;
	NameResolver?: StageFactory<NameResolverStage>;
	Drainer?: StageFactory<DrainerStage>;
	Standing?: StageFactory<StandingStage>;
	Refresher?: StageFactory<RefresherStage>;
	Pages?: StageFactory<PagesStage>;
	Herald?: StageFactory<HeraldStage>;
	Eraser?: StageFactory<EraserStage>;
	Rewards?: StageFactory<RewardsStage>;
	Replicator?: StageFactory<ReplicatorStage>;
}
