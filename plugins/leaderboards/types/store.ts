import { Backend, BackendCall, BackendRange, BackendRow, BackendWrite } from "./public";
import { MergeRule } from "./merge/rule";
import { PendingWrite } from "./stages";

/**
 * The store refused a request for its request budget (a DataStore's "throttled"
 * errors, 301-306 and <Type>ExperienceThrottled; a memory store's
 * "...RequestsOverLimit"): it is busy, not down, and takes requests again as its budget refills.
 */
export function isThrottle(problem: unknown): boolean {
	if (!typeIs(problem, "string")) return false;
	return problem.lower().find("throttl")[0] !== undefined || problem.find("RequestsOverLimit")[0] !== undefined;
}

/** The optional things a backend may do, as a call needing one names them. */
export type Capability = "scores" | "around" | "remove";

/**
 * A backend wrapped once, at attach: what it can do resolved from its members
 * (stages ask the store, never the backend's members), and every call given
 * the attach's Clock and the call's deadline (BackendCall) as its last argument.
 */
export class Store {
	/** The store holds integers only: submit refuses fractions. */
	readonly integers: boolean;
	/** The longest key the store accepts; undefined: any. */
	readonly maxKeyLength?: number;
	/** submit() adds a Sum board's values itself (sums = true); else Sum boards write through set(). */
	readonly sums: boolean;
	/** Stores of one budget group draw on one request budget (Backend.kind, else the backend itself): a window asks one of them. */
	readonly budgetGroup: unknown;
	/** Top pages of this store may be shared by every server (Backend.sharePages). */
	readonly sharesPages: boolean;
	private readonly can: Record<Capability, boolean>;

	constructor(
		readonly backend: Backend,
		/** How errors name it: "the default backend (OrderedDataStores)", "options.Backend". */
		readonly label: string,
		/** The attach's Clock. */
		readonly clock: () => number,
		/** Every call's deadline, in seconds from its start. */
		readonly requestSeconds: number,
	) {
		this.integers = backend.integers === true;
		this.maxKeyLength = backend.maxKeyLength;
		this.sums = backend.submit !== undefined && backend.sums === true;
		this.budgetGroup = backend.kind ?? backend;
		this.sharesPages = backend.sharePages === true;
		this.can = {
			scores: backend.scores !== undefined,
			around: backend.around !== undefined,
			remove: backend.remove !== undefined,
		};
	}

	/** The store can do `capability`. */
	has(capability: Capability): boolean {
		return this.can[capability];
	}

	/**
	 * Raises the one error for a call the backend cannot serve, at the game's
	 * call: `level` as error() would count it in the caller of needs() (2: that
	 * caller's caller). `calls` names the public calls ("scores()").
	 */
	needs(capability: Capability, calls: string, level: number) {
		if (this.can[capability]) return;
		const verb = calls.find(" and ")[0] !== undefined ? "need" : "needs";
		error(`Leaderboards: ${calls} ${verb} a backend with ${capability}(); ${this.label} has none`, level + 1);
	}

	/** A call's context: the attach's clock, and the deadline RequestSeconds from now on it. */
	call(): BackendCall {
		return { Clock: this.clock, Deadline: this.clock() + this.requestSeconds };
	}

	/** A write of `rule` goes through submit() (else set() with the rule's updater). */
	submits(rule: MergeRule): boolean {
		return this.backend.submit !== undefined && (rule.Kind !== "Sum" || this.sums);
	}

	/** The write as a backend receives it: the pending write with its board's rule and the call's context. */
	writeOf(write: PendingWrite, rule: MergeRule): BackendWrite {
		const call = this.call();
		const record = write as { -readonly [K in keyof BackendWrite]?: BackendWrite[K] };
		// The same table: a backend keeps seeing Superseded turn true on it.
		record.Clock = call.Clock;
		record.Deadline = call.Deadline;
		record.Rule = rule;
		return record as BackendWrite;
	}

	sorted(name: string, ascending: boolean, count: number, shared = false): BackendRow[] | undefined {
		const call = this.call();
		return this.backend.sorted(name, ascending, count, shared ? { ...call, Shared: true } : call);
	}

	scores(name: string, keys: string[]): Map<string, number> | undefined {
		return this.backend.scores!(name, keys, this.call());
	}

	around(name: string, ascending: boolean, value: number, count: number, key: string): BackendRange | undefined {
		return this.backend.around!(name, ascending, value, count, key, this.call());
	}

	remove(name: string, key: string): unknown {
		return this.backend.remove!(name, key, this.call());
	}

	/** Writes available now; undefined when the backend does not say. */
	budget(): number | undefined {
		return this.backend.budget?.(this.call());
	}

	/** Writes a minute budget() refills at; undefined when the backend does not say. */
	budgetRate(): number | undefined {
		return this.backend.budgetRate?.(this.call());
	}

	/** Removes the store allows now; undefined when the backend does not say. */
	removeBudget(): number | undefined {
		return this.backend.removeBudget?.(this.call());
	}

	/** Keys scores() may read now; undefined when the backend does not say. */
	readBudget(): number | undefined {
		return this.backend.readBudget?.(this.call());
	}
}
