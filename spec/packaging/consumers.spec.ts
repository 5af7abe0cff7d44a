import { afterEach, describe, expect, it } from "@rbxts/jest-globals";
import { HttpService } from "@rbxts/services";
import type { Kernel } from "../../kernel";
import { headlessGate } from "../gate/control";

// The consumers .ci/package.mjs builds before the gate runs (npm test).
const gate = headlessGate();
const describeGate = gate && gate.isDirectory("dist/consumers") ? describe : describe.skip;

describeGate("packages as games consume them", () => {
	afterEach(() => gate!.reset());

	it("Wally: a plain Luau place requires the package from ServerPackages and runs the design document's BoardService", () => {
		const server = gate!.newServer("dist/consumers/luau/default.project.json");
		const scripts = server.game.GetService("ServerScriptService");
		const packages = scripts.WaitForChild("ServerPackages");
		const leaderboards = server.require(packages.WaitForChild("Leaderboards") as ModuleScript) as {
			attach: unknown;
			Kernel: new () => Kernel;
			Logger: unknown;
		};
		expect(typeIs(leaderboards.attach, "function")).toBe(true);
		const kernel = new leaderboards.Kernel();
		kernel.add(scripts.WaitForChild("Services") as Folder);
		kernel.start();
		const player = server.join({ UserId: 501 });
		const session = { Player: player, Profile: { Data: { Kills: 0 } } };
		for (let i = 0; i < 3; i++) kernel.Bus.publish("Combat.Kill", session);
		kernel.Bus.publish("Run.Finished", session, 41.25);
		const [complete] = server.close();
		expect(complete).toBe(true);
		expect(gate!.dataStore.snapshot("CKBoard_Kills").get("501")).toBe(3);
		expect(gate!.dataStore.snapshot("CKBoard_BestTime").get("501")).toBe(41_250);
	});

	it("Wally: a Luau game reaches the MemoryStore backend as Leaderboards.MemoryStore.backend(options)", () => {
		const server = gate!.newServer("dist/consumers/luau/default.project.json");
		const packages = server.game.GetService("ServerScriptService").WaitForChild("ServerPackages");
		const leaderboards = server.require(packages.WaitForChild("Leaderboards") as ModuleScript) as {
			attach: (
				kernel: Kernel,
				options: object,
			) => { submit(board: string, key: string, value: number): boolean; _flush(): unknown };
			Kernel: new (options: object) => Kernel;
			MemoryStore: { backend: (this: void, options: object) => unknown };
		};
		const kernel = new leaderboards.Kernel({ bindToClose: false });
		const boards = leaderboards.attach(kernel, {
			Boards: { Kills: {} },
			Backend: leaderboards.MemoryStore.backend({ Shards: 1 }),
			SkipLoop: true,
		});
		boards.submit("Kills", "501", 4);
		boards._flush();
		expect(gate!.memoryStore.snapshot("CKBoard_Kills").map((item) => [item.key, item.sortKey])).toEqual([
			["501", 4],
		]);
	});

	it("Wally: a Luau game's own stage reaches the stage author's entry as Leaderboards.Extend", () => {
		const server = gate!.newServer("dist/consumers/luau/default.project.json");
		const packages = server.game.GetService("ServerScriptService").WaitForChild("ServerPackages");
		const leaderboards = server.require(packages.WaitForChild("Leaderboards") as ModuleScript) as {
			attach: unknown;
			Extend: {
				storableKey: (this: void, subject: unknown, maxKeyLength?: number) => LuaTuple<[string?, string?]>;
				attach?: unknown;
			};
		};
		expect(leaderboards.Extend.storableKey(501)[0]).toBe("501");
		expect(leaderboards.Extend.storableKey("a-very-long-key", 5)[1]).toBeDefined();
		// The game's API stays on the package itself.
		expect(leaderboards.Extend.attach).toBeUndefined();
	});

	it("Wally: the package carries its own roblox-ts runtime", () => {
		const server = gate!.newServer("dist/consumers/luau/default.project.json");
		const index = server.game
			.GetService("ServerScriptService")
			.WaitForChild("ServerPackages")
			.WaitForChild("_Index");
		const installed = index.GetChildren()[0].WaitForChild("leaderboards");
		expect(installed.FindFirstChild("include")?.FindFirstChild("RuntimeLib")).toBeDefined();
		expect(installed.FindFirstChild("include")?.FindFirstChild("Promise")).toBeDefined();
		expect(server.game.GetService("ReplicatedStorage").FindFirstChild("rbxts_include")).toBeUndefined();
	});

	it("npm: TypeScript 5.5 and 2.3's 5.2 refuse a board attach was not given and a mistyped topic payload, and take real ones", () => {
		// .ci/package.mjs type-checks fixtures/rbxts/typecheck with each compiler's TypeScript: each
		// expect-error directive there must meet its error (an unused one is a diagnostic), nothing else may fail.
		const peers = HttpService.JSONDecode(gate!.readFile("dist/checks/peers.json")!) as {
			compiler: string;
			typecheck: { typescript: string; expected: number; diagnostics: string[] };
		}[];
		expect(peers.size()).toBe(2);
		for (const { compiler, typecheck } of peers) {
			expect(typecheck.expected).toBeGreaterThanOrEqual(11);
			expect(`${compiler}: ${typecheck.diagnostics.join("; ")}`).toBe(`${compiler}: `);
		}
	});

	// The same game compiled by each compiler .ci/package.mjs knows, each with its own types and runtime.
	for (const [consumer, compiler] of [
		["rbxts", "rbxtsc 3"],
		["rbxts-2", "rbxtsc 2.3 (roblox-ts 2.x games)"],
	]) {
		it(`npm: a roblox-ts game imports @rbxts/leaderboards by name, compiled with ${compiler}`, () => {
			const server = gate!.newServer(`dist/consumers/${consumer}/default.project.json`);
			const main = server.game
				.GetService("ServerScriptService")
				.WaitForChild("Game")
				.WaitForChild("main") as ModuleScript;
			const result = (server.require(main) as { run: () => object }).run();
			// updated comes from a Leaderboard.Updated handler that compiles only with the payload typed.
			expect(result).toEqual({
				written: 2,
				top: ["guild-b=7", "guild-a=5"],
				complete: true,
				updated: "Kills: 2 entries",
			});
		});
	}
});
