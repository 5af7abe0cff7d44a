import { Backend, BackendCall, BackendRange, BackendRow, BackendWrite, PendingWrite } from "./backend";
import { MergeRule } from "./merge";

/** The optional things a backend may do, as a call needing one names them. */
export type Capability = "scores" | "around" | "remove";

/**
 * A backend wrapped once, at attach: what it can do resolved from its members
 * (stages ask the store, never the backend's members), and every call given
 * the attach's Clock and the call's deadline (BackendCall) as its last argument.
 */
export interface Store {
	readonly backend: Backend;
	/** How errors name it: "the default backend (OrderedDataStores)", "options.Backend". */
	readonly label: string;
	/** The attach's Clock. */
	readonly clock: () => number;
	/** Every call's deadline, in seconds from its start. */
	readonly requestSeconds: number;
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
	/** The store can do `capability`. */
	has(capability: Capability): boolean;
	/**
	 * Raises the one error for a call the backend cannot serve, at the game's
	 * call: `level` as error() would count it in the caller of needs() (2: that
	 * caller's caller). `calls` names the public calls ("scores()").
	 */
	needs(capability: Capability, calls: string, level: number): void;
	/** A call's context: the attach's clock, and the deadline RequestSeconds from now on it. */
	call(): BackendCall;
	/** A write of `rule` goes through submit() (else set() with the rule's updater). */
	submits(rule: MergeRule): boolean;
	/** The write as a backend receives it: the pending write with its board's rule and the call's context. */
	writeOf(write: PendingWrite, rule: MergeRule): BackendWrite;
	sorted(storage: string, ascending: boolean, count: number, shared?: boolean): BackendRow[] | undefined;
	scores(storage: string, keys: string[]): Map<string, number> | undefined;
	around(storage: string, ascending: boolean, value: number, count: number, key: string): BackendRange | undefined;
	remove(storage: string, key: string): unknown;
	/** Writes available now; undefined when the backend does not say. */
	budget(): number | undefined;
	/** Writes a minute budget() refills at; undefined when the backend does not say. */
	budgetRate(): number | undefined;
	/** Removes the store allows now; undefined when the backend does not say. */
	removeBudget(): number | undefined;
	/** Keys scores() may read now; undefined when the backend does not say. */
	readBudget(): number | undefined;
}
