import { Logger, Timers } from "../../../../kernel";
import { EraserStage, ErasureRecord, ErasureReport, StageContext, Subject, Topics } from "../../contracts";
import { leaseFree, subjectKey, SUBJECTS } from "../../core";
import { INDEX_KEY, erasureOf, indexWith, pendingOf, recordKey, reportOf, requested, unrecordedReport } from "./record";
import { ERASURE_LEASE_SECONDS, ErasureRun, Leased, POLL_SECONDS } from "./run";
import { targetsOf } from "./targets";

const log = Logger.scope("Leaderboards");

/**
 * erase(): a key out of every board, every period, both backends, durably. The request is recorded
 * first (the erasures index, then erasure:<key> with every store the manifest lists still to do), then
 * worked on by one server at a time under the record's lease (ErasureRun). Every server reads the index
 * at start and every POLL_SECONDS: it blocks each pending key (its submits refused, its queued values
 * and a failed write of it dropped, hidden from every read and cache) and takes over an erasure nobody
 * holds, so one a server left (closed, died) is finished by another. destroy() hands the work back, and
 * returns once it has (handedBack(): the drain waits for it within ShutdownSeconds, since a server ends
 * when its close handlers return).
 */
export class Eraser implements EraserStage {
	readonly Name = "Leaderboards.Eraser";
	// Keys this server blocks: their erasure is pending.
	private readonly blocked = new Set<string>();
	// Keys whose stores left to do belong to boards this server does not have.
	private readonly elsewhere = new Set<string>();
	private current?: ErasureRun;
	private busy = false;
	// erase() calls writing their record now (which may take the lease).
	private recording = 0;
	// Resolved when no run and no recording is under way: the close waits on it (handedBack()).
	private readonly idle = new Array<() => void>();
	// Records erase() wrote with this server's lease, until their run begins.
	private readonly leased = new Map<string, Leased>();
	// Keys to work on, in order.
	private readonly queued = new Array<string>();
	// The polls of the index (every POLL_SECONDS) and every wait of a run: stop() cancels them, so after it
	// no poll comes and a run hands its work back at its next turn (ErasureRun), with no flag to check.
	private readonly timers: Timers;

	constructor(private readonly context: StageContext) {
		this.timers = new Timers(context.kernel.Scheduler);
		context.kernel.Bus.subscribe(Topics.Draining, () => this.stop());
	}

	start() {
		if (!this.context.manifest.enabled()) return;
		// The first poll at once, the others on the timers the close cancels.
		task.spawn(() => {
			this.context.manifest.publishLayout();
			this.poll();
			this.timers.every("poll", POLL_SECONDS, () => this.poll());
		});
	}

	stop() {
		this.timers.destroy();
	}

	handedBack(): Promise<void> {
		if (!this.busy && this.recording === 0) return Promise.resolve();
		return new Promise((resolve) => this.idle.push(resolve));
	}

	erase(subject: Subject): ErasureReport {
		const { manifest, settings } = this.context;
		const key = this.keyOf(subject, "erase");
		for (const [, board] of settings.boards) board.Store.needs("remove", "erase()", 3);
		if (!manifest.enabled()) error("Leaderboards: erase() needs the manifest (options.Manifest is false)", 3);
		this.block(key);
		const targets = targetsOf(manifest, settings);
		if (!targets) return this.unrecorded(key, "a board's periods could not be read from the manifest");
		// The index first: a key it lists is carried out even if this server dies before the record is written.
		const [indexed, why] = manifest.update(INDEX_KEY, (old) => indexWith(old, key, true));
		if (!indexed) return this.unrecorded(key, why);
		let report: ErasureReport | undefined;
		let taken: ErasureRecord | undefined;
		// No erasure under way here: the same write takes the lease, so the work starts without a read (after
		// the close, the run hands it straight back).
		const take = !this.busy;
		this.recording += 1;
		const [ok, problem] = manifest.update(recordKey(key), (old) => {
			const record = erasureOf(old);
			// Already pending: that request stands (its progress kept).
			const fresh = record?.State === "pending" ? undefined : requested(key, manifest.now(), []);
			if (fresh) for (const target of targets) fresh.Remaining.push(target.name);
			const kept = fresh ?? record!;
			const now = manifest.now();
			taken = undefined;
			if (take && leaseFree(kept, manifest.server, now))
				taken = { ...kept, Holder: manifest.server, Until: now + ERASURE_LEASE_SECONDS };
			report = reportOf(kept);
			return taken ?? fresh;
		});
		this.recording -= 1;
		if (ok && taken) this.leased.set(key, { record: taken, targets });
		this.work([key]);
		this.wakeClose();
		// Indexed, not recorded: the server that takes it lists the stores itself.
		return ok && report ? report : unrecordedReport(key, true, problem);
	}

	erasure(subject: Subject): ErasureReport | undefined {
		const key = this.keyOf(subject, "erasure");
		const [ok, value] = this.context.manifest.read(recordKey(key));
		const record = ok ? erasureOf(value) : undefined;
		return record && reportOf(record);
	}

	// Pending erasures: blocked here, and worked on when nobody holds them.
	private poll() {
		const [ok, value] = this.context.manifest.read(INDEX_KEY);
		if (ok) {
			const pending = pendingOf(value);
			for (const key of pending) this.block(key);
			for (const key of [...this.blocked]) if (!pending.includes(key)) this.settle(key);
			this.work(pending);
		}
	}

	// One erasure at a time on this server, on its own thread, in request order; one another server holds is
	// skipped until the next poll.
	private work(keys: string[]) {
		for (const key of keys) if (!this.elsewhere.has(key) && !this.queued.includes(key)) this.queued.push(key);
		if (this.busy || this.queued.isEmpty()) return;
		this.busy = true;
		task.spawn(() => {
			while (!this.queued.isEmpty()) {
				const key = this.queued.remove(0)!;
				const leased = this.leased.get(key);
				this.leased.delete(key);
				// After the close a run ends at its first turn: one with a lease erase() took hands it straight back.
				const run = new ErasureRun(this.context, key, () => this.turn(), leased);
				this.current = run;
				const [ok, ended] = pcall(() => run.run());
				if (!ok) log.warn(`erase ${key} errored: ${ended}`);
				if (ended === "done") this.blocked.delete(key);
				if (ended === "elsewhere") this.elsewhere.add(key);
			}
			this.current = undefined;
			this.busy = false;
			this.wakeClose();
		});
	}

	// A run's turn on the stage's timers: false once stop() came (the run hands its work back).
	private turn(seconds = 0): boolean {
		return this.timers.sleep(math.max(seconds, 0)).await()[0];
	}

	// Nothing under way: a close waiting on handedBack() goes on.
	private wakeClose() {
		if (this.busy || this.recording > 0) return;
		for (const resolve of this.idle) resolve();
		this.idle.clear();
	}

	// Blocks a key this server has not blocked yet: out of the queue, every cache and every read.
	private block(key: string) {
		if (this.blocked.has(key)) return;
		const { removals, settings, kernel } = this.context;
		this.blocked.add(key);
		removals.erase(key, settings.boardNames);
		kernel.Bus.publish(Topics.Erasing, key);
	}

	// A blocked key left the index: unblocked once its record says done (or is gone).
	private settle(key: string) {
		if (this.current?.key === key) return;
		const [ok, value] = this.context.manifest.read(recordKey(key));
		if (!ok || erasureOf(value)?.State === "pending") return;
		this.blocked.delete(key);
		this.context.removals.erased(key, this.context.settings.boardNames);
	}

	private unrecorded(key: string, problem: unknown): ErasureReport {
		this.blocked.delete(key);
		this.context.removals.erased(key, this.context.settings.boardNames);
		log.warn(`erase ${key}: not recorded (${tostring(problem)}); call erase() again`);
		return unrecordedReport(key, false, problem);
	}

	// The subject's key; a subject with none is the game's bug: raised at its call, naming it.
	private keyOf(subject: Subject, call: string): string {
		const [key, junk] = subjectKey(subject);
		if (key === undefined) error(`Leaderboards: ${call}() subject is ${junk}: pass ${SUBJECTS}`, 4);
		return key;
	}
}
