import { Logger, Timers, within } from "../../../../kernel";
import {
	Board,
	CONTRACT,
	Entry,
	Period,
	PeriodEndHandler,
	PeriodEndInfo,
	RewardsRecord,
	StageContext,
	Topics,
} from "../../contracts";
import { leaseFree, MANIFEST_VERSION, recordOf } from "../../core";

const log = Logger.scope("Leaderboards");

/** Seconds a period's lease lasts: a runner that died is replaced this long after its last renewal. */
export const REWARD_LEASE_SECONDS = 60;
/** A runner renews its lease this often while its handler runs. */
export const RENEW_SECONDS = 20;
/** The first retry after a handler error (or a failed read), doubling with each attempt... */
export const RETRY_SECONDS = 10;
/** ...up to this. */
export const MAX_RETRY_SECONDS = 600;

/** A board's handler as onPeriodEnd() registered it. */
export interface Registration {
	readonly board: Board;
	readonly handler: PeriodEndHandler;
	readonly count: number;
	readonly settle: number;
}

/** What a check found: the period is done (or has nothing to reward), or should be checked again at `at` (Unix seconds). */
export type Outcome = { readonly kind: "done" } | { readonly kind: "retry"; readonly at: number };

const DONE: Outcome = { kind: "done" };

/**
 * One check of one finished period: done, leased by another server (checked again when its lease runs
 * out), backing off after an error, never written (nothing to reward), or free: this server takes the
 * lease (rewards:<Storage>@<id>), reads the final standings from the store, and runs the handler,
 * renewing the lease while it runs, so no other server runs it meanwhile. Returned: the period is
 * marked done; errored: the error and the next try (RETRY_SECONDS, doubling) are recorded and reported.
 */
export class PeriodRun {
	private readonly key: string;
	private record?: RewardsRecord;

	constructor(
		private readonly context: StageContext,
		private readonly registration: Registration,
		private readonly period: Period,
		/** A turn on the stage's timers (the Scheduler's next step); false once destroy() cancelled them. */
		private readonly turn: () => boolean,
	) {
		this.key = CONTRACT.Names.Keys.Rewards + registration.board.storageFor(period.Id);
	}

	/** Yields, through the handler when this server runs it. */
	run(): Outcome {
		const { manifest } = this.context;
		// After the close no check begins: it is left for another server (or this one's next start).
		if (!this.turn()) return this.later(0);
		const now = manifest.now();
		const [ok, value] = manifest.read(this.key);
		if (!ok) return this.later(RETRY_SECONDS);
		const found = recordOf<RewardsRecord>(value, "State");
		if (found?.State === "done") return DONE;
		if (!leaseFree(found, manifest.server, now)) return { kind: "retry", at: found!.Until };
		// Never written: no standings, nothing to reward.
		if (!found && !manifest.periods(this.registration.board)?.includes(this.period.Id)) return DONE;
		if (!this.lease()) return this.later(REWARD_LEASE_SECONDS);
		// destroy() meanwhile: the period goes back at once, for another server.
		if (!this.turn()) return this.release(manifest.now(), undefined, true);
		const standings = this.standings();
		if (!standings) return this.release(manifest.now() + RETRY_SECONDS, undefined, true);
		return this.call(standings);
	}

	private later(seconds: number): Outcome {
		return { kind: "retry", at: this.context.manifest.now() + seconds };
	}

	// Takes the lease (a done or held record is left alone): the attempt is counted, the key kept.
	private lease(): boolean {
		const { manifest, settings } = this.context;
		const fresh = `${settings.storePrefix}${this.registration.board.storageFor(this.period.Id)}`;
		let taken: RewardsRecord | undefined;
		const [ok] = manifest.update(this.key, (old) => {
			const record = recordOf<RewardsRecord>(old, "State");
			const now = manifest.now();
			taken = undefined;
			if (record?.State === "done" || !leaseFree(record, manifest.server, now)) return undefined;
			taken = {
				Version: MANIFEST_VERSION,
				State: "running",
				Holder: manifest.server,
				Until: now + REWARD_LEASE_SECONDS,
				IdempotencyKey: record?.IdempotencyKey ?? fresh,
				Attempts: (record?.Attempts ?? 0) + 1,
				Error: record?.Error,
			};
			return taken;
		});
		this.record = ok ? taken : undefined;
		return this.record !== undefined;
	}

	// The period's final top Count, read from the store (the experience's one read), erased keys left out.
	private standings(): Entry[] | undefined {
		const { kernel, settings, removals } = this.context;
		const { board, count } = this.registration;
		const call = within(kernel.Scheduler, settings.RequestSeconds, () =>
			board.sorted(board.storageFor(this.period.Id), count, true),
		);
		if (!call.ok || call.value === undefined) return undefined;
		const entries = new Array<Entry>();
		for (const row of call.value)
			if (!removals.hides(board.Name, row.Key))
				entries.push({ Key: row.Key, Value: row.Value, Rank: entries.size() + 1 });
		return entries;
	}

	// Runs the handler under the lease, renewed while it runs; then done, or the error recorded.
	private call(standings: Entry[]): Outcome {
		const { kernel, manifest } = this.context;
		const record = this.record!;
		const { board, handler } = this.registration;
		const info: PeriodEndInfo = table.freeze({
			Board: board.Name,
			Period: this.period.Id,
			Start: this.period.Start,
			Finish: this.period.Finish,
			IdempotencyKey: record.IdempotencyKey,
			Attempt: record.Attempts,
		});
		const renewal = new Timers(kernel.Scheduler);
		renewal.every("renew", RENEW_SECONDS, () => this.renew());
		const [ok, problem] = pcall(handler, standings, info);
		renewal.destroy();
		if (ok) {
			const done = { ...record, State: "done" as const, Holder: undefined, Error: undefined };
			done.Finished = manifest.now();
			const [written] = manifest.update(this.key, (old) => (this.holds(old) ? done : undefined));
			if (!written) return this.later(RETRY_SECONDS);
			kernel.Bus.publish(Topics.PeriodEnded, board.Name, this.period.Id, record.IdempotencyKey);
			return DONE;
		}
		const wait = math.min(MAX_RETRY_SECONDS, RETRY_SECONDS * 2 ** (record.Attempts - 1));
		log.warn(
			`onPeriodEnd(${board.Name}) errored for ${this.period.Id} (attempt ${record.Attempts}): ${problem}; retried in ${wait} s`,
		);
		kernel.Bus.publish(Topics.PeriodEndFailed, board.Name, this.period.Id, tostring(problem), record.Attempts);
		return this.release(manifest.now() + wait, tostring(problem));
	}

	// Keeps the lease while the handler runs (a handler that yields long is not taken over).
	private renew() {
		const { manifest } = this.context;
		const expires = manifest.now() + REWARD_LEASE_SECONDS;
		manifest.update(this.key, (old) => (this.holds(old) ? { ...this.record!, Until: expires } : undefined));
	}

	// Lets the lease go: nobody runs the period before `at` (a retry's backoff), then any server may. `unrun`:
	// the handler was not called, so the attempt does not count.
	private release(at: number, problem: string | undefined, unrun = false): Outcome {
		const record = this.record!;
		const attempts = unrun ? record.Attempts - 1 : record.Attempts;
		const back = { ...record, Holder: undefined, Until: at, Error: problem ?? record.Error, Attempts: attempts };
		this.context.manifest.update(this.key, (old) => (this.holds(old) ? back : undefined));
		return { kind: "retry", at };
	}

	// The stored record is still this server's running lease.
	private holds(old: unknown): boolean {
		const record = recordOf<RewardsRecord>(old, "State");
		return record?.State === "running" && record.Holder === this.context.manifest.server;
	}
}
