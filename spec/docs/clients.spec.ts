import { afterEach, describe, expect, it } from "@rbxts/jest-globals";
import { GateServer, headlessGate } from "../gate/control";
import { headshot, shown } from "../leaderboards/mounted";

// The games of docs/boards-players-see.md (examples/clients), as .ci/package.mjs installs them: the Luau
// one with the Wally package a shared dependency, the roblox-ts one compiled against the npm package.
// Each server runs its Boot script; each client runs the LocalScript from StarterPlayerScripts, as
// Roblox copies it to the player, and sees the board on the wall and in the corner.
const gate = headlessGate();
const describeGate = gate && gate.isDirectory("dist/consumers/clients-luau") ? describe : describe.skip;

const GAMES: [string, string, string[], string[]][] = [
	["Luau, with the Wally package", "dist/consumers/clients-luau/default.project.json", ["Boot"], ["Boards"]],
	[
		"roblox-ts, with the npm package",
		"dist/consumers/clients-ts/default.project.json",
		["Game", "Boot"],
		["Game", "Boards"],
	],
];

function find(root: Instance, path: string[]): Instance {
	let found = root;
	for (const name of path) found = found.WaitForChild(name);
	return found;
}

describeGate("the games of Boards players see", () => {
	let server: GateServer | undefined;
	afterEach(() => {
		server?.close();
		server = undefined;
		gate!.reset();
	});

	for (const [name, project, boot, boards] of GAMES)
		it(`${name}: each client mounts the board on the wall and in a corner, its own row highlighted`, () => {
			gate!.dataStore.seed(
				"CKBoard_Kills",
				new Map([
					["1", 2_500_000],
					["2", 40],
					["3", 30],
				]),
			);
			server = gate!.newServer(project);
			server.runScript(find(server.game.GetService("ServerScriptService"), boot) as Script);
			const scripts = find(server.game.GetService("StarterPlayer"), ["StarterPlayerScripts", ...boards]);
			const clients = [1, 2].map((id) =>
				server!.connectClient({ UserId: id, Name: `p${id}`, DisplayName: `P ${id}` }),
			);
			task.wait(0.5);
			for (const client of clients) {
				const copy = scripts.Clone();
				copy.Parent = client.localPlayer.WaitForChild("PlayerGui"); // where Roblox's copy would run
				client.runScript(copy as LocalScript);
			}
			task.wait(1);
			const [first, second] = clients.map((client) => client.localPlayer.WaitForChild("PlayerGui"));
			const wall = first.WaitForChild("Leaderboard") as SurfaceGui;
			expect(wall.Adornee).toBe(clients[0].game.GetService("Workspace").WaitForChild("KillsWall"));
			expect(shown(wall.WaitForChild("Kills"))).toEqual([
				`1|P 1|2.5e6|${headshot(1)}|mine`,
				`2|P 2|40|${headshot(2)}|`,
				`3|3|30|${headshot(3)}|`,
			]);
			// The corner's list: the top 5 with the short suffixes.
			expect(shown(second.WaitForChild("Corner").WaitForChild("Kills"))).toEqual([
				`1|P 1|2.5 M|${headshot(1)}|`,
				`2|P 2|40|${headshot(2)}|mine`,
				`3|3|30|${headshot(3)}|`,
			]);
		});
});
