import { Entry, RowChange, SentRow, SentStanding } from "../../contracts";

/** The first `count` rows of a page, as sent. */
export function rowsOf(entries: ReadonlyArray<Entry>, count: number): SentRow[] {
	const rows = new Array<SentRow>();
	for (let i = 0; i < math.min(count, entries.size()); i++) {
		const { Rank, Key, Value, DisplayName, Username } = entries[i];
		rows.push({ Rank, Key, Value, DisplayName, Username });
	}
	return rows;
}

function same(a: SentRow | undefined, b: SentRow): boolean {
	return (
		a !== undefined &&
		a.Rank === b.Rank &&
		a.Key === b.Key &&
		a.Value === b.Value &&
		a.DisplayName === b.DisplayName &&
		a.Username === b.Username
	);
}

/** The rows of `after` that differ from `before` at their place; with the count, `before` becomes `after`. */
export function changesOf(before: ReadonlyArray<SentRow>, after: ReadonlyArray<SentRow>): RowChange[] {
	const changes = new Array<RowChange>();
	after.forEach((row, index) => {
		if (!same(before[index], row)) changes.push([index + 1, row]);
	});
	return changes;
}

/** A key's standing on a page (every entry read, not only the rows sent). */
export function standingOn(entries: ReadonlyArray<Entry>, key: string): SentStanding {
	for (const entry of entries) if (entry.Key === key) return { Value: entry.Value, Rank: entry.Rank };
	return {};
}
