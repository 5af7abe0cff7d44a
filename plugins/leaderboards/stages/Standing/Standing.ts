import { Board, Entry, StageContext, Standing as Place, StandingStage, Subject, Topics } from "../../contracts";
import { shown, storableKey, subjectKey, SUBJECTS, userIdOf, Warnings } from "../../core";
import { AROUND_DEFAULT, AROUND_LIMIT, aroundOf } from "./around";
import { Friends } from "./friends";
import { StandingReads } from "./reads";

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
	private readonly reads: StandingReads;
	private readonly friendsBoards: Friends;
	private readonly warnings = new Warnings();

	constructor(private readonly context: StageContext) {
		this.reads = new StandingReads(context);
		this.friendsBoards = new Friends(this.reads);
		// A removal landed, or was dropped (the value stayed stored): the board's answers are stale.
		context.removals.onSettled((board) => this.reads.forget(board));
	}

	rank(board: string, subject: Subject): Place | undefined {
		const config = this.boardOf(board, "rank");
		if (!config) return undefined;
		return this.reads.place(config, this.keyOf(subject, "rank"), this.reads.page(board));
	}

	around(board: string, subject: Subject, count?: number): Place[] | undefined {
		const config = this.boardOf(board, "around");
		if (!config) return undefined;
		if (count !== undefined && (!typeIs(count, "number") || count !== count))
			error(`Leaderboards: around() count must be a number or nil (got ${shown(count)})`, 3);
		const size = count !== undefined ? math.clamp(math.floor(count), 0, AROUND_LIMIT) : AROUND_DEFAULT;
		const key = this.keyOf(subject, "around");
		const page = this.reads.page(board);
		const me = this.reads.place(config, key, page);
		if (!me || me.Value === undefined) return me && [];
		if (size === 0) return [me];
		return aroundOf(this.reads, config, me, page, size);
	}

	friends(board: string, player: Subject): LuaTuple<[Entry[] | undefined, number | undefined]> {
		const { settings } = this.context;
		const config = this.boardOf(board, "friends");
		if (!config) return $tuple(undefined, undefined);
		const [key, junk] = subjectKey(player);
		const userId = userIdOf(key);
		if (userId === undefined)
			error(
				`Leaderboards: friends() player must be a Player, this game's User, a session with a Player or a UserId (got ${typeIs(player, "User") ? junk : shown(player)})`,
				3,
			);
		config.Store.needs("scores", "friends()", 3);
		if (!settings.players.GetFriendsAsync)
			error("Leaderboards: friends() needs Players with GetFriendsAsync (the Players option)", 3);
		const answer = this.friendsBoards.answer(config, key!, userId);
		if (!answer) return $tuple(undefined, undefined);
		const rows = answer.rows.map((row) => ({ Key: row.Key, Value: row.Value, Rank: row.Rank }));
		return $tuple(rows, answer.unread);
	}

	remove(board: string, subject: Subject): boolean {
		const { stages } = this.context;
		const config = this.boardOf(board, "remove");
		if (!config) return false;
		config.Store.needs("remove", "remove()", 3);
		const [key, refusal] = storableKey(subject, config.Store.maxKeyLength);
		if (refusal !== undefined) {
			this.warnings.once(board, `remove ${refusal}`, `remove() refused, ${refusal}`);
			return false;
		}
		if (!stages.Queue.remove) error("Leaderboards: remove() needs a Queue stage with remove()", 3);
		if (!stages.Queue.remove(board, key!)) return false;
		this.context.removals.hide(board, key!);
		this.context.kernel.Bus.publish(Topics.Removing, board, key!);
		this.reads.forget(board);
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
}
