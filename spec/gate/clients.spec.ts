import { afterEach, beforeEach, describe, expect, it } from "@rbxts/jest-globals";
import { GateClient, GateServer, headlessGate } from "./control";

// Clients of a server (engine/clients.luau, engine/remote.luau): replication of
// ReplicatedStorage, Workspace and Players (scripting/events/remote.md, projects/client-server.md),
// RemoteEvent (classes/RemoteEvent.yaml: ordered, reliable) and UnreliableRemoteEvent
// (classes/UnreliableRemoteEvent.yaml: "unordered and unreliable", a 900-byte payload limit).

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;
const LEAN = "spec/gate/fixtures/lean/server.project.json";

let server: GateServer;
let clients: GateClient[];

const upTo = (count: number) => {
	const list: number[] = [];
	for (let n = 1; n <= count; n++) list.push(n);
	return list;
};
const storageOf = (model: DataModel) => model.GetService("ReplicatedStorage");

function remoteOn<T extends "RemoteEvent" | "UnreliableRemoteEvent">(className: T, name = "Board") {
	const folder = new Instance("Folder");
	folder.Name = "Net";
	const remote = new Instance(className);
	remote.Name = name;
	remote.Parent = folder;
	folder.Parent = storageOf(server.game);
	task.wait(0.2);
	return {
		remote,
		copies: clients.map(
			(client) => storageOf(client.game).FindFirstChild("Net")!.FindFirstChild(name) as Instances[T],
		),
	};
}

describeGate("clients of a server", () => {
	beforeEach(() => {
		server = gate!.newServer(LEAN);
		clients = [1, 2, 3].map((id) => server.connectClient({ UserId: id, Name: `P${id}` }));
	});
	afterEach(() => {
		server.close();
		gate!.reset();
	});

	it("each client has its own DataModel: LocalPlayer, a PlayerGui, the replicated containers, IsClient", () => {
		const client = clients[1];
		const players = client.game.GetService("Players");
		expect(players.LocalPlayer).toBe(client.localPlayer);
		expect(players.LocalPlayer!.UserId).toBe(2);
		expect(players.LocalPlayer!.Name).toBe("P2");
		expect(players.LocalPlayer!.FindFirstChildOfClass("PlayerGui")).toBeDefined();
		// Player 3 joined after this client: it arrives after the delay.
		expect(players.GetPlayers().map((player) => player.UserId)).toEqual([1, 2]);
		task.wait(0.15);
		expect(players.GetPlayers().map((player) => player.UserId)).toEqual([1, 2, 3]);
		expect(storageOf(client.game).FindFirstChild("rbxts_include")).toBeDefined();
		expect(client.game.GetService("RunService").IsClient()).toBe(true);
		expect(server.game.GetService("RunService").IsServer()).toBe(true);
		expect(server.game.GetService("Players").LocalPlayer).toBe(undefined);
		expect(client.game.FindFirstChildOfClass("ServerScriptService")).toBe(undefined);
	});

	it("what the server adds, changes or removes reaches each client after its delay", () => {
		const value = new Instance("StringValue");
		value.Name = "Season";
		value.Value = "one";
		value.Parent = storageOf(server.game);
		task.wait(0.05);
		expect(storageOf(clients[0].game).FindFirstChild("Season")).toBe(undefined);
		task.wait(0.1);
		const copies = clients.map((client) => storageOf(client.game).FindFirstChild("Season") as StringValue);
		expect(copies.map((copy) => copy.Value)).toEqual(["one", "one", "one"]);
		value.Value = "two";
		task.wait(0.15);
		expect(copies.map((copy) => copy.Value)).toEqual(["two", "two", "two"]);
		// A client's own write stays until the server writes again.
		copies[0].Value = "mine";
		task.wait(0.15);
		expect(copies[0].Value).toBe("mine");
		value.Destroy();
		task.wait(0.15);
		expect(clients.map((client) => storageOf(client.game).FindFirstChild("Season"))).toEqual([]);
	});

	it("players joining and leaving reach every client, with PlayerAdded on the client", () => {
		task.wait(0.15); // players 2 and 3 joined after client 1 connected
		const added: number[] = [];
		clients[0].game.GetService("Players").PlayerAdded.Connect((player) => added.push(player.UserId));
		const fourth = server.connectClient({ UserId: 4 });
		task.wait(0.15);
		expect(added).toEqual([4]);
		expect(clients[0].game.GetService("Players").GetPlayers().size()).toBe(4);
		const removed: number[] = [];
		clients[0].game.GetService("Players").PlayerRemoving.Connect((player) => removed.push(player.UserId));
		fourth.leave();
		task.wait(0.15);
		expect(removed).toEqual([4]);
		expect(clients[0].game.GetService("Players").GetPlayers().size()).toBe(3);
		expect(server.game.GetService("Players").GetPlayers().size()).toBe(3);
	});

	it("RemoteEvent: FireClient, FireAllClients and FireServer arrive in order, after the delay", () => {
		const { remote, copies } = remoteOn("RemoteEvent");
		const got: defined[][] = [[], [], []];
		copies.forEach((copy, i) => copy.OnClientEvent.Connect((n: defined) => got[i].push(n)));
		for (let n = 1; n <= 20; n++) remote.FireClient(server.game.GetService("Players").GetPlayers()[1], n);
		remote.FireAllClients("all");
		expect(got[1]).toEqual([]);
		task.wait(0.15);
		const ordered = upTo(20);
		expect(got).toEqual([["all"], [...ordered, "all"], ["all"]]);
		const heard: unknown[][] = [];
		remote.OnServerEvent.Connect((player, ...args) => heard.push([player, ...args]));
		copies[2].FireServer("ready", 3);
		task.wait(0.15);
		expect(heard).toEqual([[clients[2].player, "ready", 3]]);
	});

	it("arguments are copied as Roblox copies them; an instance becomes the receiver's copy or nil", () => {
		const { remote, copies } = remoteOn("RemoteEvent");
		let got: unknown[] = [];
		copies[0].OnClientEvent.Connect((...args: unknown[]) => (got = args));
		const hidden = new Instance("Folder");
		hidden.Parent = server.game.GetService("ServerStorage");
		const keyed = setmetatable({ [5]: "five", name: "x" }, { __index: () => 1 });
		remote.FireClient(clients[0].player, remote, hidden, () => 1, keyed);
		task.wait(0.15);
		expect(got[0]).toBe(copies[0]);
		expect(got[1]).toBe(undefined);
		expect(got[2]).toBe(undefined);
		expect(got[3]).toEqual({ ["5"]: "five", name: "x" });
		expect(getmetatable(got[3] as object)).toBe(undefined);
	});

	it("an event that arrives before anything listens waits for the first listener", () => {
		const { remote, copies } = remoteOn("RemoteEvent");
		remote.FireClient(clients[0].player, "early");
		task.wait(0.5);
		const got: defined[] = [];
		copies[0].OnClientEvent.Connect((value: defined) => got.push(value));
		task.wait();
		expect(got).toEqual(["early"]);
	});

	it("bytes are counted per client, each way", () => {
		const { remote, copies } = remoteOn("RemoteEvent");
		copies.forEach((copy) => copy.OnClientEvent.Connect(() => {}));
		remote.OnServerEvent.Connect(() => {});
		remote.FireAllClients("hello"); // 3 + 5
		remote.FireClient(clients[0].player, 1, { a: true }); // 9 + (2 + 4 + 1)
		copies[1].FireServer("ready"); // 3 + 5
		task.wait(0.15);
		expect(clients.map((client) => client.stats().received)).toEqual([24, 8, 8]);
		expect(clients.map((client) => client.stats().sent)).toEqual([0, 8, 0]);
		expect(clients[0].stats().eventsReceived).toBe(2);
	});

	it("UnreliableRemoteEvent: a payload over 900 bytes is dropped; a drop rate loses, a window reorders", () => {
		const { remote, copies } = remoteOn("UnreliableRemoteEvent");
		const got: defined[] = [];
		copies[0].OnClientEvent.Connect((n: defined) => got.push(n));
		remote.FireClient(clients[0].player, "x".rep(897)); // 900 bytes: sent
		remote.FireClient(clients[0].player, "x".rep(898)); // 901: dropped
		task.wait(0.15);
		expect([clients[0].stats().eventsReceived, clients[0].stats().oversized]).toEqual([1, 1]);
		got.clear();
		clients[0].dropUnreliable(0.5, 7);
		for (let n = 1; n <= 100; n++) remote.FireClient(clients[0].player, n);
		task.wait(0.15);
		const dropped = clients[0].stats().dropped;
		expect(dropped).toBeGreaterThan(30);
		expect(got.size() + dropped).toBe(100);
		got.clear();
		clients[0].dropUnreliable(0);
		clients[0].reorderUnreliable(0.5, 3);
		for (let n = 1; n <= 20; n++) remote.FireClient(clients[0].player, n);
		task.wait(0.7);
		expect([...(got as number[])].sort((a, b) => a < b)).toEqual(upTo(20));
		expect(got).never.toEqual(upTo(20));
	});

	it("each method refuses the wrong side, naming what came", () => {
		const { remote, copies } = remoteOn("RemoteEvent");
		expect(() => remote.FireServer()).toThrow("FireServer can only be called from the client");
		expect(() => copies[0].FireClient(clients[0].player)).toThrow("FireClient can only be called from the server");
		expect(() => copies[0].FireAllClients()).toThrow("FireAllClients can only be called from the server");
		expect(() => remote.FireClient("P1" as unknown as Player)).toThrow(
			"player argument must be a Player object, got string",
		);
		expect(() => server.connectClient({} as never)).toThrow("connectClient takes { UserId: number");
	});

	it("GUI classes are data: properties kept, children and layout objects, IsA as in Roblox", () => {
		const gui = new Instance("ScreenGui");
		gui.Name = "Board";
		const frame = new Instance("Frame");
		frame.Parent = gui;
		const layout = new Instance("UIListLayout");
		layout.Parent = frame;
		const label = new Instance("TextLabel");
		label.Text = "#1 P1";
		label.LayoutOrder = 1;
		label.Parent = frame;
		const image = new Instance("ImageLabel");
		image.Image = "rbxthumb://type=AvatarHeadShot&id=1&w=150&h=150";
		image.Parent = frame;
		gui.Parent = clients[0].localPlayer.FindFirstChildOfClass("PlayerGui");
		expect(label.IsA("GuiObject")).toBe(true);
		expect(layout.IsA("UIComponent")).toBe(true);
		expect(gui.IsA("LayerCollector")).toBe(true);
		const found = clients[0].game
			.GetService("Players")
			.LocalPlayer!.FindFirstChild("PlayerGui")!
			.FindFirstChild("Board");
		expect((found!.FindFirstChild("Frame")!.FindFirstChildOfClass("TextLabel") as TextLabel).Text).toBe("#1 P1");
		expect(found!.FindFirstChild("Frame")!.FindFirstChildOfClass("ImageLabel")!.Image).toBe(image.Image);
		// The client's PlayerGui is the client's: nothing of it reaches the server.
		task.wait(0.15);
		expect(clients[0].player.FindFirstChildOfClass("PlayerGui")).toBe(undefined);
	});
	it("the data types GUI code sets: UDim, UDim2, Color3 and the layout enums, compared by value", () => {
		const size = UDim2.fromScale(1, 0.25);
		expect(size === new UDim2(1, 0, 0.25, 0)).toBe(true);
		expect([size.X.Scale, size.Y.Scale, size.Height.Offset, typeOf(size), tostring(size)]).toEqual([
			1,
			0.25,
			0,
			"UDim2",
			"{1, 0}, {0.25, 0}",
		]);
		expect(UDim2.fromOffset(10, 20).X === new UDim(0, 10)).toBe(true);
		const gold = Color3.fromRGB(255, 0, 51);
		expect([gold.R, gold.G, gold.B, typeOf(gold)]).toEqual([1, 0, 0.2, "Color3"]);
		expect(gold === new Color3(1, 0, 0.2)).toBe(true);
		const frame = new Instance("Frame");
		frame.Size = size;
		expect(frame.Clone().Size).toBe(size);
		expect([
			Enum.SortOrder.LayoutOrder.Value,
			Enum.NormalId.Front.Value,
			Enum.FillDirection.Vertical.Value,
		]).toEqual([2, 5, 1]);
		expect(() => UDim2.fromScale("1" as never, 0)).toThrow("invalid argument #1 (number expected, got string)");
	});
});
