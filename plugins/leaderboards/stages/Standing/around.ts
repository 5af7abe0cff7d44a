import { Board, Entry, Standing as Place } from "../../contracts";
import { StandingReads } from "./reads";

/** around() rows on each side when count is not a number. */
export const AROUND_DEFAULT = 5;
/** around() rows on each side at most (a GetSortedAsync page holds 100: count ahead, count + 1 behind). */
export const AROUND_LIMIT = 50;

// The subject (`me`, with a value) with `size` rows on each side: from the top page when it holds
// them, else one backend around(); ranks where the page knows them.
export function aroundOf(
	reads: StandingReads,
	config: Board,
	me: Place,
	page: ReadonlyArray<Entry>,
	size: number,
): Place[] | undefined {
	if (me.Rank !== undefined) {
		const index = me.Rank - 1;
		// The page answers when it holds count rows behind, or the board ended within it.
		if (index + size < page.size() || page.size() < config.MaxEntries) {
			const rows = new Array<Place>();
			for (let i = math.max(0, index - size); i < math.min(page.size(), index + size + 1); i++) {
				const entry = page[i];
				rows.push({ Key: entry.Key, Value: entry.Value, Rank: entry.Rank });
			}
			return rows;
		}
	}
	const rows = rangeOf(reads, config, me, size);
	if (!rows) return undefined;
	const ranks = new Map<string, number>();
	for (const entry of page) ranks.set(entry.Key, entry.Rank);
	const mine = rows.findIndex((row) => row.Key === me.Key);
	return rows.map((row, i) => ({
		Key: row.Key,
		Value: row.Value,
		Rank: ranks.get(row.Key) ?? (me.Rank !== undefined ? me.Rank + i - mine : undefined),
	}));
}

// The backend's range around `me`, cached by period, size and value; undefined when the read failed.
function rangeOf(reads: StandingReads, config: Board, me: Place, size: number): Place[] | undefined {
	const { stages, removals } = reads.context;
	config.Store.needs("around", "around()", 5);
	const answers = reads.answersOf(config.Name);
	const value = me.Value!;
	const store = config.storage();
	const id = `${store}:${size}:${value}:${me.Key}`;
	if (stages.Drainer.destroyed()) return answers.ranges.cached(id, true);
	return answers.ranges.fetch(id, () => {
		const range = reads.within(() => config.around(store, value, size, me.Key));
		if (!range) return undefined;
		const shown = (row: Entry | Place) => row.Key !== me.Key && !removals.hides(config.Name, row.Key);
		return line(me, range.Ahead.filter(shown), range.Behind.filter(shown), size);
	});
}

// The subject with up to `size` rows on each side, best first.
function line(me: Place, ahead: ReadonlyArray<Entry | Place>, behind: ReadonlyArray<Entry | Place>, size: number) {
	const rows = new Array<Place>();
	for (let i = math.min(size, ahead.size()) - 1; i >= 0; i--) rows.push({ Key: ahead[i].Key, Value: ahead[i].Value });
	const length = rows.size() + 1 + size;
	rows.push({ Key: me.Key, Value: me.Value });
	for (const row of behind) {
		if (rows.size() >= length) break;
		rows.push({ Key: row.Key, Value: row.Value });
	}
	return rows;
}
