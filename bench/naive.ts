import { DataStoreService, UserService } from "@rbxts/services";

/**
 * The leaderboard a Roblox developer writes without this project: write-through
 * and read-through, done carefully. submit() runs UpdateAsync with a keep-best
 * transform on its own thread (gameplay never yields) under pcall; top() reads
 * GetSortedAsync on every call; names() asks UserService on every render.
 * Nothing is lost silently: failures are counted.
 */
export class NaiveLeaderboard {
	writes = 0;
	failedWrites = 0;
	reads = 0;
	failedReads = 0;
	nameCalls = 0;
	failedNameCalls = 0;

	constructor(private readonly prefix = "Naive_") {}

	submit(board: string, key: string, value: number, ascending = false) {
		const store = DataStoreService.GetOrderedDataStore(this.prefix + board);
		this.writes += 1;
		task.spawn(() => {
			const [ok] = pcall(() =>
				store.UpdateAsync(key, (old) => {
					if (old !== undefined && (ascending ? value >= old : value <= old)) return undefined;
					return value;
				}),
			);
			if (!ok) this.failedWrites += 1;
		});
	}

	top(board: string, count: number, ascending = false): { key: string; value: number }[] {
		this.reads += 1;
		const [ok, page] = pcall(() =>
			DataStoreService.GetOrderedDataStore(this.prefix + board)
				.GetSortedAsync(ascending, math.min(count, 100))
				.GetCurrentPage(),
		);
		if (!ok) {
			this.failedReads += 1;
			return [];
		}
		return page as unknown as { key: string; value: number }[];
	}

	names(ids: number[]): Map<number, string> {
		this.nameCalls += 1;
		const result = new Map<number, string>();
		const [ok, infos] = pcall(() => UserService.GetUserInfosByUserIdsAsync(ids));
		if (!ok) {
			this.failedNameCalls += 1;
			return result;
		}
		for (const info of infos) result.set(info.Id, info.DisplayName);
		return result;
	}
}
