import { Kernel } from "../../kernel";
import {
	Backend,
	BackendRange,
	BackendRow,
	LeaderboardOptions,
	Leaderboards,
	attach,
} from "../../plugins/leaderboards";

/** An in-memory backend with countable calls and injectable faults. */
export class MemoryBackend {
	readonly stored = new Map<string, Map<string, number>>();
	/** Every write attempt, in order: board, key, value, and the thread it ran on. */
	readonly writes = new Array<{ board: string; key: string; value: number; thread: thread }>();
	sortedCalls = 0;
	scoresCalls = 0;
	/** Keys every scores read asked for, in all. */
	keysRead = 0;
	/** readBudget() answer; undefined leaves readBudget out of the backend. */
	readBudgetValue?: number;
	/** Seconds each write yields before it lands. */
	writeSeconds = 0;
	/** The next write of each key here yields these seconds instead of writeSeconds (once). */
	readonly slowOnce = new Map<string, number>();
	/** Seconds each sorted read yields. */
	readSeconds = 0;
	/** The next N writes return false. */
	failWrites = 0;
	/** The next N writes throw. */
	throwWrites = 0;
	/** The next N writes never return. */
	hangWrites = 0;
	/** sorted returns undefined (a failed read) while true. */
	failReads = false;
	/** sorted throws this while set. */
	throwReads?: string;
	/** The next N sorted reads never return. */
	hangReads = 0;
	/** The next N scores reads never return. */
	hangScores = 0;
	/** Seconds each scores read yields. */
	scoresSeconds = 0;
	/** While set, sorted returns these rows as they are (a custom backend's junk). */
	rawRows?: unknown;
	/** budget() answer; undefined leaves budget out of the backend. */
	budgetValue?: number;
	/** Called inside each write, before it lands (a backend that calls destroy() from its write). */
	duringWrite?: () => void;
	/** Writes that have started and not returned, and the most there ever were at once. */
	writing = 0;
	mostWriting = 0;
	/** Every remove call, in order: board and key. */
	readonly removes = new Array<{ board: string; key: string }>();
	/** The next N removes return false. */
	failRemoves = 0;
	aroundCalls = 0;
	/** around returns undefined (failed or refused) while true. */
	failAround = false;
	/** scores returns undefined (a failed read) while true. */
	failScores = false;
	/** Seconds each scores and around read yields. */
	lookupSeconds = 0;

	storeOf(board: string) {
		let store = this.stored.get(board);
		if (!store) {
			store = new Map();
			this.stored.set(board, store);
		}
		return store;
	}

	get(board: string, key: string) {
		return this.storeOf(board).get(key);
	}

	private attempt(board: string, key: string, value: number): boolean {
		this.writes.push({ board, key, value, thread: coroutine.running() });
		this.writing += 1;
		this.mostWriting = math.max(this.mostWriting, this.writing);
		this.duringWrite?.();
		const seconds = this.slowOnce.get(key) ?? this.writeSeconds;
		this.slowOnce.delete(key);
		if (seconds > 0) task.wait(seconds);
		if (this.hangWrites > 0) {
			this.hangWrites -= 1;
			coroutine.yield();
		}
		this.writing -= 1;
		if (this.throwWrites > 0) {
			this.throwWrites -= 1;
			error("backend exploded");
		}
		if (this.failWrites > 0) {
			this.failWrites -= 1;
			return false;
		}
		return true;
	}

	/** The backend contract, DataStore-shaped (set with an updater). */
	asSetBackend(): Backend {
		return {
			set: (board, key, updater) => {
				const old = this.get(board, key);
				if (!this.attempt(board, key, updater(old) ?? old ?? 0)) return false;
				const result = updater(this.get(board, key));
				if (result !== undefined) this.storeOf(board).set(key, result);
				return true;
			},
			sorted: (board, ascending, count) => this.sorted(board, ascending, count),
			scores: (board, keys) => {
				this.scoresCalls += 1;
				this.keysRead += keys.size();
				if (this.scoresSeconds > 0) task.wait(this.scoresSeconds);
				if (this.hangScores > 0) {
					this.hangScores -= 1;
					coroutine.yield();
				}
				if (this.lookupSeconds > 0) task.wait(this.lookupSeconds);
				if (this.failScores) return undefined;
				const result = new Map<string, number>();
				for (const key of keys) {
					const value = this.get(board, key);
					if (value !== undefined) result.set(key, value);
				}
				return result;
			},
			budget: this.budgetValue !== undefined ? () => this.budgetValue : undefined,
			readBudget: this.readBudgetValue !== undefined ? () => this.readBudgetValue : undefined,
			remove: (board, key) => {
				this.removes.push({ board, key });
				if (this.failRemoves > 0) {
					this.failRemoves -= 1;
					return false;
				}
				this.storeOf(board).delete(key);
				return true;
			},
			around: (board, ascending, value, count) => this.around(board, ascending, value, count),
		};
	}

	/** The contract's around(): rows strictly better than value (nearest first), then value or worse. */
	around(board: string, ascending: boolean, value: number, count: number): BackendRange | undefined {
		this.aroundCalls += 1;
		if (this.lookupSeconds > 0) task.wait(this.lookupSeconds);
		if (this.failAround) return undefined;
		const ranked = this.ranked(board, ascending);
		const ahead = new Array<BackendRow>();
		const behind = new Array<BackendRow>();
		for (const row of ranked) {
			if (row.Value !== value && (ascending ? row.Value < value : row.Value > value)) ahead.unshift(row);
			else if (behind.size() < count + 1) behind.push(row);
		}
		const nearest = new Array<BackendRow>();
		for (const row of ahead) if (nearest.size() < count) nearest.push(row);
		return { Ahead: nearest, Behind: behind };
	}

	/** The backend contract with submit (the store applies keep-best itself) and set. */
	asSubmitBackend(): Backend & { submitted: Array<[string, string, number, boolean, boolean]> } {
		const submitted = new Array<[string, string, number, boolean, boolean]>();
		return {
			...this.asSetBackend(),
			submitted,
			submit: (board, key, value, keepBest, ascending) => {
				submitted.push([board, key, value, keepBest, ascending]);
				if (!this.attempt(board, key, value)) return false;
				const old = this.get(board, key);
				const better = old === undefined || !keepBest || (ascending ? value < old : value > old);
				if (better) this.storeOf(board).set(key, value);
				return true;
			},
		};
	}

	sorted(board: string, ascending: boolean, count: number): BackendRow[] | undefined {
		this.sortedCalls += 1;
		if (this.readSeconds > 0) task.wait(this.readSeconds);
		if (this.hangReads > 0) {
			this.hangReads -= 1;
			coroutine.yield();
		}
		if (this.throwReads !== undefined) error(this.throwReads, 0);
		if (this.rawRows !== undefined) return this.rawRows as BackendRow[];
		if (this.failReads) return undefined;
		const result = new Array<BackendRow>();
		for (const row of this.ranked(board, ascending)) if (result.size() < count) result.push(row);
		return result;
	}

	/** Every stored row of a board, best first (ties by key). */
	ranked(board: string, ascending: boolean): BackendRow[] {
		const rows = new Array<BackendRow>();
		for (const [key, value] of this.storeOf(board)) rows.push({ Key: key, Value: value });
		rows.sort((a, b) =>
			a.Value !== b.Value ? (ascending ? a.Value < b.Value : a.Value > b.Value) : a.Key < b.Key,
		);
		return rows;
	}
}

/** The library boards run on: this repository's, or a built package as a consumer place requires it. */
export interface Library {
	readonly attach: typeof attach;
	readonly Kernel: typeof Kernel;
}

/** A kernel that does not bind to the server's close, and boards on it (of `library`: this repository's unless given). */
export function boardsWith(
	options: Partial<LeaderboardOptions> & { backend?: MemoryBackend } = {},
	library: Library = { attach, Kernel },
) {
	const backend = options.backend ?? new MemoryBackend();
	const kernel = new library.Kernel({ bindToClose: false });
	const full = {
		Boards: { Kills: {}, BestTime: { Ascending: true } },
		Backend: backend.asSetBackend(),
		SkipLoop: true,
		...options,
	} as LeaderboardOptions & { backend?: MemoryBackend };
	full.backend = undefined;
	const boards: Leaderboards = library.attach(kernel, full);
	return { kernel, boards, backend };
}
