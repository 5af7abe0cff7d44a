import { Logger, join, within } from "../../../../kernel";
import { CONTRACT, ErasureRecord, StageContext, Topics } from "../../contracts";
import { landingSeconds, leaseFree } from "../../core";
import { INDEX_KEY, erasureOf, indexWith, recordKey, reportOf, unplanned } from "./record";
import { Target, byName, targetsOf } from "./targets";

const log = Logger.scope("Leaderboards");

/** Seconds an erasure's lease lasts: a holder that died is replaced this long after its last renewal. */
export const ERASURE_LEASE_SECONDS = CONTRACT.Leases.Seconds;
/** The holder writes its progress (and renews the lease) this often. */
export const PROGRESS_SECONDS = CONTRACT.Leases.ProgressSeconds;
/** A remove the store refused (its budget) or that failed is tried again this much later. */
export const REMOVE_RETRY_SECONDS = 2;
/** Removes an erasure leaves in the store's budget for remove() and the game's own. */
export const REMOVE_RESERVE = 2;
/** The sweep covers the periods that ended this long before the request: a value queued then may land late. */
export const SWEEP_BACK_SECONDS = 3600;
/** Every server reads the erasures index this often (and at start): a pending key is blocked within it. */
export const POLL_SECONDS = 60;
/** Beyond the poll and a write's deadline and hold, before the sweep. */
export const SWEEP_MARGIN = 5;
/**
 * A hand-back write not answered this soon is sent again (the same progress, written only while this
 * server holds the lease), up to HAND_BACK_ATTEMPTS writes: a close must land one before its server ends.
 */
export const HAND_BACK_SECONDS = 1;
export const HAND_BACK_ATTEMPTS = 4;

/**
 * How a run ended: the key is erased; the work went back to the manifest; another server holds it; or
 * what is left is in stores of boards this server does not have (a server that has them finishes it).
 */
export type RunEnd = "done" | "handed back" | "busy" | "elsewhere";

/** A record erase() wrote with this server's lease, and the stores erase() listed for it. */
export interface Leased {
	readonly record: ErasureRecord;
	readonly targets: Target[];
}

/**
 * One erasure, worked on by this server while it holds the record's lease (Holder, Until). Removes
 * the key from every store still Remaining, writing progress every PROGRESS_SECONDS (which renews
 * the lease), then sweeps: once every server has blocked the key (one poll) and every write in
 * flight then has landed or been given up on, it removes the key again from the stores such a write
 * could reach (all-time boards, periods ending after SWEEP_BACK_SECONDS before the request). Then the
 * record is done and the key leaves the index. Each remove and each wait is a turn on the stage's timers
 * (`turn`): once destroy() cancelled them, the run hands the work back at its next turn (the record keeps
 * its progress and any server resumes it), so nothing is removed or written after the close but that.
 */
export class ErasureRun {
	private record!: ErasureRecord;
	private renewed = 0;
	private lost = false;
	private planned = true;

	constructor(
		private readonly context: StageContext,
		readonly key: string,
		/** Waits `seconds` (none: the Scheduler's next step) on the stage's timers; false once the close came. */
		private readonly turn: (seconds?: number) => boolean,
		/** The record as erase() wrote it with this server's lease, and the stores it listed: no read to begin. */
		private readonly taken?: Leased,
	) {}

	/** Yields until the erasure is done, handed back, or found held by another server. */
	run(): RunEnd {
		// Begun after the close: a lease erase() took goes straight back, and nothing else is done.
		if (!this.turn()) {
			if (!this.taken) return "handed back";
			this.hold(this.taken.record);
			return this.handBack();
		}
		const lease = this.taken ? this.hold(this.taken.record) : this.lease();
		if (lease === "done") return this.indexed();
		if (lease === "busy") return "busy";
		const targets = this.taken?.targets ?? targetsOf(this.context.manifest, this.context.settings);
		if (!targets) return this.handBack();
		// A request written from outside the game (the Open Cloud tool) may list no stores: the first holder does.
		if (!this.planned) for (const target of targets) this.record.Remaining.push(target.name);
		const named = byName(targets);
		for (const name of [...this.record.Remaining]) {
			const target = named.get(name);
			// A store of a board this server does not have: left for a server that has it.
			if (!target) continue;
			if (!this.removeFrom(target)) return this.handBack();
			this.record.Remaining = this.record.Remaining.filter((other) => other !== name);
			this.record.Removed.push(name);
		}
		if (!this.record.Remaining.isEmpty()) {
			this.handBack();
			return "elsewhere";
		}
		return this.sweep() ? this.finish() : this.handBack();
	}

	private now() {
		return this.context.manifest.now();
	}

	// Takes the record's lease; false when it is done or held by another server (seen first by a read:
	// every server polls, and only one should write). An indexed key with no record is a request whose
	// server died before writing it: it is recorded now, its stores listed by this run.
	private lease(): "taken" | "busy" | "done" {
		const { manifest } = this.context;
		const [read, value] = manifest.read(recordKey(this.key));
		if (!read) return "busy";
		const seen = erasureOf(value);
		if (seen?.State === "done") return "done";
		if (!leaseFree(seen, manifest.server, this.now())) return "busy";
		let taken: ErasureRecord | undefined;
		const [ok] = manifest.update(recordKey(this.key), (old) => {
			const record = erasureOf(old) ?? unplanned(this.key, this.now());
			taken = undefined;
			if (record.State !== "pending" || !leaseFree(record, manifest.server, this.now())) return undefined;
			taken = { ...record, Holder: manifest.server, Until: this.now() + ERASURE_LEASE_SECONDS };
			return taken;
		});
		if (!ok || !taken) return "busy";
		return this.hold(taken);
	}

	// The record as written with this server's lease: worked on from here.
	private hold(taken: ErasureRecord): "taken" {
		this.planned = taken.Remaining !== undefined;
		this.record = {
			...taken,
			Requested: taken.Requested ?? this.now(),
			Removed: [...(taken.Removed ?? [])],
			Remaining: [...(taken.Remaining ?? [])],
		};
		// When the lease was taken (erase() may have taken it a while before this run began).
		this.renewed = (taken.Until ?? this.now()) - ERASURE_LEASE_SECONDS;
		return "taken";
	}

	// Writes the progress and renews the lease when due; false once the lease is lost (or ran out unrenewed).
	private checkpoint(): boolean {
		const now = this.now();
		if (this.lost) return false;
		if (now - this.renewed < PROGRESS_SECONDS) return true;
		const { manifest } = this.context;
		const progress = { ...this.record, Holder: manifest.server, Until: now + ERASURE_LEASE_SECONDS };
		const [ok] = manifest.update(recordKey(this.key), (old) => {
			const record = erasureOf(old);
			const mine = record?.State === "pending" && record.Holder === manifest.server;
			this.lost = !mine;
			return mine ? progress : undefined;
		});
		if (ok && !this.lost) {
			this.record = progress;
			this.renewed = now;
		}
		if (this.lost) log.warn(`erase ${this.key}: another server took the erasure over; this one stops`);
		return !this.lost && (ok || now < (this.record.Until ?? 0));
	}

	// Removes the key from one store, within its budget (keeping REMOVE_RESERVE), retrying until it lands.
	private removeFrom(target: Target): boolean {
		const { kernel, settings } = this.context;
		const store = target.board.Store;
		for (let wait = 0; this.turn(wait) && this.checkpoint(); wait = REMOVE_RETRY_SECONDS) {
			const budget = store.removeBudget();
			if (budget === undefined || budget > REMOVE_RESERVE) {
				const call = within(kernel.Scheduler, settings.RequestSeconds, () =>
					store.remove(target.storage, this.key),
				);
				if (call.ok && call.value === true) return true;
			}
		}
		return false;
	}

	// Once every server blocks the key and its writes in flight resolved: the stores they could reach, again.
	private sweep(): boolean {
		const { settings, manifest } = this.context;
		const at = this.record.Requested + POLL_SECONDS + landingSeconds(settings) + SWEEP_MARGIN;
		if (!this.turn()) return false;
		while (this.now() < at)
			if (!this.checkpoint() || !this.turn(math.min(PROGRESS_SECONDS, at - this.now()))) return false;
		const targets = targetsOf(manifest, settings);
		if (!targets) return false;
		const since = this.record.Requested - SWEEP_BACK_SECONDS;
		for (const target of targets)
			if ((target.finish === undefined || target.finish > since) && !this.removeFrom(target)) return false;
		// Shared pages drop it now rather than at their next refresh (a hung MemoryStore request must not hold
		// the erasure: the pages drop it at their refresh anyway).
		const { kernel } = this.context;
		within(kernel.Scheduler, settings.RequestSeconds, () => this.context.stages.Pages.erase?.(this.key));
		return true;
	}

	private finish(): RunEnd {
		const { manifest, kernel } = this.context;
		const done: ErasureRecord = { ...this.record, State: "done", Holder: undefined, Until: undefined };
		done.Finished = this.now();
		const [ok] = manifest.update(recordKey(this.key), (old) => {
			const record = erasureOf(old);
			return record?.State === "pending" && record.Holder === manifest.server ? done : undefined;
		});
		if (!ok) return this.handBack();
		kernel.Bus.publish(Topics.Erased, this.key, reportOf(done));
		return this.indexed();
	}

	// Done: out of the index (also when a holder marked it done and could not take it out) and unblocked here.
	private indexed(): RunEnd {
		const { manifest, settings, removals } = this.context;
		manifest.update(INDEX_KEY, (old) => indexWith(old, this.key, false));
		removals.erased(this.key, settings.boardNames);
		return "done";
	}

	// The progress goes back to the record and the lease is let go: any server resumes from there. A write
	// that fails or hangs (past HAND_BACK_SECONDS) is sent again beside it, so a close lands one in time.
	private handBack(): RunEnd {
		const { manifest, kernel } = this.context;
		if (this.lost) return "handed back";
		const back = { ...this.record, Holder: undefined, Until: undefined };
		const write = () =>
			manifest.update(recordKey(this.key), (old) => {
				const record = erasureOf(old);
				return record?.State === "pending" && record.Holder === manifest.server ? back : undefined;
			})[0];
		for (let attempt = 1; attempt <= HAND_BACK_ATTEMPTS; attempt++) {
			const sent = new Promise<boolean>((resolve) => resolve(write()));
			const answer = join(kernel.Scheduler, sent, HAND_BACK_SECONDS).expect();
			if (answer.settled && answer.ok && answer.value === true) break;
		}
		return "handed back";
	}
}
