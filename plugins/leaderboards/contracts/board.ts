import { BackendRange, BackendRow, PendingWrite } from "./backend";
import { Codec, Encoding, TieBreakRule, ValueKind } from "./encoding";
import { MergeRule } from "./merge";
import { PeriodRule } from "./periods";
import { Store } from "./store";

/** A board's options with every default applied: what attach's checks hand to a Board. */
export interface BoardFields {
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
	/** The rows sent to clients (BoardConfig.Replicate); absent: none. */
	readonly Replicate?: { readonly Rows: number };
	/** "Big": any finite number; "Plain": as the store holds them. */
	readonly Values: ValueKind;
	/** "Earliest": equal values rank by who stored first; undefined: as the store orders them. */
	readonly TieBreak?: TieBreakRule;
	/** Bounds submit() checks; undefined: none. */
	readonly MinValue?: number;
	readonly MaxValue?: number;
	readonly MaxAddedPerMinute?: number;
	readonly Validate?: (key: string, value: number, previous: number | undefined) => unknown;
}

/**
 * A board at run time: its options with every default applied, its merge rule,
 * its period rule as storage names, and its store (its own Backend, or the
 * attach's, wrapped once). Stages ask the board where a period is stored and
 * what its store can do; they never re-derive either.
 */
export interface Board extends BoardFields {
	/** Where the board's values live: BoardConfig.Backend, else options.Backend (or the default), wrapped once. */
	readonly Store: Store;
	/** How values are stored (from Values, TieBreak and the store): writes encode, reads decode. */
	readonly Encoding: Encoding;
	/**
	 * Where a read goes: the storage name of the period `which` names ("current",
	 * the default, "previous" or an id) and the period id (nil on an all-time
	 * board). Raises at the game's call (`level` as error() counts from the
	 * caller of place()) for a period the board does not have.
	 */
	place(which: unknown, level: number): LuaTuple<[string, string | undefined]>;
	/** Where the current period's values are stored (the board's name on an all-time board). */
	storage(): string;
	/** Where the previous period's values are stored; undefined on an all-time board. */
	previousStorage(): string | undefined;
	/** The period id a storage name of this board holds; undefined for the board's own (all-time) name. */
	periodOf(storage: string): string | undefined;
	/**
	 * Where a period's values are stored ("Kills@2026-12-06"); the board's name for no period. An
	 * encoding that changes the stored numbers is part of it ("Kills#Big", "Kills#Earliest@2026-12-06").
	 */
	storageFor(periodId: string | undefined): string;
	/**
	 * Yields. Up to count rows of a storage name, best first, as the store ranks them (answers
	 * checked), decoded. `shared`: the read refreshes a page every server shares.
	 */
	sorted(storage: string, count: number, shared?: boolean): BackendRow[] | undefined;
	/** Yields. Stored values of keys, missing ones left out, decoded; undefined when the read failed. */
	scores(storage: string, keys: string[]): Map<string, number> | undefined;
	/**
	 * Yields. The rows nearest `key` holding `value`, on each side, decoded; undefined when the read failed or
	 * was refused. The store is asked at the best number `value` can be stored as (a tie-break's first second),
	 * so equal values fall behind the subject, as on any store that splits at a value.
	 */
	around(storage: string, value: number, count: number, key: string): BackendRange | undefined;
	/**
	 * A write's encoding, the time bound (a tie-break's second within the board's span: its period's, or
	 * since TIE_EPOCH); undefined when values are stored as they are.
	 */
	codecFor(write: PendingWrite): Codec | undefined;
}
