// BoardService: global kill and speedrun boards, and today's kills. The design document's example, in TypeScript.
import { BusConnection, Kernel, Logger, Service } from "../../kernel";
import { Entry, Leaderboards, Standing, Subject, attach } from "../../plugins/leaderboards";

const log = Logger.scope("BoardService");

/** What this game's Combat.Kill carries: a session with the killer's profile. */
export interface Session {
	readonly Player: Player;
	readonly Profile?: { Data: { Kills: number } };
}

export class BoardService implements Service {
	readonly Name = "BoardService";
	private kernel?: Kernel;
	private boards?: Leaderboards;
	private connections = new Array<BusConnection>();

	init(kernel: Kernel) {
		this.kernel = kernel;
		this.boards = attach(kernel, {
			Boards: {
				Kills: {}, // descending, keep-best, top 100, 60 s cache
				BestTime: { Ascending: true }, // smaller wins; submit whole milliseconds
				DailyKills: { Reset: "Daily", Sum: true }, // kills today (UTC): each kill adds 1, a fresh board every day
			},
		});
	}

	start() {
		const bus = this.kernel!.Bus;
		const boards = this.boards!;
		// Combat.Kill and Run.Finished are this game's own topics
		this.connections = [
			bus.subscribe("Combat.Kill", (_, killer) => {
				const profile = (killer as Session).Profile;
				if (profile) {
					profile.Data.Kills += 1;
					boards.submit("Kills", killer as Subject, profile.Data.Kills);
					boards.submit("DailyKills", killer as Subject, 1);
				}
			}),
			bus.subscribe("Run.Finished", (_, session, seconds) => {
				boards.submit("BestTime", session as Subject, math.round((seconds as number) * 1000));
			}),
		];
	}

	/** Yields: the first call per cache window reads the backend, and names() may look users up. */
	topKills(count: number): Entry[] {
		return this.boards!.names(this.boards!.top("Kills", count)); // entries gain DisplayName and Username
	}

	/** Yields. Today's top killers; period = "previous" gives yesterday's (to hand out rewards). */
	topDailyKills(count: number, period?: string): Entry[] {
		return this.boards!.names(this.boards!.top("DailyKills", count, period));
	}

	/** For a countdown on the daily board. */
	secondsUntilNewDay(): number {
		return this.boards!.secondsUntilRoll("DailyKills")!;
	}

	/** Yields. undefined when the read failed. */
	killsOf(player: Player): number | undefined {
		return this.boards!.scores("Kills", [player])?.get(tostring(player.UserId));
	}

	/**
	 * Yields. Where the player stands on Kills: { Key, Value, Rank? } (Rank while they are in the
	 * top 100; no Value when they have no kills stored). undefined when the read failed.
	 */
	rankOf(player: Player): Standing | undefined {
		return this.boards!.rank("Kills", player);
	}

	/**
	 * Yields. The player and the count players just ahead of and behind them by kills, best first.
	 * undefined when the read failed or the store's list budget is spent for now (try again later).
	 */
	aroundMe(player: Player, count: number): Standing[] | undefined {
		const rows = this.boards!.around("Kills", player, count);
		return rows && this.boards!.names(rows);
	}

	/**
	 * Yields. The player and their friends who have kills stored, ranked among themselves, and how many
	 * of them are not read yet (0: all; a long friend list fills in as the read budget allows: ask again).
	 */
	friendsKills(player: Player): LuaTuple<[Entry[] | undefined, number | undefined]> {
		const [rows, unread] = this.boards!.friends("Kills", player);
		return $tuple(rows && this.boards!.names(rows), unread);
	}

	/** Moderation: wipes a cheater's scores (the next flush window removes them; reads hide them at once). */
	wipe(subject: Subject) {
		this.boards!.remove("Kills", subject);
		this.boards!.remove("BestTime", subject);
	}

	stop() {
		for (const connection of this.connections) connection.disconnect();
		if (this.boards) {
			const [complete, result] = this.boards.destroy(); // yields while the last scores drain
			if (!complete)
				log.warn(
					`board drain incomplete: ${result.Error} (${result.Remaining} left, ${result.InFlight} in flight)`,
				);
		}
	}
}
