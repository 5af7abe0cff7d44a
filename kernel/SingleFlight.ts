/**
 * One piece of work many callers wait on. The work runs once, on its own
 * thread; wait() yields until it settles and returns its value or raises its
 * error in every waiter. A waiter cancelled while waiting (task.cancel of its
 * thread) strands no one: it is skipped when the others are resumed.
 * release() lets every current waiter go at once with a value of the caller's
 * choosing, while the work itself goes on.
 */
export class SingleFlight<T> {
	private waiters = new Array<thread>();
	private outcome?: { ok: boolean; value: unknown };

	constructor(work: () => T) {
		task.spawn(() => {
			const [ok, value] = pcall(work);
			this.outcome = { ok, value };
			this.resume(ok, value);
		});
	}

	/** The work has returned or errored. */
	settled(): boolean {
		return this.outcome !== undefined;
	}

	/** Yields until the work settles (or release()), then returns its value or raises its error. */
	wait(): T {
		if (this.outcome) return this.finish(this.outcome.ok, this.outcome.value);
		this.waiters.push(coroutine.running());
		const [ok, value] = coroutine.yield() as LuaTuple<[boolean, unknown]>;
		return this.finish(ok, value);
	}

	/** Resumes every current waiter with value now; the work goes on. */
	release(value: T) {
		this.resume(true, value);
	}

	private finish(ok: boolean, value: unknown): T {
		if (!ok) error(value, 0);
		return value as T;
	}

	private resume(ok: boolean, value: unknown) {
		const waiters = this.waiters;
		this.waiters = [];
		for (const waiter of waiters) {
			if (coroutine.status(waiter) === "suspended") task.spawn(waiter, ok, value);
		}
	}
}
