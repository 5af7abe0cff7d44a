import { RunService } from "@rbxts/services";
import { DeadlineHeap, HeapEntry } from "./DeadlineHeap";
import { Logger } from "./Logger";

const log = Logger.scope("Scheduler");

/** Which due work goes first at equal deadlines, and which yields when a step runs long. */
export enum Priority {
	High = 0,
	Normal = 1,
	Background = 2,
}

/** An armed deadline. cancel() is idempotent and does nothing once it has fired. */
export interface Deadline {
	readonly due: number;
	readonly priority: Priority;
	/** "pending", "fired" or "cancelled". */
	readonly state: "pending" | "fired" | "cancelled";
	cancel(): void;
}

/** How long a Scheduler step may run Background work, in seconds of its clock. */
export const DEFAULT_STEP_BUDGET = 0.002;

export interface SchedulerOptions {
	/** Time source for deadlines and the step budget. Default os.clock. */
	clock?: () => number;
	/** Seconds of Background work per step before the rest waits for the next step. */
	stepBudget?: number;
	/** What drives the steps. Default RunService.Heartbeat. */
	step?: RBXScriptSignal;
	/**
	 * What wakes the Scheduler for its earliest deadline: arms `callback` to run `seconds` from
	 * now and returns its cancel. Between wakes the step signal is off, so a Scheduler whose next
	 * deadline is far costs no frame. Default task.delay, on the engine's clock; with a clock of
	 * its own and no wake, the step signal is on while any deadline is pending.
	 */
	wake?: Wake;
}

/** Arms `callback` to run `seconds` from now; the function returned cancels it. */
export type Wake = (seconds: number, callback: () => void) => () => void;

// The engine's timer: one thread resumed `seconds` from now.
const engineWake: Wake = (seconds, callback) => {
	const thread = task.delay(seconds, callback);
	return () => task.cancel(thread);
};

class Entry implements HeapEntry, Deadline {
	index = -1;
	state: "pending" | "fired" | "cancelled" = "pending";

	constructor(
		private readonly owner: Scheduler,
		readonly due: number,
		readonly priority: Priority,
		readonly sequence: number,
		readonly callback: () => void,
	) {}

	cancel() {
		if (this.state !== "pending") return;
		this.state = "cancelled";
		this.owner.forget(this);
	}
}

/**
 * Deadlines at three priorities, driven by Heartbeat. Due work runs in deadline
 * order, higher priority first at equal deadlines. Once a step has run
 * stepBudget seconds, due Background work waits for the next step while High
 * and Normal work still runs. Arming and cancelling are O(log n). One engine
 * timer (the wake) is armed for the earliest deadline, and re-armed when an
 * earlier one is added or the earliest is cancelled; the step signal is
 * connected from the wake until no work is due, so a server pays nothing per
 * frame while idle or while its next deadline is seconds away.
 *
 * Callbacks run on the step and must not yield: work that yields moves to its
 * own thread (task.spawn). A callback that errors is logged and the step goes on.
 */
export class Scheduler {
	private readonly heaps = [new DeadlineHeap<Entry>(), new DeadlineHeap<Entry>(), new DeadlineHeap<Entry>()];
	private readonly clock: () => number;
	private readonly stepBudget: number;
	private readonly stepSignal: RBXScriptSignal;
	private readonly wake?: Wake;
	private connection?: RBXScriptConnection;
	// The wake armed, and the deadline it is armed for.
	private alarm?: () => void;
	private alarmAt = 0;
	private sequence = 0;

	constructor(options: SchedulerOptions = {}) {
		this.clock = options.clock ?? os.clock;
		this.stepBudget = options.stepBudget ?? DEFAULT_STEP_BUDGET;
		this.stepSignal = options.step ?? RunService.Heartbeat;
		// A clock of the caller's own runs on a time the engine's timer does not count.
		this.wake = options.wake ?? (options.clock ? undefined : engineWake);
	}

	/** Arms callback to run `seconds` from now at `priority`. */
	after(seconds: number, priority: Priority, callback: () => void): Deadline {
		this.sequence += 1;
		const entry = new Entry(this, this.clock() + math.max(seconds, 0), priority, this.sequence, callback);
		this.heaps[priority].push(entry);
		this.settle();
		return entry;
	}

	/** The time on this Scheduler's clock: what deadlines are measured against. */
	now(): number {
		return this.clock();
	}

	/** Deadlines armed and not yet fired or cancelled. */
	pending(): number {
		const [high, normal, background] = this.heaps;
		return high.size() + normal.size() + background.size();
	}

	/** @internal Called by a deadline's cancel(). */
	forget(entry: Entry) {
		this.heaps[entry.priority].remove(entry);
		this.settle();
	}

	/**
	 * Runs the work that is due now; the step signal calls it each frame while work is due.
	 * Deadlines armed during the step wait for the next one.
	 */
	step() {
		const started = this.clock();
		const lastArmed = this.sequence;
		let backgroundOpen = true;
		for (;;) {
			let due: Entry | undefined;
			for (const heap of this.heaps) {
				const top = heap.peek();
				if (!top || top.due > started || top.sequence > lastArmed) continue;
				if (top.priority === Priority.Background && !backgroundOpen) continue;
				if (!due || top.due < due.due || (top.due === due.due && top.priority < due.priority)) due = top;
			}
			if (!due) break;
			if (due.priority === Priority.Background && this.clock() - started >= this.stepBudget) {
				backgroundOpen = false;
				continue;
			}
			this.heaps[due.priority].remove(due);
			due.state = "fired";
			const [ok, problem] = pcall(due.callback);
			if (!ok) log.error(`a deadline callback errored: ${problem}`);
		}
		// Nothing left due: the step signal goes off until the wake.
		const first = this.earliest();
		if (this.wake && !(first && first.due <= this.clock())) this.listen(false);
		this.settle();
	}

	// After every change: the step signal on while work is due, else the wake armed for the earliest deadline.
	private settle() {
		const first = this.earliest();
		if (!first) {
			this.listen(false);
			this.disarm();
		} else if (!this.wake) {
			this.listen(true);
		} else if (!this.connection && !(this.alarm && this.alarmAt === first.due)) {
			this.disarm();
			this.alarmAt = first.due;
			this.alarm = this.wake(first.due - this.clock(), () => {
				this.alarm = undefined;
				this.listen(true);
			});
		}
	}

	private earliest(): Entry | undefined {
		let first: Entry | undefined;
		for (const heap of this.heaps) {
			const top = heap.peek();
			if (top && (!first || top.due < first.due)) first = top;
		}
		return first;
	}

	private listen(on: boolean) {
		if (on && !this.connection) this.connection = this.stepSignal.Connect(() => this.step());
		if (!on && this.connection) {
			this.connection.Disconnect();
			this.connection = undefined;
		}
	}

	private disarm() {
		this.alarm?.();
		this.alarm = undefined;
	}
}
