import { SingleFlight, within } from "../../../../kernel";
import {
	Board,
	Entry,
	Standing as Place,
	StageContext,
	StandingStage,
	Subject,
	Warnings,
	isBetter,
	readPlace,
	refuseKey,
	SUBJECTS,
	storableKey,
	shown,
	subjectKey,
	userIdOf,
} from "../../types";

/** around() rows on each side when count is not a number. */
export const AROUND_DEFAULT = 5;
/** around() rows on each side at most (a GetSortedAsync page holds 100: count ahead, count + 1 behind). */
export const AROUND_LIMIT = 50;
/** Friend lists are cached this long, in seconds (by the Clock option). */
export const FRIENDS_SECONDS = 600;
/** Each of the stage's caches keeps this many answers, and as many older ones (a larger cache's older half goes). */
export const STANDING_CACHE_LIMIT = 1000;
/** Stored values a board keeps (per generation) for rank() and friends(): a few players' full friend lists. */
export const VALUES_LIMIT = 5000;

interface Answer<T> {
	readonly value: T;
	readonly at: number;
}

// Answers by id, fresh for `seconds`: the first caller reads, concurrent callers
// wait on that read, and a failed read (undefined) is not kept.
class Answers<T> {
	private cache = new Map<string, Answer<T>>();
	// The answers kept before `cache` filled up: found until `cache` fills again.
	private older = new Map<string, Answer<T>>();
	private size = 0;
	private readonly flights = new Map<string, SingleFlight<T | undefined>>();
	// Bumped by clear(): a read begun before it does not fill the new cache.
	private generation = 0;

	constructor(
		private readonly clock: () => number,
		private readonly seconds: number,
		private readonly limit = STANDING_CACHE_LIMIT,
	) {}

	// The answer and when it was read, at any age. O(1).
	known(id: string): Answer<T> | undefined {
		return this.cache.get(id) ?? this.older.get(id);
	}

	// The answer when cached (at any age when `stale`), else undefined. O(1).
	cached(id: string, stale: boolean): T | undefined {
		const answer = this.known(id);
		return answer && (stale || this.clock() - answer.at < this.seconds) ? answer.value : undefined;
	}

	// Yields when the answer is missing or stale.
	fetch(id: string, read: () => T | undefined): T | undefined {
		const fresh = this.cached(id, false);
		if (fresh !== undefined) return fresh;
		return this.shared(id, () => {
			const generation = this.generation;
			const value = read();
			if (generation === this.generation && value !== undefined) this.keep(id, value);
			return value;
		});
	}

	// Yields: one read per id at a time, concurrent callers waiting on it; nothing kept.
	shared(id: string, read: () => T | undefined): T | undefined {
		let flight = this.flights.get(id);
		if (!flight) {
			const generation = this.generation;
			flight = new SingleFlight(() => {
				// A read that raises (a replaced stage's error) must not leave its flight for later callers.
				try {
					return read();
				} finally {
					if (generation === this.generation) this.flights.delete(id);
				}
			});
			if (!flight.settled()) this.flights.set(id, flight);
		}
		return flight.wait();
	}

	// Yields: keeps every answer a batch read returns, unless clear() came meanwhile.
	fill(read: () => Map<string, T> | undefined): Map<string, T> | undefined {
		const generation = this.generation;
		const found = read();
		if (found && generation === this.generation) for (const [id, value] of found) this.keep(id, value);
		return found;
	}

	clear() {
		this.generation += 1;
		this.cache = new Map();
		this.older = new Map();
		this.size = 0;
		this.flights.clear();
	}

	private keep(id: string, value: T) {
		if (!this.cache.has(id)) {
			if (this.size >= this.limit) {
				this.older = this.cache;
				this.cache = new Map();
				this.size = 0;
			}
			this.size += 1;
		}
		this.cache.set(id, { value, at: this.clock() });
	}
}

// A friends board: the rows read so far, ranked among themselves, and how many of the list are unread.
interface FriendsBoard {
	readonly rows: Entry[];
	readonly unread: number;
}

// One board's answers: stored values (false: none), ranges, friends boards.
interface BoardAnswers {
	readonly values: Answers<number | false>;
	readonly ranges: Answers<Place[]>;
	readonly friends: Answers<FriendsBoard>;
}

/** GetCurrentPage items of a FriendPages. */
type FriendItem = { Id: number };

/**
 * Where a subject stands, read through the Reader's page cache and the backend
 * contract, every answer cached for the board's CacheSeconds with one read
 * shared by concurrent callers, every read under RequestSeconds. A read that
 * fails, errors or passes its deadline answers nil (and is not cached); after
 * destroy() only cached answers are served. A subject with no key (or, for
 * friends, no UserId) and a count that is not a number raise, naming the
 * argument; an unknown board is nil, with a warning once per name.
 *
 * - rank: the top page (Reader.top) holds the subject: its rank and value;
 *   else its stored value (one scores() read) and no rank.
 * - around: from the top page when it holds the subject and count rows on each
 *   side; else one backend around() (two OrderedList reads on the default
 *   backend), ranks where the page knows them.
 * - friends: the player's friend list (Players:GetFriendsAsync pages, cached
 *   FRIENDS_SECONDS); values on the top page cost nothing, the others are
 *   read with scores(), as many a call as the read budget holds beyond
 *   WritesPerFlush (or half of it) (unread first, then the stalest past
 *   CacheSeconds), and kept per key with rank()'s values. The answer ranks
 *   every value known and says how many of the list are still unread.
 * - remove: queues the removal in the Queue (so it is written, retried and
 *   drained like a write, before anything submitted later), and hides the key
 *   from the Reader's pages and these answers until it lands.
 */
export class Standing implements StandingStage {
	readonly Name = "Leaderboards.Standing";
	private readonly boards = new Map<string, BoardAnswers>();
	private readonly friendLists: Answers<number[]>;
	private readonly warnings = new Warnings();

	constructor(private readonly context: StageContext) {
		const { settings } = context;
		for (const [name, board] of settings.boards) {
			this.boards.set(name, {
				values: new Answers(settings.clock, board.CacheSeconds, VALUES_LIMIT),
				ranges: new Answers(settings.clock, board.CacheSeconds),
				friends: new Answers(settings.clock, board.CacheSeconds),
			});
		}
		this.friendLists = new Answers(settings.clock, FRIENDS_SECONDS);
		// A removal landed, or was dropped (the value stayed stored): the board's answers are stale.
		context.removals.onSettled((board) => {
			const answers = this.boards.get(board);
			if (answers) this.forget(answers);
		});
	}

	rank(board: string, subject: Subject): Place | undefined {
		const config = this.boardOf(board, "rank");
		if (!config) return undefined;
		return this.place(config, this.keyOf(subject, "rank"), this.page(board));
	}

	around(board: string, subject: Subject, count?: number): Place[] | undefined {
		const { settings, stages } = this.context;
		const config = this.boardOf(board, "around");
		if (!config) return undefined;
		if (count !== undefined && (!typeIs(count, "number") || count !== count))
			error(`Leaderboards: around() count must be a number or nil (got ${shown(count)})`, 3);
		const size = count !== undefined ? math.clamp(math.floor(count), 0, AROUND_LIMIT) : AROUND_DEFAULT;
		const key = this.keyOf(subject, "around");
		const page = this.page(board);
		const me = this.place(config, key, page);
		if (!me || me.Value === undefined) return me && [];
		if (size === 0) return [me];
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
		const backend = settings.store;
		backend.needs("around", "around()", 2);
		const answers = this.boards.get(board)!;
		const value = me.Value;
		const store = this.storageOf(config);
		const id = `${store}:${size}:${value}:${me.Key}`;
		const rows = stages.Drainer.destroyed()
			? answers.ranges.cached(id, true)
			: answers.ranges.fetch(id, () => {
					const range = this.within(() => backend.around(store, config.Ascending, value, size, me.Key));
					return range && this.line(config.Name, me, range.Ahead, range.Behind, size);
				});
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

	friends(board: string, player: Subject): LuaTuple<[Entry[] | undefined, number | undefined]> {
		const { settings, stages } = this.context;
		const config = this.boardOf(board, "friends");
		if (!config) return $tuple(undefined, undefined);
		const [key] = subjectKey(player);
		const userId = userIdOf(key);
		if (userId === undefined)
			error(
				`Leaderboards: friends() player must be a Player, a session with a Player or a UserId (got ${shown(player)})`,
				3,
			);
		settings.store.needs("scores", "friends()", 2);
		if (!settings.players.GetFriendsAsync)
			error("Leaderboards: friends() needs Players with GetFriendsAsync (the Players option)", 2);
		const destroyed = stages.Drainer.destroyed();
		const ids = destroyed ? this.friendLists.cached(tostring(userId), true) : this.friendsOf(userId);
		if (!ids) return $tuple(undefined, undefined);
		const keys = [key!];
		for (const id of ids) if (id !== userId) keys.push(tostring(id));
		const answers = this.boards.get(board)!;
		const answer = destroyed
			? this.friendsBoard(config, keys, false)
			: answers.friends.shared(`${this.storageOf(config)}:${key}`, () => this.friendsBoard(config, keys, true));
		if (!answer) return $tuple(undefined, undefined);
		const rows = answer.rows.map((row) => ({ Key: row.Key, Value: row.Value, Rank: row.Rank }));
		return $tuple(rows, answer.unread);
	}

	remove(board: string, subject: Subject): boolean {
		const { settings, stages } = this.context;
		if (!this.boardOf(board, "remove")) return false;
		settings.store.needs("remove", "remove()", 2);
		const [key, refusal] = storableKey(subject, settings.store.maxKeyLength);
		if (refusal !== undefined) {
			this.warnings.once(board, `remove ${refusal}`, `remove() refused, ${refusal}`);
			return false;
		}
		if (!stages.Queue.remove) error("Leaderboards: remove() needs a Queue stage with remove()", 2);
		if (!stages.Queue.remove(board, key!)) return false;
		this.context.removals.hide(board, key!);
		stages.Reader.forget?.(board, key!);
		this.forget(this.boards.get(board)!);
		return true;
	}

	private boardOf(board: string, call: string): Board | undefined {
		return this.warnings.boardOf(this.context.settings, call, board);
	}

	// The subject's storage key; a subject with none is the game's bug: raised at its call, naming it.
	private keyOf(subject: Subject, call: string): string {
		const [key, junk] = subjectKey(subject);
		if (key === undefined) error(`Leaderboards: ${call}() subject is ${junk}: pass ${SUBJECTS}`, 4);
		return key;
	}

	// The friends board of `keys` (the player first): each key's value from the top page, else as
	// last read; when `read`, one scores() read of the keys the budget grants, unread first.
	private friendsBoard(config: Board, keys: string[], read: boolean): FriendsBoard | undefined {
		const answers = this.boards.get(config.Name)!;
		const store = this.storageOf(config);
		const onPage = new Map<string, number>();
		for (const entry of this.page(config.Name)) onPage.set(entry.Key, entry.Value);
		if (read) {
			const now = this.context.settings.clock();
			const unread = new Array<string>();
			const stale = new Array<{ key: string; at: number }>();
			for (const key of keys) {
				if (this.context.removals.hides(config.Name, key) || onPage.has(key)) continue;
				const last = answers.values.known(`${store}:${key}`);
				if (!last) unread.push(key);
				else if (now - last.at >= config.CacheSeconds) stale.push({ key, at: last.at });
			}
			stale.sort((a, b) => a.at < b.at);
			const chunk = new Array<string>();
			const grant = this.readGrant(keys.size());
			for (const key of unread) if (chunk.size() < grant) chunk.push(key);
			for (const row of stale) if (chunk.size() < grant) chunk.push(row.key);
			if (!chunk.isEmpty() && !this.readValues(config, store, chunk)) return undefined;
		}
		const rows = new Array<Entry>();
		let unread = 0;
		for (const key of keys) {
			if (this.context.removals.hides(config.Name, key)) continue;
			const value = onPage.get(key) ?? answers.values.known(`${store}:${key}`)?.value;
			if (value === undefined) unread += 1;
			else if (value !== false) rows.push({ Key: key, Value: value, Rank: 0 });
		}
		rows.sort((a, b) => (a.Value !== b.Value ? isBetter(a.Value, b.Value, config.Ascending) : a.Key < b.Key));
		rows.forEach((row, i) => (row.Rank = i + 1));
		return { rows, unread };
	}

	// Keys one friends() read may take: what the read budget holds now less WritesPerFlush (half the
	// budget when it holds less), kept for the next window's writes (UpdateAsync spends the same
	// OrderedRead budget), rank() and scores(). No readBudget: every key.
	private readGrant(keys: number): number {
		const { settings } = this.context;
		const budget = settings.store.readBudget();
		if (!typeIs(budget, "number") || budget !== budget) return keys;
		const held = math.floor(budget);
		return math.max(0, held - math.min(settings.WritesPerFlush, math.floor(held / 2)));
	}

	// One scores() read of `keys` into the board's values (false: nothing stored); false when it failed.
	private readValues(config: Board, store: string, keys: string[]): boolean {
		const { stages } = this.context;
		const found = this.boards.get(config.Name)!.values.fill(() => {
			const stored = this.within(() => stages.Reader.scores(config.Name, keys));
			if (!stored) return undefined;
			const values = new Map<string, number | false>();
			for (const key of keys) values.set(`${store}:${key}`, stored.get(key) ?? false);
			return values;
		});
		return found !== undefined;
	}

	// Removals are rare: every cached answer of the board goes.
	private forget(answers: BoardAnswers) {
		answers.values.clear();
		answers.ranges.clear();
		answers.friends.clear();
	}

	// Where the board's current period is stored (the board's name on an all-time board):
	// rank, around and friends answer for the current period, each period with its own answers.
	private storageOf(config: Board): string {
		const [store] = readPlace(config.Name, config.Period, undefined, this.context.settings.unixTime);
		return store;
	}

	// The top page through the Reader's cache; a page that could not be read is empty.
	private page(board: string): Entry[] {
		const [ok, page] = pcall(() => this.context.stages.Reader.top(board));
		return ok ? page : [];
	}

	// The subject on the page (rank and value), else its stored value; undefined when that read failed.
	private place(config: Board, key: string, page: ReadonlyArray<Entry>): Place | undefined {
		const { settings, stages } = this.context;
		const answers = this.boards.get(config.Name)!;
		if (refuseKey(key, settings.store.maxKeyLength) !== undefined || this.context.removals.hides(config.Name, key))
			return { Key: key };
		for (const entry of page) if (entry.Key === key) return { Key: key, Value: entry.Value, Rank: entry.Rank };
		settings.store.needs("scores", "rank() and around()", 3);
		const id = `${this.storageOf(config)}:${key}`;
		const value = stages.Drainer.destroyed()
			? answers.values.cached(id, true)
			: answers.values.fetch(id, () => {
					const found = this.within(() => stages.Reader.scores(config.Name, [key]));
					return found && (found.get(key) ?? false);
				});
		if (value === undefined) return undefined;
		return value === false ? { Key: key } : { Key: key, Value: value };
	}

	// The subject with up to `size` rows on each side, best first.
	private line(
		board: string,
		me: Place,
		ahead: ReadonlyArray<Entry | Place>,
		behind: ReadonlyArray<Entry | Place>,
		size: number,
	): Place[] {
		const removals = this.context.removals;
		const shown = (row: Entry | Place) => row.Key !== me.Key && !removals.hides(board, row.Key);
		const before = ahead.filter(shown);
		const rows = new Array<Place>();
		for (let i = math.min(size, before.size()) - 1; i >= 0; i--)
			rows.push({ Key: before[i].Key, Value: before[i].Value });
		const length = rows.size() + 1 + size;
		rows.push({ Key: me.Key, Value: me.Value });
		for (const row of behind.filter(shown)) {
			if (rows.size() >= length) break;
			rows.push({ Key: row.Key, Value: row.Value });
		}
		return rows;
	}

	// One yielding call under RequestSeconds: its value, or undefined when it failed, errored or ran late.
	private within<T>(work: () => T | undefined): T | undefined {
		const { kernel, settings } = this.context;
		const joined = within(kernel.Scheduler, settings.RequestSeconds, work);
		return joined.settled && joined.ok ? joined.value : undefined;
	}

	// The player's friends' UserIds; undefined when a page read failed.
	private friendsOf(userId: number): number[] | undefined {
		const players = this.context.settings.players;
		return this.friendLists.fetch(tostring(userId), () =>
			this.within(() => {
				const pages = players.GetFriendsAsync!(userId);
				const ids = new Array<number>();
				for (;;) {
					for (const item of pages.GetCurrentPage() as unknown as FriendItem[]) ids.push(item.Id);
					if (pages.IsFinished) return ids;
					pages.AdvanceToNextPageAsync();
				}
			}),
		);
	}
}
