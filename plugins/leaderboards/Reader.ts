import { SingleFlight } from "../../kernel";
import { Board, Entry, ReaderStage, StageContext, Subject, Topics, readPlace, resolveKey } from "./types";

/** Pages a board keeps cached, one per period read (the current, the previous, a few named). */
export const PAGES_PER_BOARD = 4;

interface Page {
	entries: Entry[];
	/** How many rows were asked for; fewer came back when the board ran out. */
	size: number;
	fetchedAt: number;
	/** After a failed read, the stale page is served until then. */
	retryAt?: number;
}

interface Flight {
	readonly store: string;
	readonly read: SingleFlight<Entry[]>;
}

function copyOf(entries: ReadonlyArray<Entry>, count: number): Entry[] {
	const size = math.min(count, entries.size());
	const result = new Array<Entry>(size);
	for (let i = 0; i < size; i++) {
		const entry = entries[i];
		result.push({ Key: entry.Key, Value: entry.Value, Rank: entry.Rank });
	}
	return result;
}

/**
 * Cached reads. top() serves a page per board and period (a storage name) and
 * reads the backend at most once per CacheSeconds (by the Clock option). When the page is missing or stale, the
 * first caller starts one read on its own thread and every concurrent caller for
 * the same board and size waits on it; a waiter cancelled meanwhile strands no
 * one. A failed read keeps the last page and retries a full window later; with
 * no page, top() returns {} and the next call tries again. An error the backend
 * throws is raised in every waiter and the next call reads again.
 */
export class Reader implements ReaderStage {
	readonly Name = "Leaderboards.Reader";
	private readonly pages = new Map<string, Page>();
	// Each board's cached storage names, oldest first: at most PAGES_PER_BOARD.
	private readonly cached = new Map<string, string[]>();
	private readonly flights = new Map<string, Flight>();
	private released = false;

	constructor(private readonly context: StageContext) {}

	top(board: string, count?: number, period?: string): Entry[] {
		const config = this.context.settings.boards.get(board);
		if (!config) return [];
		const [store, periodId] = readPlace(board, config.Period, period, this.context.settings.unixTime);
		// A count that is not a number (NaN included) means the whole page.
		const asked = typeIs(count, "number") && count === count ? math.floor(count) : config.MaxEntries;
		const size = math.min(asked, config.MaxEntries);
		if (size <= 0) return [];
		const page = this.pages.get(store);
		if (this.released || (page && this.serves(page, config, size))) return copyOf(page?.entries ?? [], size);
		const id = `${size}:${store}`;
		let flight = this.flights.get(id);
		if (!flight) {
			flight = { store, read: new SingleFlight(() => this.read(id, config, size, store, periodId)) };
			if (!flight.read.settled()) this.flights.set(id, flight);
		}
		return copyOf(flight.read.wait(), size);
	}

	scores(board: string, subjects: ReadonlyArray<Subject>, period?: string): Map<string, number> | undefined {
		const { backend, boards, unixTime } = this.context.settings;
		const config = boards.get(board);
		if (!config) return new Map();
		const [store] = readPlace(board, config.Period, period, unixTime);
		if (!backend.scores) error("Leaderboards: scores() needs a backend with scores(); this backend has none", 2);
		const keys = new Array<string>();
		const seen = new Set<string>();
		for (const subject of subjects) {
			const key = resolveKey(subject);
			if (!seen.has(key)) {
				seen.add(key);
				keys.push(key);
			}
		}
		if (keys.isEmpty()) return new Map();
		return backend.scores(store, keys);
	}

	release() {
		this.released = true;
		for (const [, flight] of this.flights) flight.read.release(this.pages.get(flight.store)?.entries ?? []);
	}

	// The cached page answers this call: fresh (or backing off after a failure) and big enough.
	private serves(page: Page, config: Board, size: number): boolean {
		const now = this.context.settings.clock();
		const current =
			now - page.fetchedAt < config.CacheSeconds || (page.retryAt !== undefined && now < page.retryAt);
		return current && (page.size >= size || page.entries.size() < page.size);
	}

	private read(id: string, config: Board, size: number, store: string, periodId?: string): Entry[] {
		const { settings, kernel } = this.context;
		const [ok, rows] = pcall(() => settings.backend.sorted(store, config.Ascending, size));
		this.flights.delete(id);
		if (!ok) error(rows, 0);
		const page = this.pages.get(store);
		if (rows === undefined) {
			if (!page) return [];
			page.retryAt = settings.clock() + config.CacheSeconds;
			return page.entries;
		}
		const entries = new Array<Entry>(rows.size());
		for (const row of rows) entries.push({ Key: row.Key, Value: row.Value, Rank: entries.size() + 1 });
		if (!page) this.remember(config.Name, store);
		this.pages.set(store, { entries, size, fetchedAt: settings.clock() });
		kernel.Bus.publish(Topics.Updated, config.Name, copyOf(entries, entries.size()), periodId);
		return entries;
	}

	// A board's new page pushes out its oldest beyond PAGES_PER_BOARD (past periods a game read once).
	private remember(board: string, store: string) {
		let stores = this.cached.get(board);
		if (!stores) {
			stores = [];
			this.cached.set(board, stores);
		}
		stores.push(store);
		if (stores.size() > PAGES_PER_BOARD) this.pages.delete(stores.shift()!);
	}
}
