import { Board, Entry, PlayerLookup } from "../../contracts";
import { isBetter } from "../../core";
import { Answers } from "./Answers";
import { friendsWhoPlayed } from "./played";
import { FriendsBoard, StandingReads } from "./reads";

/** Friend lists are cached this long, in seconds (by the Clock option). */
export const FRIENDS_SECONDS = 600;

/** GetCurrentPage items of a FriendPages. */
type FriendItem = { Id: number };

// friends(): the player's friends who played, else their whole friend list (cached FRIENDS_SECONDS), values from the top page or read with
// scores() as far as the read budget grants, ranked among themselves.
export class Friends {
	private readonly lists: Answers<number[]>;

	constructor(private readonly reads: StandingReads) {
		this.lists = new Answers(reads.context.settings.clock, FRIENDS_SECONDS);
	}

	// The friends board of the player (`key`, `userId`); undefined when a read failed.
	answer(config: Board, key: string, userId: number): FriendsBoard | undefined {
		const destroyed = this.reads.context.stages.Drainer.destroyed();
		const ids = destroyed ? this.lists.cached(tostring(userId), true) : this.friendsOf(userId);
		if (!ids) return undefined;
		const keys = [key];
		for (const id of ids) if (id !== userId) keys.push(tostring(id));
		if (destroyed) return this.board(config, keys, false);
		const answers = this.reads.answersOf(config.Name);
		return answers.friends.shared(`${config.storage()}:${key}`, () => this.board(config, keys, true));
	}

	// The friends board of `keys` (the player first): each key's value from the top page, else as
	// last read; when `read`, one scores() read of the keys the budget grants, unread first.
	private board(config: Board, keys: string[], read: boolean): FriendsBoard | undefined {
		const { removals } = this.reads.context;
		const values = this.reads.answersOf(config.Name).values;
		const store = config.storage();
		const onPage = new Map<string, number>();
		for (const entry of this.reads.page(config.Name)) onPage.set(entry.Key, entry.Value);
		if (read) {
			const chunk = this.chunkOf(config, store, keys, onPage);
			if (!chunk.isEmpty() && !this.readValues(config, store, chunk)) return undefined;
		}
		const rows = new Array<Entry>();
		let unread = 0;
		for (const key of keys) {
			if (removals.hides(config.Name, key)) continue;
			const value = onPage.get(key) ?? values.known(`${store}:${key}`)?.value;
			if (value === undefined) unread += 1;
			else if (value !== false) rows.push({ Key: key, Value: value, Rank: 0 });
		}
		rows.sort((a, b) => (a.Value !== b.Value ? isBetter(a.Value, b.Value, config.Ascending) : a.Key < b.Key));
		rows.forEach((row, i) => (row.Rank = i + 1));
		return { rows, unread };
	}

	// The keys one read takes: unread first, then the stalest past CacheSeconds, as many as the grant.
	private chunkOf(config: Board, store: string, keys: string[], onPage: Map<string, number>): string[] {
		const { settings, removals } = this.reads.context;
		const values = this.reads.answersOf(config.Name).values;
		const now = settings.clock();
		const unread = new Array<string>();
		const stale = new Array<{ key: string; at: number }>();
		for (const key of keys) {
			if (removals.hides(config.Name, key) || onPage.has(key)) continue;
			const last = values.known(`${store}:${key}`);
			if (!last) unread.push(key);
			else if (now - last.at >= config.CacheSeconds) stale.push({ key, at: last.at });
		}
		stale.sort((a, b) => a.at < b.at);
		const chunk = new Array<string>();
		const grant = this.readGrant(config, keys.size());
		for (const key of unread) if (chunk.size() < grant) chunk.push(key);
		for (const row of stale) if (chunk.size() < grant) chunk.push(row.key);
		return chunk;
	}

	// Keys one friends() read may take: what the read budget holds now less WritesPerFlush (half the
	// budget when it holds less), kept for the next window's writes (UpdateAsync spends the same
	// OrderedRead budget), rank() and scores(). No readBudget: every key.
	private readGrant(config: Board, keys: number): number {
		const { settings } = this.reads.context;
		const budget = config.Store.readBudget();
		if (!typeIs(budget, "number") || budget !== budget) return keys;
		const held = math.floor(budget);
		return math.max(0, held - math.min(settings.WritesPerFlush, math.floor(held / 2)));
	}

	// One scores() read of `keys` into the board's values (false: nothing stored); false when it failed.
	private readValues(config: Board, store: string, keys: string[]): boolean {
		const { stages } = this.reads.context;
		const found = this.reads.answersOf(config.Name).values.fill(() => {
			const stored = this.reads.within(() => stages.Reader.scores(config.Name, keys));
			if (!stored) return undefined;
			const values = new Map<string, number | false>();
			for (const key of keys) values.set(`${store}:${key}`, stored.get(key) ?? false);
			return values;
		});
		return found !== undefined;
	}

	// The player's friends' UserIds: those who played this game when Roblox answers that, else the
	// whole friend list; undefined when a page read failed.
	private friendsOf(userId: number): number[] | undefined {
		const players = this.reads.context.settings.players;
		return this.lists.fetch(
			tostring(userId),
			() => this.reads.within(() => friendsWhoPlayed(players, userId)) ?? this.friendList(players, userId),
		);
	}

	// Every friend's UserId, from GetFriendsAsync pages; undefined when a page read failed.
	private friendList(players: PlayerLookup, userId: number): number[] | undefined {
		return this.reads.within(() => {
			const pages = players.GetFriendsAsync!(userId);
			const ids = new Array<number>();
			for (;;) {
				for (const item of pages.GetCurrentPage() as unknown as FriendItem[]) ids.push(item.Id);
				if (pages.IsFinished) return ids;
				pages.AdvanceToNextPageAsync();
			}
		});
	}
}
