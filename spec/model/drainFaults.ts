import type { Backend } from "../../plugins/leaderboards";

// Transient write faults around drains (issue 24): a store that refuses every
// write, or most of them, from shortly before a server's destroy() until a
// moment while its drain still has time, then accepts writes again. The fault
// is the store's, so every server writing meanwhile meets it.

/** From `start` to `finish` (gate seconds) each write fails with probability `rate` (1: every write). */
export interface WriteFault {
	readonly start: number;
	readonly finish: number;
	readonly rate: number;
}

/** One write a server sent: when, whether a write fault was on then, and why it failed (undefined: it landed). */
export interface SentWrite {
	readonly at: number;
	readonly faulted: boolean;
	readonly error?: string;
}

/** What a faulted write raises. */
export const FAULT_MESSAGE = "model write fault: the store refused the write";

export class DrainFaults {
	readonly faults = new Array<WriteFault>();

	// Its own generator: the model's draws (servers, submits, destroy times) stay as they were without faults.
	constructor(
		private readonly random: Random,
		private readonly now: () => number,
	) {}

	/**
	 * Half the drains get a fault: it begins up to 2 s before the drain (`drainAt`)
	 * and stops 0.1 s to half of ShutdownSeconds after the drain began, so the
	 * drain always has time left once the store accepts writes again. Half the
	 * faults refuse every write (a burst), the others 50-90% of them (a rate).
	 */
	plan(drainAt: number, shutdownSeconds: number): WriteFault | undefined {
		if (this.random.NextNumber() >= 0.5) return undefined;
		const start = drainAt - this.random.NextNumber(0, 2);
		const finish = drainAt + this.random.NextNumber(0.1, shutdownSeconds / 2);
		const rate = this.random.NextNumber() < 0.5 ? 1 : this.random.NextNumber(0.5, 0.9);
		const fault = { start, finish, rate };
		this.faults.push(fault);
		return fault;
	}

	/** The fault on at `at`, if any. */
	on(at: number): WriteFault | undefined {
		return this.faults.find((fault) => at >= fault.start && at < fault.finish);
	}

	/**
	 * The backend with its writes (set, submit) behind the faults: a faulted
	 * write waits a request's time and raises FAULT_MESSAGE without reaching the
	 * store; every write, faulted or sent on, is told to `sent`, with its error.
	 */
	wrap(backend: Backend, sent: (write: SentWrite) => void): Backend {
		const guard = <A extends unknown[]>(write: (...args: A) => boolean) => {
			return (...args: A): boolean => {
				const at = this.now();
				const fault = this.on(at);
				if (fault && this.random.NextNumber() < fault.rate) {
					task.wait(this.random.NextNumber(0.05, 0.3));
					sent({ at, faulted: true, error: FAULT_MESSAGE });
					error(FAULT_MESSAGE, 0);
				}
				const [ok, result] = pcall(() => write(...args));
				const problem = !ok ? tostring(result) : result !== true ? "the backend returned false" : undefined;
				sent({ at, faulted: fault !== undefined, error: problem });
				if (!ok) error(result, 0);
				return result;
			};
		};
		const wrapped: Backend = { ...backend };
		const { set, submit } = backend;
		if (set) wrapped.set = guard(set);
		if (submit) wrapped.submit = guard(submit);
		return wrapped;
	}
}
