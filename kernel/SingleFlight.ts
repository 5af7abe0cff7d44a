/**
 * One piece of work many callers wait on, as Promises. The work runs once, on
 * its own thread; wait() yields until it settles and returns its value or
 * raises what it raised, in every waiter. A waiter cancelled while waiting
 * (task.cancel of its thread) strands no one: each waits on its own. release()
 * lets every waiter go at once with a value of the caller's choosing, while the
 * work itself goes on.
 */
export class SingleFlight<T> {
	/** The work: resolves with its value, rejects with what it raised. */
	readonly work: Promise<T>;
	// What waiters get: the work's outcome, or release()'s value if that comes first.
	private readonly outcome: Promise<T>;
	private releaseWith!: (value: T) => void;

	constructor(work: () => T) {
		this.work = new Promise<T>((resolve, reject) => {
			const [ok, value] = pcall(work);
			if (ok) resolve(value);
			else reject(value);
		});
		this.outcome = new Promise<T>((resolve, reject) => {
			this.releaseWith = resolve;
			this.work.then(resolve, reject);
		});
		// Waiters see a rejection; with none waiting it is not an unhandled one.
		this.outcome.catch(() => {});
	}

	/** The work has returned or errored. */
	settled(): boolean {
		return this.work.getStatus() !== Promise.Status.Started;
	}

	/** Yields until the work settles (or release()), then returns its value or raises its error. */
	wait(): T {
		const [status, value] = this.outcome.awaitStatus();
		if (status !== Promise.Status.Resolved) error(value, 0);
		return value as T;
	}

	/** Lets every waiter go now with value; the work goes on. */
	release(value: T) {
		this.releaseWith(value);
	}
}
