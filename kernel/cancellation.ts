import { Deadline, Priority, Scheduler } from "./Scheduler";

/**
 * A Promise that resolves `seconds` from now on the Scheduler. Cancelling it
 * cancels the deadline, so nothing stays armed.
 */
export function sleep(scheduler: Scheduler, seconds: number, priority = Priority.Normal): Promise<void> {
	return new Promise<void>((resolve, _, onCancel) => {
		const deadline: Deadline = scheduler.after(seconds, priority, () => resolve());
		onCancel(() => deadline.cancel());
	});
}

/** What join() tells: whether the joined Promise settled in time, and how. */
export interface Joined<T> {
	/** It settled before the deadline. */
	readonly settled: boolean;
	/** It resolved (false when it rejected or the deadline came first). */
	readonly ok: boolean;
	readonly value?: T;
	readonly problem?: unknown;
}

/**
 * Waits for an in-flight Promise for at most `seconds`. Never cancels what it
 * joins: a write still in flight at the deadline may still commit, and the
 * caller learns it did not settle. Cancelling the join cancels only the wait.
 */
export function join<T>(scheduler: Scheduler, inFlight: Promise<T>, seconds: number): Promise<Joined<T>> {
	return new Promise<Joined<T>>((resolve, _, onCancel) => {
		if (inFlight.getStatus() !== Promise.Status.Started) {
			resolve(settledOf(inFlight));
			return;
		}
		const deadline = scheduler.after(seconds, Priority.High, () => resolve({ settled: false, ok: false }));
		onCancel(() => deadline.cancel());
		inFlight.finally(() => {
			deadline.cancel();
			resolve(settledOf(inFlight));
		});
	});
}

/**
 * Runs work on its own thread and waits at most `seconds` for it: the deadline
 * every yielding call to a store or engine service gets, so nothing waits
 * forever. Yields (not when work returns without yielding). Work past the
 * deadline is not stopped (a write may still land); its late result is thrown
 * away. An error work raises comes back as { settled: true, ok: false, problem }
 * with problem exactly what it raised.
 */
export function within<T>(scheduler: Scheduler, seconds: number, work: () => T): Joined<T> {
	// A deadline and the caller's thread, not Promises: every backend call of every write passes here,
	// and the five Promises join() and a running Promise took were most of a write's own cost.
	let outcome: Joined<T> | undefined;
	let caller: thread | undefined;
	const settle = (joined: Joined<T>) => {
		if (outcome) return;
		outcome = joined;
		// A caller closed meanwhile (its Promise cancelled) is not resumed.
		if (caller && coroutine.status(caller) === "suspended") task.spawn(caller);
	};
	task.spawn(() => {
		const [ok, value] = pcall(work);
		settle(ok ? { settled: true, ok: true, value } : { settled: true, ok: false, problem: value });
	});
	if (outcome) return outcome;
	const deadline = scheduler.after(seconds, Priority.High, () => settle({ settled: false, ok: false }));
	caller = coroutine.running();
	// Only settle() resumes it; anything else that does finds no outcome yet and waits again.
	while (!outcome) coroutine.yield();
	deadline.cancel();
	return outcome;
}

// A settled Promise's outcome; awaitStatus does not yield once it has settled.
function settledOf<T>(settled: Promise<T>): Joined<T> {
	const [status, value] = settled.awaitStatus();
	const ok = status === Promise.Status.Resolved;
	return { settled: true, ok, value: ok ? (value as T) : undefined, problem: ok ? undefined : value };
}
