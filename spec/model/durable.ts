import { Entry, PeriodEndInfo } from "../../plugins/leaderboards";
import { periodNamed } from "../../plugins/leaderboards/internal";
import { HeadlessGate } from "../gate/control";

// The model test's durable work (issue 29): erasures requested at random times, an hourly board's
// period end handled by onPeriodEnd on every server, servers killed (closed with no BindToClose: every
// thread of theirs stops, nothing is handed back) at random and in the middle of a handler. Checked
// against the model: an erased key never reappears once its erasure is done and is in no store at
// the end; every finished period that was written has its handler completed, every run of it with
// one idempotency key, never two at once.

/** One run of a period's handler, as the model saw it. */
export interface HandlerRun {
	readonly server: number;
	readonly info: PeriodEndInfo;
	readonly standings: Entry[];
	readonly start: number;
	/** When it returned; undefined while it runs or when its server was killed first. */
	finish?: number;
}

/** An erasure the model asked for. */
export interface Erasure {
	readonly key: string;
	readonly requested: number;
	/** When the model first saw it done (its record), from then on the key must stay gone. */
	done?: number;
}

/** The hourly board's name in BOARD_KINDS. */
export const HOURLY = "Hourly";

export class DurableModel {
	readonly runs = new Array<HandlerRun>();
	readonly erasures = new Map<string, Erasure>();
	readonly killedAt = new Map<number, number>();

	constructor(
		private readonly gate: HeadlessGate,
		private readonly random: Random,
		/** Kills server `index` (the model's own bookkeeping included). */
		private readonly kill: (index: number) => void,
	) {}

	/**
	 * The handler server `index` registers: it yields a while (now and then past the 60 s lease, which its
	 * renewals keep), and half the time its server dies meanwhile.
	 */
	handlerFor(index: number, pause: (seconds: number) => void) {
		return (standings: Entry[], info: PeriodEndInfo) => {
			const run: HandlerRun = { server: index, info, standings, start: this.gate.now() };
			this.runs.push(run);
			const work =
				this.random.NextNumber() < 0.3 ? this.random.NextNumber(60, 100) : this.random.NextNumber(0, 15);
			if (this.random.NextNumber() < 0.5) task.delay(this.random.NextNumber(0, work), () => this.kill(index));
			// On the server's own clock: a thread it owns stops with it (this spec's task.wait would not).
			pause(work);
			run.finish = this.gate.now();
		};
	}

	/** A key being erased (or erased): the game submits it no more. */
	isErased(key: string): boolean {
		return this.erasures.has(key);
	}

	requested(key: string) {
		if (!this.erasures.has(key)) this.erasures.set(key, { key, requested: this.gate.now() });
	}

	/** Erasures whose record says done, noted the first time it does. */
	noteDone(manifest: Map<string, unknown>) {
		for (const [key, erasure] of this.erasures) {
			const record = manifest.get(`erasure:${key}`) as { State?: string } | undefined;
			if (erasure.done === undefined && record?.State === "done") erasure.done = this.gate.now();
		}
	}

	/** The keys whose erasure was recorded (erasure:<key> exists). */
	recorded(manifest: Map<string, unknown>): string[] {
		const keys = new Array<string>();
		for (const [key] of this.erasures) if (manifest.get(`erasure:${key}`) !== undefined) keys.push(key);
		return keys;
	}

	/** A stored key that must not be there: erased, and done. */
	reappeared(key: string): boolean {
		return this.erasures.get(key)?.done !== undefined;
	}

	/**
	 * At the end: every erasure done; each period that was written (periods:Hourly) and has ended has a
	 * done record and a run that returned, every run of it with the record's idempotency key, none
	 * overlapping another (a run ends when it returns or its server is killed).
	 */
	violations(manifest: Map<string, unknown>, now: number): string[] {
		const found = new Array<string>();
		// An erase() whose server was killed before it recorded the request never reached the game's stores.
		for (const key of this.recorded(manifest))
			if (this.erasures.get(key)!.done === undefined) found.push(`the erasure of ${key} was never done`);
		const ids = (manifest.get(`periods:${HOURLY}`) as { Ids?: string[] } | undefined)?.Ids ?? [];
		for (const id of ids) {
			const runs = this.runs.filter((run) => run.info.Period === id);
			const record = manifest.get(`rewards:${HOURLY}@${id}`) as
				{ State?: string; IdempotencyKey?: string } | undefined;
			const ended = runs.size() > 0 || record !== undefined;
			if (!ended) {
				if (this.hourEnd(id) + 60 < now) found.push(`${id} ended and no handler ran`);
				continue;
			}
			if (record?.State !== "done") found.push(`${id}: its record is ${record?.State ?? "missing"}, not done`);
			if (!runs.some((run) => run.finish !== undefined)) found.push(`${id}: no run of its handler returned`);
			for (const run of runs)
				if (run.info.IdempotencyKey !== record?.IdempotencyKey)
					found.push(`${id}: a run saw key ${run.info.IdempotencyKey}, the record ${record?.IdempotencyKey}`);
			for (const overlap of this.overlaps(id, runs)) found.push(overlap);
		}
		return found;
	}

	// Runs of one period that overlapped: each must end (return, or die with its server) before the next starts.
	private overlaps(id: string, runs: HandlerRun[]): string[] {
		const sorted = [...runs].sort((a, b) => a.start < b.start);
		const found = new Array<string>();
		for (let i = 1; i < sorted.size(); i++) {
			const before = sorted[i - 1];
			const ended = before.finish ?? this.killedAt.get(before.server) ?? math.huge;
			if (ended > sorted[i].start)
				found.push(`${id}: runs on servers ${before.server} and ${sorted[i].server} overlapped`);
		}
		return found;
	}

	// The Unix second an hourly period id ("2026-12-31T23") ends.
	private hourEnd(id: string): number {
		return periodNamed({ Reset: "Hourly", ResetOffset: 0, WeekStart: 1 }, id)?.Finish ?? math.huge;
	}
}
