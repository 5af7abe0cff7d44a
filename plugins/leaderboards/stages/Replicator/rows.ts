import { Entry, SentRow, SentStanding } from "../../contracts";

/** The first `count` rows of a page, as sent. */
export function rowsOf(entries: ReadonlyArray<Entry>, count: number): SentRow[] {
	const rows = new Array<SentRow>();
	for (let i = 0; i < math.min(count, entries.size()); i++) {
		const { Rank, Key, Value, DisplayName, Username } = entries[i];
		rows.push({ Rank, Key, Value, DisplayName, Username });
	}
	return rows;
}

/** A key's standing on a page (every entry read, not only the rows sent). */
export function standingOn(entries: ReadonlyArray<Entry>, key: string): SentStanding {
	for (const entry of entries) if (entry.Key === key) return { Value: entry.Value, Rank: entry.Rank };
	return {};
}
