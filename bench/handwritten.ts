import { DataStoreService } from "@rbxts/services";

interface Stat {
	readonly board: string;
	readonly key: string;
	value: number;
	readonly ascending: boolean;
}

/**
 * The leaderboard games write by hand: each player's stat lives in memory (the
 * profile) and is saved with a keep-best UpdateAsync in a loop over the
 * players every 60 s (one save after another), when the player leaves, and
 * on BindToClose (every save spawned at once, so none waits on another).
 * Failures are counted, never retried until the next save.
 */
export class HandWrittenLeaderboard {
	writes = 0;
	failedWrites = 0;
	/** Saves that returned successfully (a late one included). */
	landed = 0;
	private readonly stats = new Map<string, Stat>();
	private looping = false;

	constructor(private readonly prefix = "Hand_") {}

	/** A stat changed: kept in memory only. */
	submit(board: string, key: string, value: number, ascending = false) {
		const id = `${board}:${key}`;
		const stat = this.stats.get(id);
		if (!stat) this.stats.set(id, { board, key, value, ascending });
		else if (ascending ? value < stat.value : value > stat.value) stat.value = value;
	}

	/** The 60-second loop over the players in the server. */
	start() {
		this.looping = true;
		task.spawn(() => {
			for (;;) {
				task.wait(60);
				for (const [, stat] of this.stats) {
					if (!this.looping) return;
					this.save(stat);
				}
			}
		});
	}

	/** Stops the loop (before its next save). */
	stop() {
		this.looping = false;
	}

	/** BindToClose: stops the loop and spawns every player's save at once. */
	close() {
		this.stop();
		for (const [, stat] of this.stats) task.spawn(() => this.save(stat));
	}

	private save(stat: Stat) {
		const { value, ascending } = stat;
		this.writes += 1;
		const [ok] = pcall(() =>
			DataStoreService.GetOrderedDataStore(this.prefix + stat.board).UpdateAsync(stat.key, (old) => {
				if (old !== undefined && (ascending ? value >= old : value <= old)) return undefined;
				return value;
			}),
		);
		if (ok) this.landed += 1;
		else this.failedWrites += 1;
	}
}
