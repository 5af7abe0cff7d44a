import { Board, Entry, ReaderStage, StageFactory, Topics, storableKey } from "@rbxts/leaderboards/extend";

/** What the game already keeps: a board's values by key, or undefined while it has not loaded them. */
export type GameCache = (board: string) => ReadonlyMap<string, number> | undefined;

interface Page {
	rows: Entry[];
	builtAt: number;
}

/**
 * A Reader that serves top() and scores() from the game's own cache (a guild table its own code keeps
 * and saves, say) instead of reading the backend: the boards still queue, flush and drain as usual.
 * A board's page is built from the cache at most once per CacheSeconds (by the Clock option), ranked
 * by the board's order and cut at MaxEntries; every refresh publishes Leaderboard.Updated.
 */
export function cacheReader(cache: GameCache): StageFactory<ReaderStage> {
	return (context) => {
		const { settings, removals, kernel } = context;
		const pages = new Map<string, Page>();

		// The first `size` rows, ranked 1.., without the keys remove() or erase() hide until they land.
		const visible = (board: string, rows: Entry[], size: number) => {
			const entries = new Array<Entry>();
			for (const row of rows) {
				if (entries.size() >= size) break;
				if (!removals.hides(board, row.Key))
					entries.push({ Key: row.Key, Value: row.Value, Rank: entries.size() + 1 });
			}
			return entries;
		};

		// The cache's values ranked (all of them: removals are hidden as pages are served); a cache that
		// has not loaded keeps the old page a window longer.
		const refresh = (board: Board, page: Page | undefined) => {
			const values = cache(board.Name);
			const now = settings.clock();
			if (values === undefined) {
				if (page) page.builtAt = now;
				return page;
			}
			const rows = new Array<Entry>();
			for (const [Key, Value] of values) rows.push({ Key, Value, Rank: 0 });
			rows.sort((a, b) =>
				a.Value !== b.Value ? (board.Ascending ? a.Value < b.Value : a.Value > b.Value) : a.Key < b.Key,
			);
			const fresh = { rows, builtAt: now };
			pages.set(board.Name, fresh);
			kernel.Bus.publish(
				Topics.Updated,
				board.Name,
				visible(board.Name, fresh.rows, board.MaxEntries),
				undefined,
			);
			return fresh;
		};

		return {
			Name: "Game.CacheReader",
			// This game's boards have no Reset schedule: `period` is not read.
			top(name, count) {
				const board = settings.boards.get(name);
				if (!board) return [];
				// A count that is not a number (NaN included) means the whole page.
				const asked = typeIs(count, "number") && count === count ? math.floor(count) : board.MaxEntries;
				const size = math.min(asked, board.MaxEntries);
				if (size <= 0) return [];
				let page = pages.get(name);
				if (!page || settings.clock() - page.builtAt >= board.CacheSeconds) page = refresh(board, page);
				return page ? visible(name, page.rows, size) : [];
			},
			scores(name, subjects) {
				const board = settings.boards.get(name);
				if (!board) return new Map();
				const values = cache(name);
				if (values === undefined) return undefined;
				const found = new Map<string, number>();
				for (const subject of subjects) {
					const [key] = storableKey(subject, board.Store.maxKeyLength);
					const value = key !== undefined ? values.get(key) : undefined;
					if (key !== undefined && value !== undefined) found.set(key, value);
				}
				return found;
			},
			// Nothing waits on a read here (the cache answers at once), and pages hide removed and erased
			// keys each time they are served (above): Leaderboard.Draining, Removing and Erasing need no
			// handler. Nothing publishes Leaderboard.Visible nor hears Leaderboard.Heard: the game's cache
			// is the truth here, so no submit is written early and no other server's record is patched in.
		};
	};
}
