import { Timers } from "../../../../kernel";
import { PeriodEndHandler, PeriodEndOptions, RewardsStage, StageContext, Topics } from "../../contracts";
import { landingSeconds, periodAt, periodNamed, shown } from "../../core";
import { PeriodRun, RETRY_SECONDS, Registration } from "./period";

/** The standings a handler gets unless told (the top N). */
export const DEFAULT_COUNT = 10;
/** Beyond FlushSeconds and a write's deadline and hold: the default settle delay. */
export const SETTLE_MARGIN = 5;
/** At start, how many of a board's last written periods are checked (a game empty at their end runs them now). */
export const CATCH_UP = 7;
/** Servers check a period up to this many seconds apart, so they seldom race for its lease. */
export const JITTER_SECONDS = 5;

/**
 * onPeriodEnd(board, handler): for each finished period of a Reset board, one server of the experience
 * runs the handler (PeriodRun: a lease on rewards:<Storage>@<id> in the manifest) with the final top
 * Count, read SettleSeconds after the period's end. Every server arms a timer for the roll; at start
 * each also checks the board's last CATCH_UP written periods, so a period that ended while the game was
 * empty (or whose runner died) runs when a server starts. A period leased by another server, or backing
 * off after an error, is checked again when its time runs out. Every check takes its turn on the stage's
 * timers, which destroy() cancels: no check begins after it, a lease whose handler has not begun goes back
 * at once, and a running handler keeps its lease until it returns.
 */
export class Rewards implements RewardsStage {
	readonly Name = "Leaderboards.Rewards";
	private readonly registrations = new Map<string, Registration>();
	// Armed checks, by board (its next roll) and by board@period (a recheck), and each check's turn.
	private readonly timers: Timers;
	private readonly random = new Random();
	// Periods this server is checking now: a second check would pass its own lease (leaseFree lets a holder in).
	private readonly checking = new Set<string>();
	private started = false;

	constructor(private readonly context: StageContext) {
		this.timers = new Timers(context.kernel.Scheduler);
		context.kernel.Bus.subscribe(Topics.Draining, () => this.stop());
	}

	onPeriodEnd(board: string, handler: PeriodEndHandler, options?: PeriodEndOptions) {
		const { settings, manifest } = this.context;
		const config = settings.boards.get(board);
		const fail = (problem: string): never => error(`Leaderboards: onPeriodEnd() ${problem}`, 4);
		if (!config) fail(`board ${shown(board)} is not one of the boards (${settings.boardNames.join(", ")})`);
		if (!config!.Period) fail(`needs a Reset board; ${board} is an all-time board`);
		if (!typeIs(handler, "function")) fail(`handler must be a function (standings, info) (got ${shown(handler)})`);
		if (options !== undefined && !typeIs(options, "table")) fail(`options must be a table (got ${shown(options)})`);
		const count = options?.Count ?? DEFAULT_COUNT;
		if (!typeIs(count, "number") || count < 1 || count % 1 !== 0)
			fail(`options.Count must be a positive integer (got ${shown(count)})`);
		const settle = options?.SettleSeconds ?? landingSeconds(settings) + SETTLE_MARGIN;
		if (!typeIs(settle, "number") || !(settle >= 0 && settle < math.huge))
			fail(`options.SettleSeconds must be a number of seconds, 0 or more (got ${shown(settle)})`);
		if (!manifest.enabled()) fail("needs the manifest (options.Manifest is false)");
		if (this.registrations.has(board)) fail(`already has a handler for ${board}`);
		const registration = { board: config!, handler, count, settle };
		this.registrations.set(board, registration);
		if (this.started) this.watch(registration);
	}

	start() {
		this.started = true;
		for (const [, registration] of this.registrations) this.watch(registration);
	}

	stop() {
		this.timers.destroy();
	}

	private watch(registration: Registration) {
		this.timers.arm(`${registration.board.Name}#catchUp`, 0, () => this.catchUp(registration));
		this.armRoll(registration);
	}

	// The current period's end, then the next's: every server checks each period once it has settled.
	private armRoll(registration: Registration) {
		const now = this.context.manifest.now();
		const period = periodAt(registration.board.Period!, now);
		this.arm(registration.board.Name, period.Finish - now + registration.settle, () => {
			this.armRoll(registration);
			this.check(registration, period.Id);
		});
	}

	// The board's last written periods that have ended, newest first, until one is done.
	private catchUp(registration: Registration) {
		const { manifest } = this.context;
		const ids = manifest.periods(registration.board);
		if (ids === undefined) {
			this.arm(`${registration.board.Name}#catchUp`, RETRY_SECONDS, () => this.catchUp(registration));
			return;
		}
		const current = periodAt(registration.board.Period!, manifest.now()).Id;
		const ended = ids.filter((id) => id < current);
		for (let i = ended.size() - 1; i >= math.max(0, ended.size() - CATCH_UP); i--)
			if (this.check(registration, ended[i])) break;
	}

	// Checks one ended period (yields, through its handler when this server runs it); true when it is done.
	private check(registration: Registration, id: string): boolean {
		const { manifest } = this.context;
		const period = periodNamed(registration.board.Period!, id)!;
		const name = `${registration.board.Name}@${id}`;
		const due = period.Finish + registration.settle;
		if (manifest.now() < due) {
			this.arm(name, due - manifest.now(), () => this.check(registration, id));
			return false;
		}
		if (this.checking.has(name)) return false;
		this.checking.add(name);
		const turn = () => this.timers.sleep(0).await()[0];
		const [ok, outcome] = pcall(() => new PeriodRun(this.context, registration, period, turn).run());
		this.checking.delete(name);
		if (!ok) error(outcome, 0);
		if (outcome.kind === "done") return true;
		this.arm(name, outcome.at - manifest.now(), () => this.check(registration, id));
		return false;
	}

	// A check `seconds` from now (plus a jitter), on its own thread; replaces one armed under the same name.
	private arm(name: string, seconds: number, check: () => void) {
		this.timers.arm(name, math.max(0, seconds) + this.random.NextNumber(0, JITTER_SECONDS), check);
	}
}
