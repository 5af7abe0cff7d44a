import { ReplicatedStorage } from "@rbxts/services";
import type * as Client from "../../plugins/leaderboards/client";
import { GateClient } from "../gate/control";

/** What the client entry exports (plugins/leaderboards/client). */
export type ClientEntry = typeof Client;

/**
 * The client entry required in a client's environment. This repository compiles as a game (imports
 * name ServerScriptService.Leaderboards), so the client gets the library at that place first (a
 * package imports relatively, spec/packaging runs that).
 */
export function clientEntry(client: GateClient): ClientEntry {
	const library = new Instance("Folder");
	library.Name = "Leaderboards";
	const plugins = (ReplicatedStorage.Parent as DataModel)
		.GetService("ServerScriptService")
		.FindFirstChild("Leaderboards")!
		.FindFirstChild("plugins")!
		.Clone();
	plugins.Parent = library;
	library.Parent = client.game.GetService("ServerScriptService");
	return client.require(
		plugins.FindFirstChild("leaderboards")!.FindFirstChild("client") as ModuleScript,
	) as ClientEntry;
}
