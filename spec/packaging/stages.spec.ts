import { afterEach, describe, expect, it } from "@rbxts/jest-globals";
import type { FlusherStage, Logger, NameResolverStage, ReaderStage, StageFactory } from "../../plugins/leaderboards";
import { GateServer, headlessGate } from "../gate/control";
import { closeCases } from "../leaderboards/cases/close";
import { nameCases, nobodyHere } from "../leaderboards/cases/names";
import { readerCases } from "../leaderboards/cases/reader";
import { Library, MemoryBackend, boardsWith } from "../leaderboards/doubles";

// The example stages (examples/stages) as games run them: compiled against the npm package by rbxtsc 3 and
// 2.3, and in Luau beside the Wally package, in the consumer places .ci/package.mjs builds; each meets the
// cases the default stage meets where its contract applies (spec/leaderboards/cases).
const gate = headlessGate();
const describeGate = gate && gate.isDirectory("dist/consumers") ? describe : describe.skip;

/** The examples a consumer place holds, and the package they run on. */
interface Examples {
	library: Library & { Logger: typeof Logger };
	cacheReader: (cache: (board: string) => Map<string, number> | undefined) => StageFactory<ReaderStage>;
	profileNames: (store: string) => StageFactory<NameResolverStage>;
	closeFlusher: StageFactory<FlusherStage>;
}

// The profile store the NameResolver example reads.
const PROFILES = "PlayerProfiles";

function rbxts(consumer: string) {
	return {
		name: `roblox-ts, dist/consumers/${consumer}`,
		project: `dist/consumers/${consumer}/default.project.json`,
		load(server: GateServer): Examples {
			const root = server.game.GetService("ServerScriptService").WaitForChild("Game");
			const stages = root.WaitForChild("stages");
			const module = (parent: Instance, name: string) =>
				server.require(parent.WaitForChild(name) as ModuleScript) as Record<string, never>;
			return {
				library: module(root, "library") as never,
				cacheReader: module(stages, "CacheReader").cacheReader,
				profileNames: module(stages, "ProfileNames").profileNames,
				closeFlusher: module(stages, "CloseFlusher").closeFlusher,
			};
		},
	};
}

const CONSUMERS = [
	rbxts("rbxts"),
	rbxts("rbxts-2"),
	{
		name: "Luau, dist/consumers/luau",
		project: "dist/consumers/luau/default.project.json",
		load(server: GateServer): Examples {
			const scripts = server.game.GetService("ServerScriptService");
			const stages = scripts.WaitForChild("Stages");
			const module = (parent: Instance, name: string) =>
				server.require(parent.WaitForChild(name) as ModuleScript) as never;
			return {
				library: module(scripts.WaitForChild("ServerPackages"), "Leaderboards"),
				cacheReader: module(stages, "CacheReader"),
				profileNames: module(stages, "ProfileNames"),
				closeFlusher: module(stages, "CloseFlusher"),
			};
		},
	},
];

for (const consumer of CONSUMERS)
	describeGate(`the example stages, ${consumer.name}`, () => {
		// One server of the consumer place for every case: the stages and the package loaded once.
		let loaded: Examples | undefined;
		const examples = () => (loaded ??= consumer.load(gate!.newServer(consumer.project)));
		afterEach(() => gate!.reset());

		describe("CacheReader: top() and scores() from the game's own cache", () =>
			readerCases(() => {
				const cache = new Map<string, Map<string, number>>();
				let reads = 0;
				let failing = false;
				const reader = examples().cacheReader((board) => {
					reads += 1;
					return failing ? undefined : (cache.get(board) ?? new Map());
				});
				return {
					attach: (options) => boardsWith({ ...options, Stages: { Reader: reader } }, examples().library),
					put: (board, key, value) => {
						const values = cache.get(board) ?? new Map<string, number>();
						values.set(key, value);
						cache.set(board, values);
					},
					reads: () => reads,
					fail: (on) => (failing = on),
				};
			}));

		describe("ProfileNames: names() from the game's profile store", () =>
			nameCases(() => {
				const standard = gate!.dataStore.standard;
				const resolver = examples().profileNames(PROFILES);
				const before = standard.calls("GetAsync");
				return {
					attach: (options) =>
						boardsWith(
							{ Players: nobodyHere, ...options, Stages: { NameResolver: resolver } },
							examples().library,
						).boards,
					know: (id, Username, DisplayName) =>
						standard.seed(PROFILES, new Map([[`Player_${id}`, { Data: { DisplayName, Username } }]])),
					lookups: () => standard.calls("GetAsync") - before,
					fail: (on) =>
						on ? standard.fault({ method: "GetAsync", failNext: 1_000 }) : standard.clearFaults(),
				};
			}));

		describe("CloseFlusher: writes only at the close", () => {
			closeCases((options) =>
				boardsWith({ ...options, Stages: { Flusher: examples().closeFlusher } }, examples().library),
			);

			it("writes nothing before destroy(), however long the server runs; destroy() writes it all", () => {
				const backend = new MemoryBackend();
				const options = { backend, SkipLoop: false, Stages: { Flusher: examples().closeFlusher } };
				const { boards, kernel } = boardsWith(options, examples().library);
				kernel.start();
				boards.submit("Kills", "a", 3);
				boards.submit("Kills", "a", 7);
				boards.submit("Kills", "b", 5);
				task.wait(60);
				expect(backend.writes.size()).toBe(0);
				const [complete, result] = boards.destroy();
				expect([complete, result.Remaining]).toEqual([true, 0]);
				expect([backend.get("Kills", "a"), backend.get("Kills", "b")]).toEqual([7, 5]);
				expect(backend.writes.size()).toBe(2);
			});
		});

		it("attach warns once for each hook the examples leave out, and for nothing else", () => {
			const { cacheReader, profileNames, closeFlusher, library } = examples();
			const warnings = new Array<string>();
			const restore = library.Logger.useSinks([(record) => warnings.push(`${record.level}: ${record.message}`)]);
			const Stages = {
				Reader: cacheReader(() => new Map()),
				NameResolver: profileNames(PROFILES),
				Flusher: closeFlusher,
			};
			boardsWith({ Stages }, library);
			restore();
			expect(warnings).toEqual([
				"warn: options.Stages.Reader has no patch(): records other servers announce are not patched into cached pages",
			]);
		});
	});
