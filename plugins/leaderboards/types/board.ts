import { rangeOf, rowsOf, valuesOf } from "./answers";
import { MergeRule } from "./merge/rule";
import { PeriodRule, periodAt, previousPeriod, readPlace, storageName } from "./periods";
import { BackendRange, BackendRow } from "./public";
import { Store } from "./store";
import { Warnings } from "./warnings";

/**
 * A board at run time: its options with every default applied, its merge rule,
 * its period rule as storage names, and its store (its own Backend, or the
 * attach's, wrapped once). Stages ask the board where a period is stored and
 * what its store can do; they never re-derive either.
 */
export class Board {
	readonly Name: string;
	readonly Ascending: boolean;
	readonly KeepBest: boolean;
	readonly MaxEntries: number;
	readonly CacheSeconds: number;
	/** Submits add to the stored total. */
	readonly Sum: boolean;
	/** How the board merges values (from Sum, KeepBest, Ascending, NegativeDeltas): queue, writes, late landings. */
	readonly Rule: MergeRule;
	/** A Sum board accepts negative values. */
	readonly NegativeDeltas: boolean;
	/** The reset schedule; undefined on an all-time board. */
	readonly Period?: PeriodRule;
	/** undefined: no refresh timer. */
	readonly RefreshSeconds?: number;
	/** Seconds a Reset board's values outlive their period on stores whose items expire. */
	readonly Retention: number;
	/** The top rows whose changes are written promptly and announced; 0: none. */
	readonly VisibleTop: number;
	private readonly warnings = new Warnings();

	constructor(
		fields: BoardFields,
		/** Where the board's values live: BoardConfig.Backend, else options.Backend (or the default), wrapped once. */
		readonly Store: Store,
		private readonly unixTime: () => number,
	) {
		this.Name = fields.Name;
		this.Ascending = fields.Ascending;
		this.KeepBest = fields.KeepBest;
		this.MaxEntries = fields.MaxEntries;
		this.CacheSeconds = fields.CacheSeconds;
		this.Sum = fields.Sum;
		this.Rule = fields.Rule;
		this.NegativeDeltas = fields.NegativeDeltas;
		this.Period = fields.Period;
		this.RefreshSeconds = fields.RefreshSeconds;
		this.Retention = fields.Retention;
		this.VisibleTop = fields.VisibleTop;
	}

	/**
	 * Where a read goes: the storage name of the period `which` names ("current",
	 * the default, "previous" or an id) and the period id (nil on an all-time
	 * board). Raises at the game's call (`level` as error() counts from the
	 * caller of place()) for a period the board does not have.
	 */
	place(which: unknown, level: number): LuaTuple<[string, string | undefined]> {
		return readPlace(this.Name, this.Period, which, this.unixTime, level + 1);
	}

	/** Where the current period's values are stored (the board's name on an all-time board). */
	storage(): string {
		return this.storageFor(this.Period && periodAt(this.Period, this.unixTime()).Id);
	}

	/** Where the previous period's values are stored; undefined on an all-time board. */
	previousStorage(): string | undefined {
		return this.Period && this.storageFor(previousPeriod(this.Period, this.unixTime()).Id);
	}

	/** The period id a storage name of this board holds; undefined for the board's own (all-time) name. */
	periodOf(store: string): string | undefined {
		return store === this.Name ? undefined : store.sub(this.Name.size() + 2);
	}

	/** Where a period's values are stored ("Kills@2026-12-06"); the board's name for no period. */
	storageFor(periodId: string | undefined): string {
		return storageName(this.Name, periodId);
	}

	/**
	 * Yields. Up to count rows of a storage name, best first, as the store ranks them (answers
	 * checked: answers.ts). `shared`: the read refreshes a page every server shares.
	 */
	sorted(store: string, count: number, shared = false): BackendRow[] | undefined {
		return rowsOf(this.Store.sorted(store, this.Ascending, count, shared), this.Ascending, this.warn);
	}

	/** Yields. Stored values of keys, missing ones left out; undefined when the read failed. */
	scores(store: string, keys: string[]): Map<string, number> | undefined {
		return valuesOf(this.Store.scores(store, keys), this.warn);
	}

	/** Yields. The rows nearest `key` stored at `value`, on each side; undefined when the read failed or was refused. */
	around(store: string, value: number, count: number, key: string): BackendRange | undefined {
		return rangeOf(this.Store.around(store, this.Ascending, value, count, key), this.Ascending, this.warn);
	}

	private readonly warn = (kind: string, message: string) => this.warnings.once(this.Name, kind, message);
}

/** A board's options with every default applied: what settings hands to Board. */
export type BoardFields = Pick<
	Board,
	| "Name"
	| "Ascending"
	| "KeepBest"
	| "MaxEntries"
	| "CacheSeconds"
	| "Sum"
	| "Rule"
	| "NegativeDeltas"
	| "Period"
	| "RefreshSeconds"
	| "Retention"
	| "VisibleTop"
>;
