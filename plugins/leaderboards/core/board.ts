import {
	BackendRange,
	BackendRow,
	Board as BoardContract,
	BoardFields,
	Codec,
	Encoding,
	PendingWrite,
	Store,
} from "../contracts";
import { rangeOf, rowsOf, valuesOf } from "./answers";
import { TIE_EPOCH } from "./encodings/earliest";
import { encodingOf } from "./encodings/encodingOf";
import { periodAt, previousPeriod, readPlace, storageName } from "./periods";
import { Warnings } from "./warnings";

// The board's fields are BoardFields' (declared once, in contracts/board.ts), copied from what settings hands it.
export interface Board extends BoardFields {}

/** A board at run time (contracts/board.ts): its options with every default applied, its encoding and its store. */
export class Board implements BoardContract {
	readonly Encoding: Encoding;
	private readonly warnings = new Warnings();

	constructor(
		fields: BoardFields,
		readonly Store: Store,
		private readonly unixTime: () => number,
	) {
		for (const [field, value] of pairs(fields as unknown as Record<string, unknown>))
			(this as unknown as Record<string, unknown>)[field] = value;
		this.Encoding = encodingOf(fields.Values, fields.TieBreak, fields.Period, fields.Ascending, Store.integers);
	}

	place(which: unknown, level: number): LuaTuple<[string, string | undefined]> {
		const [, periodId] = readPlace(this.Name, this.Period, which, this.unixTime, level + 1);
		return $tuple(this.storageFor(periodId), periodId);
	}

	storage(): string {
		return this.storageFor(this.Period && periodAt(this.Period, this.unixTime()).Id);
	}

	previousStorage(): string | undefined {
		return this.Period && this.storageFor(previousPeriod(this.Period, this.unixTime()).Id);
	}

	periodOf(storage: string): string | undefined {
		const base = this.Name + this.Encoding.Tag;
		return storage === base ? undefined : storage.sub(base.size() + 2);
	}

	storageFor(periodId: string | undefined): string {
		return storageName(this.Name + this.Encoding.Tag, periodId);
	}

	sorted(storage: string, count: number, shared = false): BackendRow[] | undefined {
		const rows = rowsOf(this.Store.sorted(storage, this.Ascending, count, shared), this.Ascending, this.warn);
		return rows && this.decoded(rows);
	}

	scores(storage: string, keys: string[]): Map<string, number> | undefined {
		const values = valuesOf(this.Store.scores(storage, keys), this.warn);
		if (values === undefined || this.Encoding.Identity) return values;
		for (const [key, stored] of values) values.set(key, this.Encoding.decode(stored));
		return values;
	}

	around(storage: string, value: number, count: number, key: string): BackendRange | undefined {
		const at = this.Encoding.encode(value, 0);
		const range = rangeOf(this.Store.around(storage, this.Ascending, at, count, key), this.Ascending, this.warn);
		return range && { Ahead: this.decoded(range.Ahead), Behind: this.decoded(range.Behind) };
	}

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
