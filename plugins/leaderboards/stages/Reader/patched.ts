import { BackendRow, Board } from "../../contracts";
import { isBetter, ranksBefore } from "../../core";

/** The page's rows with a record patched in: the better on a keep-best board, else the record; ranked, cut to `size`. */
export function patchedRows(
	config: Board,
	entries: ReadonlyArray<BackendRow>,
	key: string,
	value: number,
	size: number,
): BackendRow[] {
	const rows = new Array<BackendRow>();
	let found = false;
	for (const entry of entries) {
		if (entry.Key !== key) rows.push({ Key: entry.Key, Value: entry.Value });
		else {
			found = true;
			const kept = config.Rule.Kind === "KeepBest" && !isBetter(value, entry.Value, config.Ascending);
			rows.push({ Key: key, Value: kept ? entry.Value : value });
		}
	}
	if (!found) rows.push({ Key: key, Value: value });
	rows.sort((a, b) => ranksBefore(a.Value, a.Key, b, config.Ascending));
	while (rows.size() > size) rows.pop();
	return rows;
}
