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
 * tells in O(1) that it enters it, asking no one), Leaderboard.Settled (a write returned or was given
 * up on: its key may be taken again; a late success applies to what went back), Leaderboard.WriteFailed
 * (a failed write's value comes back, merged with anything newer, counting the failed window; at
 * MaxWriteAttempts it is dropped instead, never once destroy() began), Leaderboard.Erasing (every value
 * queued for the key goes, on every board and period) and Leaderboard.Draining (every later submit is
 * refused). Publishes Leaderboard.Pending (the queue went from empty to pending), Leaderboard.Prompt (a
 * submit entered the visible top), Leaderboard.Refused and Leaderboard.Dropped (a value, or a removal
 * with a nil value, dropped after MaxWriteAttempts); refuses submits for a key `removals.isErasing`.
 * Answers, now: the boards (submit), the Flusher (pending, pendingOn, waiting, take, takeRecord,
 * recordsOn), the Drainer (pending) and Standing (remove).
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
	 * Queues the removal of a key's stored value (remove()): drops what is queued
	 * for it, and a later submit queues behind the removal. false once draining
	 * or for an unknown board.
	 */
	remove?(board: string, key: string): boolean;
}

/** A drain window's limits: no write starts at or after the deadline (kernel Scheduler time). */
export interface DrainLimits {
	readonly deadline: number;
}

/**
 * Flusher: arms windows and runs capped windows against the backend.
 *
 * Hears Leaderboard.Pending (arm a window), Leaderboard.Prompt (arm a prompt window) and
 * Leaderboard.Draining (cancel the armed window, stop a running one before its next write, arm no more,
 * and give up on every write past RequestSeconds: their keys are written again by the drain). For each
 * write: `manifest.note(board, storage)` before a Reset board's period is first written (false: the
 * write waits), the value through `writeThrough` (the board's encoding and rule), then publishes
 * Leaderboard.WriteFailed for a failed one and Leaderboard.Settled once the backend call returned or was
 * given up on (the Queue hands the key out again). Publishes Leaderboard.Removed (a removal landed:
 * removals and caches depend on it), Leaderboard.Recording (the write of a value that entered the
 * visible top was sent: the Herald announces a keep-best one), Leaderboard.Record (such a value landed:
 * the Herald announces any other) and Leaderboard.Flushed (a window ended). Answers, now: the boards
 * (flushNow) and the Drainer (runWindow, inFlight, unresolved, landed, isWriting, lastThrottled).
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
 * announced). Hears Leaderboard.Removing (drops the key from the current period's cached page),
 * Leaderboard.Erasing (drops it from every cached page), Leaderboard.Heard (patches a record another
 * server announced into the cached page, when newer) and Leaderboard.Draining (every reader waiting on
 * a backend read goes now, with the cached page). Answers, now: the boards (top, scores), the Refresher,
 * the Replicator and Standing (top, scores).
 */
export interface ReaderStage extends Service {
	/** period: "current" (the default), "previous" or a period id, on a Reset board. */
	top(board: string, count?: number, period?: string): Entry[];
	scores(board: string, subjects: ReadonlyArray<Subject>, period?: string): Map<string, number> | undefined;
}

/**
 * Standing: where a subject stands (rank, around, friends) and remove().
 *
 * Asks the Reader (top, scores), the Queue (remove), the Drainer (destroyed) and `removals` (hide,
 * hides, onSettled); publishes Leaderboard.Removing once a removal is queued. Answers the boards only.
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
 * Hears Leaderboard.Draining (a wait for another server's refresh ends). Answers the Reader (read) and the
 * Eraser (erase).
 */
export interface PagesStage extends Service {
	/** Yields. The page of a storage name, shared or read; undefined when no page could be had. */
	read(board: Board, storage: string, count: number): SharedPage | undefined;
	/** Yields. Drops an erased key from every shared page that holds it; false when MemoryStore failed. */
	erase?(key: string): boolean;
}

/**
 * Herald: records announced on MessagingService and patched into every server's page. Hears
 * Leaderboard.Recording (a keep-best record, as its write is sent) and Leaderboard.Record (any other,
 * as it lands; every record when the Flusher publishes no Recording); publishes what other servers
 * announce as Leaderboard.Heard. Answers nobody.
 */
export type HeraldStage = Service;

/**
 * Refresher: keeps RefreshSeconds boards' top pages fresh on a timer (through `Reader.top`) until
 * Leaderboard.Draining. Answers nobody.
 */
export type RefresherStage = Service;

/**
 * NameResolver: DisplayName and Username for entries keyed by UserId. Hears Leaderboard.Erasing (forgets
 * what it knows of the key's user). Answers, now: the boards and the Replicator (names).
 */
export interface NameResolverStage extends Service {
	names(entries: Entry[]): Entry[];
}

/**
 * Eraser: erase() and erasure(); resumes any server's unfinished erasure. Keeps its records in the
 * manifest; blocks a key through `removals.erase`/`erased` and Leaderboard.Erasing (the Queue, the
 * Reader and the NameResolver drop what they hold of it), and asks `Pages.erase`; publishes
 * Leaderboard.Erased; stops on Leaderboard.Draining. Answers the boards, and the Drainer (handedBack).
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
 * Drainer: destroy(). Publishes Leaderboard.Draining (the Queue refuses submits, the Flusher disarms,
 * the Reader lets its waiting readers go, the Refresher, Eraser and Rewards stop), then joins the
 * writes in flight (`Flusher.landed`), runs the Flusher's windows (`runWindow` with DrainLimits, each
 * window's summary and `lastThrottled`) until the queue is empty (`Queue.pending`), no progress or the
 * deadline, joins the erasure under way (`Eraser.handedBack`), all within ShutdownSeconds, and
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
