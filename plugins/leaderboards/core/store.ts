import {
	Backend,
	BackendCall,
	BackendRange,
	BackendRow,
	BackendWrite,
	Capability,
	MergeRule,
	PendingWrite,
	Store as StoreContract,
} from "../contracts";

/**
 * The store refused a request for its request budget (a DataStore's "throttled"
 * errors, 301-306 and <Type>ExperienceThrottled; a memory store's
 * "...RequestsOverLimit"): it is busy, not down, and takes requests again as its budget refills.
 */
export function isThrottle(problem: unknown): boolean {
	if (!typeIs(problem, "string")) return false;
	return problem.lower().find("throttl")[0] !== undefined || problem.find("RequestsOverLimit")[0] !== undefined;
}

/** A backend wrapped once, at attach (contracts/store.ts): its capabilities resolved, every call given its deadline. */
export class Store implements StoreContract {
	readonly integers: boolean;
	readonly maxKeyLength?: number;
	readonly sums: boolean;
	readonly budgetGroup: unknown;
	readonly sharesPages: boolean;
	private readonly can: Record<Capability, boolean>;

	constructor(
		readonly backend: Backend,
		readonly label: string,
		readonly clock: () => number,
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

	has(capability: Capability): boolean {
		return this.can[capability];
	}

	needs(capability: Capability, calls: string, level: number) {
		if (this.can[capability]) return;
		const verb = calls.find(" and ")[0] !== undefined ? "need" : "needs";
		error(`Leaderboards: ${calls} ${verb} a backend with ${capability}(); ${this.label} has none`, level + 1);
	}

	call(): BackendCall {
		return { Clock: this.clock, Deadline: this.clock() + this.requestSeconds };
	}

	submits(rule: MergeRule): boolean {
		return this.backend.submit !== undefined && (rule.Kind !== "Sum" || this.sums);
	}

	writeOf(write: PendingWrite, rule: MergeRule): BackendWrite {
		const call = this.call();
		const record = write as { -readonly [K in keyof BackendWrite]?: BackendWrite[K] };
		// The same table: a backend keeps seeing Superseded turn true on it.
		record.Clock = call.Clock;
		record.Deadline = call.Deadline;
		record.Rule = rule;
		return record as BackendWrite;
	}

	sorted(storage: string, ascending: boolean, count: number, shared = false): BackendRow[] | undefined {
		const call = this.call();
		return this.backend.sorted(storage, ascending, count, shared ? { ...call, Shared: true } : call);
	}

	scores(storage: string, keys: string[]): Map<string, number> | undefined {
		return this.backend.scores!(storage, keys, this.call());
	}

	around(storage: string, ascending: boolean, value: number, count: number, key: string): BackendRange | undefined {
		return this.backend.around!(storage, ascending, value, count, key, this.call());
	}

	remove(storage: string, key: string): unknown {
		return this.backend.remove!(storage, key, this.call());
	}

	budget(): number | undefined {
		return this.backend.budget?.(this.call());
	}

	budgetRate(): number | undefined {
		return this.backend.budgetRate?.(this.call());
	}

	removeBudget(): number | undefined {
		return this.backend.removeBudget?.(this.call());
	}

	readBudget(): number | undefined {
		return this.backend.readBudget?.(this.call());
	}
}
