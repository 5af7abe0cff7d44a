import { Entry } from "./entries";

// What games see of the work that outlives a server: erasures and period ends.

/** What erase() and erasure() tell: the erasure as the manifest records it (docs/manifest.md, erasure:<key>). */
export interface ErasureReport {
	readonly Key: string;
	/**
	 * "pending": recorded; some server is removing (or will resume). "done": the key is in no store any board
	 * wrote. "failed": the request could not be recorded (Error says why): nothing was done, call erase() again.
	 */
	readonly State: "pending" | "done" | "failed";
	/** Unix seconds the erasure was recorded. */
	readonly Requested?: number;
	/** Unix seconds it was done. */
	readonly Finished?: number;
	/** Full store names the key was removed from ("CKBoard_DailyKills@2026-12-06"). */
	readonly Removed: ReadonlyArray<string>;
	/** Full store names still to do. */
	readonly Remaining: ReadonlyArray<string>;
	/** Why the request was not recorded ("failed"), or why only the erasures index holds it ("pending", no stores listed yet). */
	readonly Error?: string;
}

/** What an onPeriodEnd handler gets besides the standings. */
export interface PeriodEndInfo {
	readonly Board: string;
	/** The finished period's id ("2026-12-06"). */
	readonly Period: string;
	/** Its span in Unix seconds, Finish excluded. */
	readonly Start: number;
	readonly Finish: number;
	/**
	 * The same string on every server and every attempt for this board and period: record it with what the
	 * handler grants (in the player's profile) and skip a grant that already carries it, so a handler that
	 * runs again (its server died before the period was marked done) grants nothing twice.
	 */
	readonly IdempotencyKey: string;
	/** 1 for the first run of this period's handler, counting every server's. */
	readonly Attempt: number;
}

/** onPeriodEnd's options. Every field is optional. */
export interface PeriodEndOptions {
	/** How many of the final standings the handler gets (the top N). A positive integer; default 10. */
	Count?: number;
	/**
	 * Seconds after the period's end before its standings are read, so values submitted before the end have
	 * landed. Default FlushSeconds + 2 x RequestSeconds + 5 (40 s with the defaults).
	 */
	SettleSeconds?: number;
}

/** A period's handler: the final standings (Rank 1.., the top Count) and the period. May yield; an error is retried. */
export type PeriodEndHandler = (standings: Entry[], info: PeriodEndInfo) => void;
