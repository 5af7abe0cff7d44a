import { afterEach, describe, expect, it } from "@rbxts/jest-globals";
import { headlessGate } from "../gate/control";

// The README's minimal game (examples/game), as .ci/package.mjs installs it in a
// place: the Luau one with the Wally package, the roblox-ts one compiled against
// the npm package. Each runs unchanged, as a server starts it.
const gate = headlessGate();
const describeGate = gate && gate.isDirectory("dist/consumers/game-luau") ? describe : describe.skip;

describeGate("the README's minimal game", () => {
	afterEach(() => gate!.reset());

	const places: [string, string, string[]][] = [
		["Luau, with the Wally package", "dist/consumers/game-luau/default.project.json", ["Boot"]],
		["roblox-ts, with the npm package", "dist/consumers/game-ts/default.project.json", ["Game", "Boot"]],
	];
	for (const [name, project, path] of places) {
		it(`${name}: kills become the board, a read names the leader, and the close drains the rest`, () => {
			const server = gate!.newServer(project);
			let boot: Instance = server.game.GetService("ServerScriptService");
			for (const child of path) boot = boot.WaitForChild(child);
			server.runScript(boot as Script);
			const ada = server.join({ UserId: 101, Name: "ada", DisplayName: "Ada" });
			const bo = server.join({ UserId: 102, Name: "bo", DisplayName: "Bo" });
			const kills = (player: Player) => player.WaitForChild("leaderstats").WaitForChild("Kills") as IntValue;
			kills(ada).Value = 3;
			kills(bo).Value = 1;
			task.wait(16); // the first flush window, FlushSeconds (15) after the first submit
			expect(gate!.dataStore.snapshot("CKBoard_Kills").get("101")).toBe(3);
			kills(ada).Value = 7; // queued when the server closes
			kills(bo).Value = 2;
			const [closed] = server.close();
			expect(closed).toBe(true);
			expect(gate!.dataStore.snapshot("CKBoard_Kills").get("101")).toBe(7);
			expect(gate!.dataStore.snapshot("CKBoard_Kills").get("102")).toBe(2);
			// Kills today: the sum of what each change added.
			expect(gate!.dataStore.snapshot("CKBoard_DailyKills@2026-12-06").get("101")).toBe(7);
		});
	}

	it("Luau: the service's top() names the leader", () => {
		const server = gate!.newServer("dist/consumers/game-luau/default.project.json");
		const scripts = server.game.GetService("ServerScriptService");
		server.runScript(scripts.WaitForChild("Boot") as Script);
		const ada = server.join({ UserId: 101, Name: "ada", DisplayName: "Ada" });
		(ada.WaitForChild("leaderstats").WaitForChild("Kills") as IntValue).Value = 4;
		task.wait(16);
		const scores = server.require(scripts.WaitForChild("Services").WaitForChild("Scores") as ModuleScript) as {
			top(this: object, count: number): { Key: string; Value: number; DisplayName?: string }[];
		};
		const [leader] = scores.top(10);
		expect([leader.Key, leader.Value, leader.DisplayName]).toEqual(["101", 4, "Ada"]);
		server.close();
	});
});
