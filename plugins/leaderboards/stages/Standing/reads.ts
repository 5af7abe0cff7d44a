import { within } from "../../../../kernel";
import { Board, Entry, StageContext, Standing as Place } from "../../contracts";
import { refuseKey } from "../../core";
import { Answers } from "./Answers";

/** Stored values a board keeps (per generation) for rank() and friends(): a few players' full friend lists. */
export const VALUES_LIMIT = 5000;

// A friends board: the rows read so far, ranked among themselves, and how many of the list are unread.
export interface FriendsBoard {
	readonly rows: Entry[];
	readonly unread: number;
}

// One board's answers: stored values (false: none), ranges, friends boards.
export interface BoardAnswers {
	readonly values: Answers<number | false>;
	readonly ranges: Answers<Place[]>;
	readonly friends: Answers<FriendsBoard>;
}

// What rank, around and friends share: each board's answers, the top page, a subject's place, and
// one read under RequestSeconds.
export class StandingReads {
	private readonly boards = new Map<string, BoardAnswers>();

	constructor(readonly context: StageContext) {
		const { settings } = context;
		for (const [name, board] of settings.boards) {
			this.boards.set(name, {
				values: new Answers(settings.clock, board.CacheSeconds, VALUES_LIMIT),
				ranges: new Answers(settings.clock, board.CacheSeconds),
				friends: new Answers(settings.clock, board.CacheSeconds),
			});
		}
	}

	answersOf(board: string): BoardAnswers {
		return this.boards.get(board)!;
	}

	// Removals are rare: every cached answer of the board goes.
	forget(board: string) {
		const answers = this.boards.get(board);
		if (!answers) return;
		answers.values.clear();
		answers.ranges.clear();
		answers.friends.clear();
	}

	// The top page through the Reader's cache; a page that could not be read is empty.
	page(board: string): Entry[] {
		const [ok, page] = pcall(() => this.context.stages.Reader.top(board));
		return ok ? page : [];
	}

	// The subject on the page (rank and value), else its stored value; undefined when that read failed.
	place(config: Board, key: string, page: ReadonlyArray<Entry>): Place | undefined {
		const { stages, removals } = this.context;
		const answers = this.answersOf(config.Name);
		if (refuseKey(key, config.Store.maxKeyLength) !== undefined || removals.hides(config.Name, key))
			return { Key: key };
		for (const entry of page) if (entry.Key === key) return { Key: key, Value: entry.Value, Rank: entry.Rank };
		config.Store.needs("scores", "rank() and around()", 4);
		// rank, around and friends answer for the current period, each period with its own answers.
		const id = `${config.storage()}:${key}`;
		const value = stages.Drainer.destroyed()
			? answers.values.cached(id, true)
			: answers.values.fetch(id, () => {
					const found = this.within(() => stages.Reader.scores(config.Name, [key]));
					return found && (found.get(key) ?? false);
				});
		if (value === undefined) return undefined;
		return value === false ? { Key: key } : { Key: key, Value: value };
	}

	// One yielding call under RequestSeconds: its value, or undefined when it failed, errored or ran late.
	within<T>(work: () => T | undefined): T | undefined {
		const { kernel, settings } = this.context;
		const joined = within(kernel.Scheduler, settings.RequestSeconds, work);
		return joined.settled && joined.ok ? joined.value : undefined;
	}
}
