// src/Scores.ts: kill boards fed by each player's leaderstats.
import { Players } from "@rbxts/services";
import { Kernel, Leaderboards, Service, Topics, attach } from "@rbxts/leaderboards";

export class Scores implements Service {
	readonly Name = "Scores";
	private boards?: Leaderboards<"Kills" | "DailyKills">;

	init(kernel: Kernel) {
		this.boards = attach(kernel, {
			Boards: {
				Kills: {}, // keep-best: each player's highest kill count, biggest first
				DailyKills: { Reset: "Daily", Sum: true }, // kills today (UTC), a fresh board every day
			},
		});
		kernel.Bus.subscribe(Topics.Drained, (_, result) => {
			// the server closed
			if (!result.Complete) warn(`boards not drained: ${result.Error} (${result.Remaining} left)`);
		});
	}

	track(player: Player) {
		const stats = new Instance("Folder");
		stats.Name = "leaderstats";
		const kills = new Instance("IntValue");
		kills.Name = "Kills";
		kills.Parent = stats;
		stats.Parent = player;
		let last = 0;
		kills.GetPropertyChangedSignal("Value").Connect(() => {
			// the game's combat code adds the kills
			this.boards!.submit("Kills", player.User, kills.Value); // player.User: the id Roblox recommends; queued
			this.boards!.submit("DailyKills", player.User, kills.Value - last);
			last = kills.Value;
		});
	}

	start() {
		Players.PlayerAdded.Connect((player) => this.track(player));
		for (const player of Players.GetPlayers()) this.track(player);
	}

	/** Yields: the top killers with their names, for a board in the world or a UI. */
	top(count: number) {
		return this.boards!.names(this.boards!.top("Kills", count));
	}
}
