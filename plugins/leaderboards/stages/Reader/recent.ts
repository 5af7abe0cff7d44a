import { BackendRow, Board } from "../../contracts";
import { patchedRows } from "./patched";

/** Records a storage name remembers, and for how long (seconds of experienceTime). */
export const RECENT_KEPT = 50;
export const RECENT_SECONDS = 300;

// Records announced to this server, by storage name: a page read later from a shared copy older
// than a record (the shared page refreshes once per CacheSeconds) gets it back, so a row never
// flickers to its older value.
export class Recent {
	private readonly stores = new Map<string, Array<[key: string, value: number, sent: number]>>();

	remember(store: string, key: string, value: number, sent: number) {
		let records = this.stores.get(store);
		if (!records) {
			records = [];
			this.stores.set(store, records);
		}
		records.push([key, value, sent]);
		if (records.size() > RECENT_KEPT) records.remove(0);
	}

	/** The rows read at `readAt` with every record announced after it patched in, cut to `size`. */
	since(config: Board, store: string, rows: BackendRow[], readAt: number, size: number): BackendRow[] {
		const records = this.stores.get(store);
		if (!records) return rows;
		let patched = rows;
		for (const [key, value, sent] of records)
			if (sent > readAt) patched = patchedRows(config, patched, key, value, size);
		// Forgotten once older than any shared page could be.
		while (!records.isEmpty() && readAt - records[0][2] > RECENT_SECONDS) records.remove(0);
		if (records.isEmpty()) this.stores.delete(store);
		return patched;
	}
}
