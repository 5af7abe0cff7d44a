// The game's leaderboard service: round wins, all-time and this week's, on @rbxts/leaderboards.
import { Kernel, Leaderboards, Service, attach } from "@rbxts/leaderboards";

export class Wins implements Service {
	readonly Name = "Wins";
	private boards?: Leaderboards<"Wins" | "WeeklyWins">;

	init(kernel: Kernel) {
		this.boards = attach(kernel, {
			Boards: {
				Wins: { Sum: true }, // every round won adds one
				WeeklyWins: { Sum: true, Reset: "Weekly" }, // afresh each Monday, 00:00 UTC
			},
		});
	}

	/** The round ended: each winner's win is queued (one write per player per flush window). */
	roundWon(winners: Player[]) {
		for (const player of winners) {
			this.boards!.submit("Wins", player.User, 1); // player.User: the id Roblox recommends
			this.boards!.submit("WeeklyWins", player.User, 1);
		}
	}

	/** Yields: the best players with their names, for a board in the lobby. */
	top(count: number) {
		return this.boards!.names(this.boards!.top("Wins", count));
	}
}
