import { Settings } from "../contracts";

/** After a window with failures, or one the request budget left empty, the drain waits this long before the next. */
export const FAILURE_PAUSE = 0.25;
/** Each further window in a row with failures multiplies the pause by this much... */
export const PAUSE_GROWTH = 1.25;
/** ...up to this long. */
export const LONGEST_PAUSE = 1;
/**
 * This many windows in a row in which every write failed end the drain with
 * "made no progress": a store that accepts nothing, not one transient failure.
 * A store that fails instantly ends after the pauses between them: 0.25 +
 * 0.3125 + 0.39 + 0.49 = 1.44 s.
 */
export const FAILED_WINDOWS = 5;
/**
 * ...and at least this many failed writes in those windows: a drain whose budget
 * takes a key or two a window (a small server's share) has not seen a dead store
 * in five failures (a store failing 40% of writes fails five in a row 1% of the time).
 */
export const FAILED_WRITES = 8;

/** The pause after the `failing`-th window in a row with failures (1 for the first). */
export function drainPause(failing: number): number {
	return math.min(LONGEST_PAUSE, FAILURE_PAUSE * PAUSE_GROWTH ** math.max(0, failing - 1));
}

/** The most a drain reserve holds back: this part of a minute of the budget's refill. */
export const RESERVE_PART = 0.5;
/** The part of ShutdownSeconds a drain reserve counts on refill for: the rest goes on round trips and pauses. */
export const REFILL_PART = 0.5;

/**
 * Writes an ordinary window leaves unspent under a sustained backlog, so the
 * close drain can write every one of the `pending` keys within
 * `shutdownSeconds`: what the budget's refill (`perMinute`) would not bring in
 * REFILL_PART of that time. None when that is more than RESERVE_PART of a
 * minute's: the close could not write them all anyway, and the budget is
 * better spent now (fresher boards). Steady throughput is unchanged (a budget
 * holds a minute and refills at its rate either way); the reserve is built once.
 */
export function drainReserve(pending: number, perMinute: number, shutdownSeconds: number): number {
	// ShutdownSeconds 0 drains nothing: nothing to keep for it.
	if (shutdownSeconds <= 0) return 0;
	const short = math.ceil(pending - (perMinute / 60) * shutdownSeconds * REFILL_PART);
	return short > 0 && short <= perMinute * RESERVE_PART ? short : 0;
}

/**
 * The longest a value submitted now takes to land or be given up on: the wait for its window
 * (FlushSeconds), then its write's RequestSeconds and the hold past it (RequestSeconds more). A read
 * that must see every value submitted before a moment (a period's final standings, an erasure's
 * sweep) comes at least this long after it.
 */
export function landingSeconds(settings: Settings): number {
	return settings.FlushSeconds + 2 * settings.RequestSeconds;
}
