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
}

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
 * and Normal work still runs. Arming and cancelling are O(log n); the step
 * signal is connected only while a deadline is pending, so an idle server pays
 * nothing per frame.
 *
 * Callbacks run on the step and must not yield: work that yields moves to its
 * own thread (task.spawn). A callback that errors is logged and the step goes on.
 */
export class Scheduler {
	private readonly heaps = [new DeadlineHeap<Entry>(), new DeadlineHeap<Entry>(), new DeadlineHeap<Entry>()];
	private readonly clock: () => number;
	private readonly stepBudget: number;
	private readonly stepSignal: RBXScriptSignal;
	private connection?: RBXScriptConnection;
	private sequence = 0;

	constructor(options: SchedulerOptions = {}) {
		this.clock = options.clock ?? os.clock;
		this.stepBudget = options.stepBudget ?? DEFAULT_STEP_BUDGET;
		this.stepSignal = options.step ?? RunService.Heartbeat;
	}

	/** Arms callback to run `seconds` from now at `priority`. */
	after(seconds: number, priority: Priority, callback: () => void): Deadline {
		this.sequence += 1;
		const entry = new Entry(this, this.clock() + math.max(seconds, 0), priority, this.sequence, callback);
		this.heaps[priority].push(entry);
		if (!this.connection) this.connection = this.stepSignal.Connect(() => this.step());
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
	 * Runs the work that is due now; the step signal calls it every frame.
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
		this.settle();
	}

	private settle() {
		if (this.pending() === 0 && this.connection) {
			this.connection.Disconnect();
			this.connection = undefined;
		}
	}
}
