import { rangeOf, rowsOf, valuesOf } from "./answers";
import { TIE_EPOCH } from "./encodings/earliest";
import { Codec, Encoding, TieBreakRule, ValueKind } from "./encodings/encoding";
import { encodingOf } from "./encodings/encodingOf";
import { MergeRule } from "./merge/rule";
import { PeriodRule, periodAt, previousPeriod, readPlace, storageName } from "./periods";
import { BackendRange, BackendRow } from "./public";
import { PendingWrite } from "./stages";
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
	/** "Big": any finite number; "Plain": as the store holds them. */
	readonly Values: ValueKind;
	/** "Earliest": equal values rank by who stored first; undefined: as the store orders them. */
	readonly TieBreak?: TieBreakRule;
	/** Bounds submit() checks; undefined: none. */
	readonly MinValue?: number;
	readonly MaxValue?: number;
	readonly MaxAddedPerMinute?: number;
	readonly Validate?: (key: string, value: number, previous: number | undefined) => unknown;
	/** How values are stored (from Values, TieBreak and the store): writes encode, reads decode. */
	readonly Encoding: Encoding;
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
		this.Values = fields.Values;
		this.TieBreak = fields.TieBreak;
		this.MinValue = fields.MinValue;
		this.MaxValue = fields.MaxValue;
		this.MaxAddedPerMinute = fields.MaxAddedPerMinute;
		this.Validate = fields.Validate;
		this.Encoding = encodingOf(fields.Values, fields.TieBreak, fields.Period, fields.Ascending, Store.integers);
	}

	/**
	 * Where a read goes: the storage name of the period `which` names ("current",
	 * the default, "previous" or an id) and the period id (nil on an all-time
	 * board). Raises at the game's call (`level` as error() counts from the
	 * caller of place()) for a period the board does not have.
	 */
	place(which: unknown, level: number): LuaTuple<[string, string | undefined]> {
		const [, periodId] = readPlace(this.Name, this.Period, which, this.unixTime, level + 1);
		return $tuple(this.storageFor(periodId), periodId);
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
		const base = this.Name + this.Encoding.Tag;
		return store === base ? undefined : store.sub(base.size() + 2);
	}

	/**
	 * Where a period's values are stored ("Kills@2026-12-06"); the board's name for no period. An
	 * encoding that changes the stored numbers is part of it ("Kills#Big", "Kills#Earliest@2026-12-06").
	 */
	storageFor(periodId: string | undefined): string {
		return storageName(this.Name + this.Encoding.Tag, periodId);
	}

	/**
	 * Yields. Up to count rows of a storage name, best first, as the store ranks them (answers
	 * checked: answers.ts), decoded. `shared`: the read refreshes a page every server shares.
	 */
	sorted(store: string, count: number, shared = false): BackendRow[] | undefined {
		const rows = rowsOf(this.Store.sorted(store, this.Ascending, count, shared), this.Ascending, this.warn);
		return rows && this.decoded(rows);
	}

	/** Yields. Stored values of keys, missing ones left out, decoded; undefined when the read failed. */
	scores(store: string, keys: string[]): Map<string, number> | undefined {
		const values = valuesOf(this.Store.scores(store, keys), this.warn);
		if (values === undefined || this.Encoding.Identity) return values;
		for (const [key, stored] of values) values.set(key, this.Encoding.decode(stored));
		return values;
	}

	/**
	 * Yields. The rows nearest `key` holding `value`, on each side, decoded; undefined when the read failed or
	 * was refused. The store is asked at the best number `value` can be stored as (a tie-break's first second),
	 * so equal values fall behind the subject, as on any store that splits at a value.
	 */
	around(store: string, value: number, count: number, key: string): BackendRange | undefined {
		const at = this.Encoding.encode(value, 0);
		const range = rangeOf(this.Store.around(store, this.Ascending, at, count, key), this.Ascending, this.warn);
		return range && { Ahead: this.decoded(range.Ahead), Behind: this.decoded(range.Behind) };
	}

	/**
	 * A write's encoding, the time bound (a tie-break's second within the board's span: its period's, or
	 * since TIE_EPOCH); undefined when values are stored as they are.
	 */
	codecFor(write: PendingWrite): Codec | undefined {
		const encoding = this.Encoding;
		if (encoding.Identity) return undefined;
		let since = 0;
		if (encoding.Kind === "Earliest") {
			const now = this.unixTime();
			// The span of the period the value was submitted in, found from its end.
			const start = this.Period ? periodAt(this.Period, (write.PeriodEnd ?? now + 1) - 1).Start : TIE_EPOCH;
			since = now - start;
		}
		return { encode: (value) => encoding.encode(value, since), decode: encoding.decode };
	}

	// Rows a store returned (fresh tables, from answers.ts), their values decoded in place.
	private decoded(rows: BackendRow[]): BackendRow[] {
		if (this.Encoding.Identity) return rows;
		for (const row of rows) row.Value = this.Encoding.decode(row.Value);
		return rows;
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
	| "Values"
	| "TieBreak"
	| "MinValue"
	| "MaxValue"
	| "MaxAddedPerMinute"
	| "Validate"
>;
