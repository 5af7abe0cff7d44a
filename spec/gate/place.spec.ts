import { describe, expect, it } from "@rbxts/jest-globals";
import { headlessGate } from "./control";

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;
const PLACE = "spec/gate/fixtures/places/standard.project.json";

// Members of classes the gate builds but does not emulate, read as a script would.
const member = (instance: Instance, name: string) => (instance as unknown as Record<string, unknown>)[name];

// An ordinary place builds (issue 43): every service and class a standard Rojo or roblox-ts
// project names is an inert instance with the project's $properties; what the gate cannot
// emulate fails only when a script reaches it, naming the member.
describeGate("an ordinary place on the gate", () => {
	it("builds StarterPlayer's scripts, StarterGui, Lighting, Teams, Chat and TextChatService with their properties", () => {
		const place = gate!.newServer(PLACE).game;
		const starterPlayer = place.GetService("StarterPlayer") as Instance;
		const scripts = starterPlayer.FindFirstChild("StarterPlayerScripts")!;
		expect(scripts.ClassName).toBe("StarterPlayerScripts");
		expect(scripts.FindFirstChild("Client")!.FindFirstChild("main")!.ClassName).toBe("LocalScript");
		const character = starterPlayer.FindFirstChild("StarterCharacterScripts")!;
		expect(character.ClassName).toBe("StarterCharacterScripts");
		expect(character.FindFirstChild("health")!.ClassName).toBe("Script");
		const board = place.GetService("StarterGui").FindFirstChild("Board")!;
		expect(member(board, "ResetOnSpawn")).toBe(false);
		const title = board.FindFirstChild("Rows")!.FindFirstChild("Title")!;
		expect(title.IsA("GuiObject")).toBe(true);
		expect(member(title, "Text")).toBe("Top kills");
		expect(member(place.GetService("Lighting"), "Brightness")).toBe(2);
		expect(place.GetService("Lighting").FindFirstChild("Sky")!.ClassName).toBe("Sky");
		expect(member(place.GetService("Teams").FindFirstChild("Red")!, "AutoAssignable")).toBe(false);
		expect(member(place.GetService("SoundService"), "RespectFilteringEnabled")).toBe(true);
		expect(member(place.GetService("Workspace"), "FilteringEnabled")).toBe(true);
		expect(place.GetService("Workspace").FindFirstChild("Podium")!.IsA("BasePart")).toBe(true);
		expect(place.GetService("TextChatService").ClassName).toBe("TextChatService");
		expect(place.GetService("Chat").ClassName).toBe("Chat");
		expect(place.GetService("ReplicatedFirst").ClassName).toBe("ReplicatedFirst");
	});

	it("loads Wally's Packages and ServerPackages as wally install lays them out", () => {
		const server = gate!.newServer(PLACE);
		const packages = server.game.GetService("ReplicatedStorage").FindFirstChild("Packages")!;
		const greet = server.require(packages.FindFirstChild("Greet") as ModuleScript) as (name: string) => string;
		expect(greet("ada")).toBe("hello ada");
		const serverPackages = server.game.GetService("ServerScriptService").FindFirstChild("ServerPackages")!;
		const tally = server.require(serverPackages.FindFirstChild("Tally") as ModuleScript) as {
			add: (a: number, b: number) => number;
		};
		expect(tally.add(2, 3)).toBe(5);
	});

	it("creates the common part and GUI classes, keeps what a script sets, and names a member it cannot emulate", () => {
		const sound = new Instance("Sound");
		sound.Volume = 2;
		expect(sound.Volume).toBe(2);
		expect(() => sound.Play()).toThrow('Play is not a valid member of Sound "Sound"');
		const gui = new Instance("ScreenGui");
		const frame = new Instance("Frame");
		frame.Parent = gui;
		expect(frame.IsA("GuiObject")).toBe(true);
		expect(new Instance("Part").IsA("BasePart")).toBe(true);
		expect(new Instance("RemoteEvent").ClassName).toBe("RemoteEvent");
		expect(() => new Instance("GuiObject" as keyof CreatableInstances)).toThrow(
			'Unable to create an Instance of type "GuiObject"',
		);
	});
});
