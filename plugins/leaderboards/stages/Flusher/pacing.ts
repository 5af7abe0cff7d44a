import { StageContext, WindowSummary } from "../../types";

/** Under a backlog the request budget held back, the next window comes this long (at most FlushSeconds) after the last. */
export const REFILL_SECONDS = 1;

// How much a window takes and when the next comes: a round is the windows that give every key
// queued when it began one write.
export class Pacing {
	// Whether the last window left behind keys it had no budget for.
	leftBehind = false;
	// Writes left in this round (keys queued when it began), and whether the
	// window about to run was armed early, continuing the round.
	private roundLeft = 0;
	continuing = false;

	constructor(private readonly context: StageContext) {}

	// A window begins: the most it takes (a round's later windows take no more than its keys still due).
	begin(): number {
		const continuing = this.continuing;
		this.continuing = false;
		if (!continuing) this.roundLeft = this.context.stages.Queue.pending();
		return continuing ? this.roundLeft : math.huge;
	}

	// The window's write cap: WritesPerFlush, capped by the backend's budget.
	budget(): number {
		const { WritesPerFlush, store } = this.context.settings;
		const available = store.budget();
		const budget = available === undefined ? WritesPerFlush : math.min(WritesPerFlush, available);
		return math.max(0, math.floor(budget));
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
