import { Logger, SingleFlight, within } from "../../../../kernel";
import { Recent } from "./recent";
import { patchedRows } from "./patched";
import { BackendRow, Board, Entry, ReaderStage, Removals, StageContext, Subject, Topics } from "../../contracts";
import { experienceTime, storableKey, visibleOf, Warnings } from "../../core";

const log = Logger.scope("Leaderboards");

/** Pages a board keeps cached, one per period read: the current, the previous, and two more named. */
export const PAGES_PER_BOARD = 4;

interface Page {
	entries: Entry[];
	/** How many rows were asked for; fewer came back when the board ran out. */
	size: number;
	fetchedAt: number;
	/** When its rows were read from the store, in Unix seconds (a shared page may be older than its fetch). */
	readAt: number;
	/** Which read filled it (reads are numbered as they start): an older read never replaces it. */
	read: number;
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

// Rows ranked 1.. in order, leaving out keys removed after `since` (or not yet).
function ranked(rows: ReadonlyArray<BackendRow>, board: string, removals: Removals, since?: number) {
	const entries = new Array<Entry>(rows.size());
	for (const row of rows)
		if (!removals.hides(board, row.Key, since))
			entries.push({ Key: row.Key, Value: row.Value, Rank: entries.size() + 1 });
	return entries;
}

/**
 * Cached reads. top() serves a page per board and period (a storage name) and
 * reads the backend at most once per CacheSeconds (by the Clock option). When the page is missing or stale, the
 * first caller starts one read on its own thread and every concurrent caller for
 * the same board and size waits on it; a waiter cancelled meanwhile strands no
 * one. A failed read, or one past RequestSeconds, keeps the last page and
 * retries a full window later; with no page, top() returns {} and the next call
 * tries again. A read that started before the read that filled the page never
 * replaces it. An error the backend throws is raised in every waiter and the
 * next call reads again. Rows with a Key that is not a string or a Value that is
 * not a number are dropped with a warning.
 *
 * scores() skips subjects with no storable key (with a warning) and keys
 * removed or being erased (context.removals, as every read), refuses with
 * nil more keys than backend.readBudget() grants now, and gives the backend call
 * RequestSeconds.
 */
export class Reader implements ReaderStage {
	readonly Name = "Leaderboards.Reader";
	private readonly pages = new Map<string, Page>();
	// Each board's cached storage names, oldest first: at most PAGES_PER_BOARD.
	private readonly cached = new Map<string, string[]>();
	private readonly flights = new Map<string, Flight>();
	private readonly recent = new Recent();
	private released = false;
	private started = 0;
	private readonly warnings = new Warnings();

	constructor(private readonly context: StageContext) {}

	top(board: string, count?: number, period?: string): Entry[] {
		const config = this.warnings.boardOf(this.context.settings, "top", board);
		if (!config) return [];
		const [store, periodId] = config.place(period, 3);
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
		const { RequestSeconds } = this.context.settings;
		const config = this.warnings.boardOf(this.context.settings, "scores", board);
		if (!config) return new Map();
		const [store] = config.place(period, 3);
		const backend = config.Store;
		backend.needs("scores", "scores()", 3);
		if (!typeIs(subjects, "table")) error(`Leaderboards: scores() takes an array of subjects (got ${subjects})`, 3);
		const { removals } = this.context;
		const since = removals.mark();
		const keys = new Array<string>();
		const seen = new Set<string>();
		for (const subject of subjects) {
			const [key, refusal] = storableKey(subject, backend.maxKeyLength);
			if (refusal !== undefined) {
				this.warnings.once(board, refusal, `scores() skipped a subject, ${refusal}`);
			} else if (!seen.has(key!) && !removals.hides(board, key!)) {
				seen.add(key!);
				keys.push(key!);
			}
		}
		if (keys.isEmpty()) return new Map();
		const budget = backend.readBudget();
		if (budget !== undefined && keys.size() > budget) {
			log.warn(
				`${board}: scores() refused ${keys.size()} keys: the read budget grants ${budget} now (ask for fewer, or later)`,
			);
			return undefined;
		}
		const call = within(this.context.kernel.Scheduler, RequestSeconds, () => config.scores(store, keys));
		if (!call.settled) {
			log.warn(`${board}: scores() read past RequestSeconds (${RequestSeconds} s); treated as failed`);
			return undefined;
		}
		if (!call.ok) error(call.problem, 0);
		// A removal or erasure that began while the read was out hides the key too.
		for (const [key] of call.value ?? new Map<string, number>())
			if (removals.hides(board, key, since)) call.value!.delete(key);
		return call.value;
	}

	// The key is hidden (context.removals) from now on: the current period's cached page drops it at once.
	forget(board: string, key: string) {
		const config = this.context.settings.boards.get(board);
		if (!config) return;
		// On a Reset board every period's page hides the key until its removal lands.
		const store = config.storage();
		const page = this.pages.get(store);
		if (!page?.entries.some((entry) => entry.Key === key)) return;
		page.entries = ranked(page.entries, board, this.context.removals);
		this.show(config, store, page);
	}

	// An erased key (context.removals hides it on every board): every cached page, every period, drops it.
	erase(key: string) {
		for (const [store, page] of this.pages) {
			if (!page.entries.some((entry) => entry.Key === key)) continue;
			const board = this.boardOf(store);
			const config = board !== undefined ? this.context.settings.boards.get(board) : undefined;
			if (!config) continue;
			page.entries = ranked(page.entries, config.Name, this.context.removals);
			this.show(config, store, page);
		}
	}

	// The board a cached storage name belongs to.
	private boardOf(store: string): string | undefined {
		for (const [board, stores] of this.cached) if (stores.includes(store)) return board;
		return undefined;
	}

	// A page's visible top changed (or the page went): the Queue tells submits entering it without asking.
	private show(config: Board, store: string, page: Page | undefined) {
		if (config.VisibleTop <= 0) return;
		const visible = page ? visibleOf(config, page.entries) : undefined;
		this.context.kernel.Bus.publish(Topics.Visible, config.Name, store, visible);
	}

	patch(board: string, period: string | undefined, key: string, value: number, sent: number) {
		const config = this.context.settings.boards.get(board);
		if (!config) return;
		const store = config.storageFor(period);
		// Kept for a page read later from a shared copy older than the record.
		this.recent.remember(store, key, value, sent);
		const page = this.pages.get(store);
		// The page read after the record landed holds it already (or something newer).
		if (!page || sent < page.readAt || this.context.removals.hides(board, key)) return;
		page.entries = ranked(patchedRows(config, page.entries, key, value, page.size), board, this.context.removals);
		this.show(config, store, page);
		this.context.kernel.Bus.publish(Topics.Updated, board, copyOf(page.entries, page.entries.size()), period);
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
		const removals = this.context.removals;
		const since = removals.mark();
		this.started += 1;
		const order = this.started;
		const call = within(kernel.Scheduler, settings.RequestSeconds, () =>
			this.context.stages.Pages.read(config, store, size),
		);
		this.flights.delete(id);
		if (!call.ok && call.settled) error(call.problem, 0);
		if (!call.settled)
			log.warn(
				`${config.Name}: top() read past RequestSeconds (${settings.RequestSeconds} s); treated as failed`,
			);
		const page = this.pages.get(store);
		const rows = call.value?.Rows;
		if (!rows) {
			if (!page) return [];
			page.retryAt = settings.clock() + config.CacheSeconds;
			return page.entries;
		}
		// When the store was read for these rows (a shared page's may be older than this call).
		const readAt = call.value!.ReadAt;
		const age = math.max(0, experienceTime() - readAt);
		const entries = ranked(this.recent.since(config, store, rows, readAt, size), config.Name, removals, since);
		removals.readFrom(config.Name, since);
		if (page && page.read > order) return entries;
		if (!page) this.remember(config, store);
		const fresh = { entries, size, fetchedAt: settings.clock() - age, readAt, read: order };
		this.pages.set(store, fresh);
		this.show(config, store, fresh);
		kernel.Bus.publish(Topics.Updated, config.Name, copyOf(entries, entries.size()), periodId);
		return entries;
	}

	// A board's new page pushes out, beyond PAGES_PER_BOARD, its oldest that is neither the current
	// nor the previous period's (past periods a game read once go first).
	private remember(config: Board, store: string) {
		let stores = this.cached.get(config.Name);
		if (!stores) {
			stores = [];
			this.cached.set(config.Name, stores);
		}
		stores.push(store);
		if (stores.size() <= PAGES_PER_BOARD) return;
		const current = config.storage();
		const previous = config.previousStorage();
		const evicted = stores.remove(stores.findIndex((name) => name !== current && name !== previous))!;
		this.pages.delete(evicted);
		this.show(config, evicted, undefined);
	}
}
