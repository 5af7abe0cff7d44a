import { StageContext, Store, WindowSummary } from "../../contracts";
import { drainReserve } from "../../core";

/** Under a backlog the request budget held back, the next window comes this long (at most FlushSeconds) after the last. */
export const REFILL_SECONDS = 1;

/** Writes an ordinary window keeps for prompt windows (records) beyond the drain reserve, when it keeps one. */
export const RECORD_ROOM = 10;

/**
 * A drain reserve is sized for the most keys queued in this long: the queue swings as players
 * score and windows write, and a reserve that followed it would shut prompt windows out at its peaks.
 */
export const HIGH_WATER_SECONDS = 60;

// How much a window takes and when the next comes: a round is the windows that give every key
// queued when it began one write.
export class Pacing {
	// Whether the last window left behind keys it had no budget for.
	leftBehind = false;
	// Writes left in this round (keys queued when it began), and whether the
	// window about to run was armed early, continuing the round.
	private roundLeft = 0;
	continuing = false;
	// Each board's budget group (by its place in boardNames), and one store of each group: boards
	// whose backends share a request budget (Backend.kind) spend it once.
	readonly groupOf = new Array<number>();
	private readonly groups = new Array<Store>();
	// Each group's most keys queued since highWaterAt (HIGH_WATER_SECONDS at most).
	private readonly highWater = new Array<number>();
	private readonly highWaterAt = new Array<number>();

	constructor(private readonly context: StageContext) {
		const { boards, boardNames } = context.settings;
		const found = new Map<unknown, number>();
		for (const name of boardNames) {
			const store = boards.get(name)!.Store;
			let group = found.get(store.budgetGroup);
			if (group === undefined) {
				group = this.groups.size();
				found.set(store.budgetGroup, group);
				this.groups.push(store);
			}
			this.groupOf.push(group);
		}
	}

	// A window begins: the most it takes (a round's later windows take no more than its keys still due).
	begin(): number {
		const continuing = this.continuing;
		this.continuing = false;
		if (!continuing) this.roundLeft = this.context.stages.Queue.pending();
		return continuing ? this.roundLeft : math.huge;
	}

	// A window's writes: what each budget group may write (WritesPerFlush capped by its backend's
	// budget(), less its drain reserve when `holding`, and RECORD_ROOM more unless it writes `records`),
	// and the window's cap, at most WritesPerFlush (and `limit`) in all.
	allot(
		allowance: ReadonlyArray<number>,
		limit: number,
		holding: boolean,
		records: boolean,
	): LuaTuple<[number[], number]> {
		const left = this.budgets(allowance, holding ? this.reserves(records ? 0 : RECORD_ROOM) : undefined);
		let total = 0;
		for (const budget of left) total += budget;
		return $tuple(left, math.min(total, this.context.settings.WritesPerFlush, limit));
	}

	// Asked only of groups with keys to take (`allowance`, per board), or of every group when none has.
	private budgets(allowance: ReadonlyArray<number>, reserves?: ReadonlyArray<number>): number[] {
		const { WritesPerFlush } = this.context.settings;
		const wanted = this.groups.map(() => false);
		let any = false;
		allowance.forEach((count, board) => {
			if (count <= 0) return;
			wanted[this.groupOf[board]] = true;
			any = true;
		});
		return this.groups.map((store, group) => {
			if (any && !wanted[group]) return 0;
			const available = store.budget();
			const spendable = available === undefined ? undefined : available - (reserves?.[group] ?? 0);
			const budget = spendable === undefined ? WritesPerFlush : math.min(WritesPerFlush, spendable);
			return math.max(0, math.floor(budget));
		});
	}

	// Each group's drain reserve for every key queued on its boards now (a prompt window's included:
	// the drain writes them all) and `room` more when it has one; 0 for a backend without budgetRate().
	private reserves(room: number): number[] {
		const { boardNames } = this.context.settings;
		const queue = this.context.stages.Queue;
		const queued = this.groups.map(() => 0);
		boardNames.forEach((board, index) => (queued[this.groupOf[index]] += queue.pendingOn(board)));
		return this.groups.map((store, group) => {
			const perMinute = store.budgetRate();
			if (perMinute === undefined) return 0;
			const keys = this.mostQueued(group, queued[group]);
			const reserve = drainReserve(keys, perMinute, this.context.settings.ShutdownSeconds);
			return reserve > 0 ? reserve + room : 0;
		});
	}

	// The most keys a group had queued in the last HIGH_WATER_SECONDS or so, `queued` now included.
	private mostQueued(group: number, queued: number): number {
		const now = this.context.kernel.Scheduler.now();
		if ((this.highWater[group] ?? 0) <= queued || now - this.highWaterAt[group] > HIGH_WATER_SECONDS) {
			this.highWater[group] = queued;
			this.highWaterAt[group] = now;
		}
		return this.highWater[group];
	}

	// Seconds to the next window after `summary`: FlushSeconds unless a backlog
	// remains in this round that nothing failed on; then as soon as the budget allows.
	pace(summary?: WindowSummary): number {
		const { FlushSeconds, WritesPerFlush } = this.context.settings;
		if (summary) this.roundLeft -= summary.Attempted;
		if (!summary || !this.leftBehind || summary.Failed > 0 || this.roundLeft <= 0) return FlushSeconds;
		const capped = summary.Budget > 0 && summary.Budget >= math.floor(WritesPerFlush);
		return capped ? 0 : math.min(FlushSeconds, REFILL_SECONDS);
	}
}
