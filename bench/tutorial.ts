import { DataStoreService, ReplicatedStorage } from "@rbxts/services";
import { GateClient } from "../spec/gate/control";

// Roblox's leaderboard tutorial (tutorials/use-case-tutorials/data-storage/create-leaderboard): the
// server writes each change to an ordered data store, and every client asks a RemoteFunction every 3 s
// for the top rows, which runs GetSortedAsync and Players:GetNameFromUserIdAsync for each row. The gate
// has no RemoteFunction, so an invoke is a RemoteEvent each way (the same arguments, the same bytes in
// the gate's estimate); the gate does not emulate GetNameFromUserIdAsync, so its calls are counted.

/** What the tutorial's design asked of the store and the name service, and the invokes it answered. */
export interface TutorialCounts {
	invokes: number;
	answered: number;
	lists: number;
	names: number;
}

/** The tutorial's server: its stores, writes through, and the handler every invoke runs. */
export class TutorialServer {
	readonly counts: TutorialCounts = { invokes: 0, answered: 0, lists: 0, names: 0 };
	private readonly remote = new Instance("RemoteEvent");
	private readonly connection: RBXScriptConnection;

	constructor(private readonly ascending: ReadonlySet<string>) {
		this.remote.Name = "TutorialLeaderboard";
		this.remote.Parent = ReplicatedStorage;
		this.connection = this.remote.OnServerEvent.Connect((player, board) => this.invoked(player, board as string));
	}

	/** A change written through, as the tutorial's GoldManager does (SetAsync, or IncrementAsync for a sum). */
	write(board: string, key: string, value: number, increment = false) {
		const store = DataStoreService.GetOrderedDataStore(`Tutorial_${board}`);
		task.spawn(() => pcall(() => (increment ? store.IncrementAsync(key, value) : store.SetAsync(key, value))));
	}

	// OnServerInvoke: the top 10 read now, each row's name looked up, the rows returned; nothing when
	// the store refused (throttled past the budget), so only answered invokes cost bytes back.
	private invoked(player: Player, board: string) {
		this.counts.invokes += 1;
		this.counts.lists += 1;
		const [ok, page] = pcall(() =>
			DataStoreService.GetOrderedDataStore(`Tutorial_${board}`)
				.GetSortedAsync(this.ascending.has(board), 10)
				.GetCurrentPage(),
		);
		if (!ok) return;
		const rows = (page as { key: string; value: number }[]).map((entry) => {
			this.counts.names += 1;
			task.wait(); // the name lookup's request
			return { Name: `Player${entry.key}`, Value: entry.value };
		});
		this.counts.answered += 1;
		this.remote.FireClient(player, board, rows);
	}

	destroy() {
		this.connection.Disconnect();
		this.remote.Destroy();
	}
}

/** A client of the tutorial's design: an invoke a board every `seconds`, its rows kept. */
export function tutorialClient(client: GateClient, boards: ReadonlyArray<string>, seconds: number) {
	const remote = client.game.GetService("ReplicatedStorage").WaitForChild("TutorialLeaderboard") as RemoteEvent;
	remote.OnClientEvent.Connect(() => {});
	return task.spawn(() => {
		for (;;) {
			for (const board of boards) remote.FireServer(board);
			task.wait(seconds);
		}
	});
}
