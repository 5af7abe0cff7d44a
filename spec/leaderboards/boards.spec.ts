import { afterEach, describe, expect, it } from "@rbxts/jest-globals";
import { Workspace } from "@rbxts/services";
import { Kernel } from "../../kernel";
import { Leaderboards, SHORT_SUFFIXES, Topics } from "../../plugins/leaderboards";
import { ListBoard } from "../../plugins/leaderboards/client";
import { GateClient, headlessGate } from "../gate/control";
import { ClientEntry, clientEntry } from "./clientEntry";
import { MemoryBackend, boardsWith } from "./doubles";
import { headshot, shown } from "./mounted";

// WorldBoard and ListBoard on the gate: a server and three clients (spec/gate/README.md, "Clients"),
// each mounting the board from its own environment. What a mounted board holds is read from its
// TextLabels and ImageLabels: ranks, names, formatted values, rbxthumb ids, the local player's row.

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

let kernel: Kernel | undefined;
let boards: Leaderboards | undefined;
let clients: GateClient[] = [];

function setup(stored: [string, number][]) {
	const backend = new MemoryBackend();
	backend.stored.set("Kills", new Map(stored));
	({ kernel, boards } = boardsWith({ backend, Boards: { Kills: { Replicate: { Rows: 3 }, CacheSeconds: 1 } } }));
	kernel!.start();
	const wall = new Instance("Part");
	wall.Name = "Wall";
	wall.Parent = Workspace;
	clients = [1, 2, 3].map((id) => gate!.connectClient({ UserId: id, Name: `p${id}`, DisplayName: `P ${id}` }));
	task.wait(0.5);
	return clients.map((client) => ({ client, entry: clientEntry(client) }));
}

// The server reads the page again (past CacheSeconds); returns when its Updated was published.
function refresh(): number {
	let at = -1;
	const subscription = kernel!.Bus.subscribe(Topics.Updated, () => (at = gate!.now()));
	task.wait(1.1);
	boards!.top("Kills");
	subscription.disconnect();
	return at;
}

function wallOf(client: GateClient): BasePart {
	return client.game.GetService("Workspace").WaitForChild("Wall") as BasePart;
}

function mountWall(client: GateClient, entry: ClientEntry) {
	return entry.WorldBoard.mount(wallOf(client), { Board: "Kills", Rows: 3 });
}

describeGate("WorldBoard and ListBoard: boards players see, mounted in one call", () => {
	afterEach(() => {
		for (const client of clients) client.leave();
		clients = [];
		boards?.destroy();
		kernel?.stop();
		Workspace.FindFirstChild("Wall")?.Destroy();
		gate!.reset();
	});

	it("WorldBoard: a SurfaceGui in PlayerGui adorned to the part, rows with ranks, names, values, headshots", () => {
		const each = setup([
			["1", 12_345],
			["2", 400],
			["3", 30],
			["4", 20],
		]);
		const mounted = each.map(({ client, entry }) => mountWall(client, entry));
		task.wait(0.5);
		each.forEach(({ client }, index) => {
			const gui = client.localPlayer.FindFirstChild("PlayerGui")!.FindFirstChild("Leaderboard") as SurfaceGui;
			expect(gui.ClassName).toBe("SurfaceGui");
			expect(gui.Adornee).toBe(wallOf(client));
			expect(gui.Face).toBe(Enum.NormalId.Front);
			expect(gui.ResetOnSpawn).toBe(false);
			expect(mounted[index].Frame.Parent).toBe(gui);
			expect((mounted[index].Frame.FindFirstChild("Title") as TextLabel).Text).toBe("Kills");
			expect((mounted[index].Frame.FindFirstChild("Empty") as TextLabel).Visible).toBe(false);
		});
		// Each client highlights its own row (the local player's), and no other.
		expect(mounted.map((board) => shown(board.Frame))).toEqual([
			[`1|P 1|1.23e4|${headshot(1)}|mine`, `2|P 2|400|${headshot(2)}|`, `3|P 3|30|${headshot(3)}|`],
			[`1|P 1|1.23e4|${headshot(1)}|`, `2|P 2|400|${headshot(2)}|mine`, `3|P 3|30|${headshot(3)}|`],
			[`1|P 1|1.23e4|${headshot(1)}|`, `2|P 2|400|${headshot(2)}|`, `3|P 3|30|${headshot(3)}|mine`],
		]);
	});

	it("world boards in one PlayerGui never share a name: Leaderboard, then the board's name, then a number", () => {
		const { client, entry } = setup([["1", 50]])[0];
		const wall = wallOf(client);
		const mount = (board: string, face: Enum.NormalId) =>
			entry.WorldBoard.mount(wall, { Board: board, Face: face });
		const first = mount("Kills", Enum.NormalId.Front);
		const named = [mount("Wins", Enum.NormalId.Front), mount("Kills", Enum.NormalId.Back)];
		named.push(mount("Kills", Enum.NormalId.Top));
		// The first keeps "Leaderboard", the name docs/boards-players-see.md shows and its example's spec finds.
		const guiOf = (board: { Frame: GuiObject }) => board.Frame.Parent as SurfaceGui;
		expect(
			[first, ...named].map((board) => `${guiOf(board).Name} ${board.Frame.Name} ${guiOf(board).Face.Name}`),
		).toEqual(["Leaderboard Kills Front", "Wins Wins Front", "Kills Kills Back", "Kills2 Kills Top"]);
		const playerGui = client.localPlayer.FindFirstChild("PlayerGui")!;
		expect(playerGui.FindFirstChild("Kills")).toBe(guiOf(named[1]));
		// A name freed by destroy() is taken again.
		first.destroy();
		expect(guiOf(mount("Kills", Enum.NormalId.Left)).Name).toBe("Leaderboard");
		expect(playerGui.GetChildren().size()).toBe(4);
	});

	it("a submit that changes the top re-renders every mounted board within 1 s of the server's Updated", () => {
		const each = setup([
			["1", 50],
			["2", 40],
			["3", 30],
		]);
		const mounted = each.map(({ client, entry }) => mountWall(client, entry));
		task.wait(0.5);
		gate!.users.register(4, "dora", "Dora");
		boards!.submit("Kills", "4", 60);
		boards!.flushNow();
		const updatedAt = refresh();
		task.wait(1 - (gate!.now() - updatedAt));
		for (const board of mounted)
			expect(shown(board.Frame)).toEqual([
				`1|Dora|60|${headshot(4)}|`,
				`2|P 1|50|${headshot(1)}|${board === mounted[0] ? "mine" : ""}`,
				`3|P 2|40|${headshot(2)}|${board === mounted[1] ? "mine" : ""}`,
			]);
	});

	it("a client that joins late gets the whole page", () => {
		setup([
			["1", 50],
			["2", 40],
			["3", 30],
		]);
		task.wait(1);
		const late = gate!.connectClient({ UserId: 9, Name: "late" });
		clients.push(late);
		task.wait(0.5);
		const board = mountWall(late, clientEntry(late));
		task.wait(0.5);
		expect(shown(board.Frame)).toEqual([
			`1|P 1|50|${headshot(1)}|`,
			`2|P 2|40|${headshot(2)}|`,
			`3|P 3|30|${headshot(3)}|`,
		]);
	});

	it("an empty board shows the Empty child and no row, until a score arrives", () => {
		const each = setup([]);
		const board = mountWall(each[0].client, each[0].entry);
		task.wait(0.5);
		expect(shown(board.Frame)).toEqual([]);
		expect((board.Frame.FindFirstChild("Empty") as TextLabel).Visible).toBe(true);
		expect((board.Frame.FindFirstChild("Empty") as TextLabel).Text).toBe("No scores yet");
		boards!.submit("Kills", "1", 5);
		boards!.flushNow();
		refresh();
		task.wait(1);
		expect(shown(board.Frame)).toEqual([`1|P 1|5|${headshot(1)}|mine`]);
		expect((board.Frame.FindFirstChild("Empty") as TextLabel).Visible).toBe(false);
	});

	it("ListBoard: the game's template (named children) and format() options", () => {
		const each = setup([
			["1", 12_345],
			["team:red", 2_000_000],
		]);
		const { client, entry } = each[1];
		const screen = new Instance("ScreenGui");
		screen.Parent = client.localPlayer.FindFirstChild("PlayerGui");
		const template = new Instance("Frame");
		const row = new Instance("Frame");
		row.Name = "Row";
		const children = [
			["TextLabel", "Rank"],
			["TextLabel", "DisplayName"],
			["TextLabel", "Value"],
			["ImageLabel", "Avatar"],
			["Frame", "Mine"],
		] as const;
		for (const [className, name] of children) {
			const child = new Instance(className);
			child.Name = name;
			child.Parent = row;
		}
		row.Parent = template;
		const board = entry.ListBoard.mount(screen, {
			Board: "Kills",
			Rows: 5,
			Template: template,
			Format: { Suffixes: SHORT_SUFFIXES },
		});
		task.wait(0.5);
		expect(board.Frame.Parent).toBe(screen);
		expect(board.Frame.FindFirstChild("Row")).toBe(undefined);
		// A key that is not a user id has no headshot: its name is the key.
		expect(shown(board.Frame)).toEqual(["1|team:red|2 M||", `2|P 1|12.3 K|${headshot(1)}|`]);
		expect(template.FindFirstChild("Row")).toBe(row);
	});

	it("destroy() unmounts: the SurfaceGui goes, and the board no longer follows the rows", () => {
		const each = setup([["1", 50]]);
		const { client, entry } = each[0];
		const board = mountWall(client, entry);
		task.wait(0.5);
		const playerGui = client.localPlayer.FindFirstChild("PlayerGui")!;
		expect(playerGui.GetChildren().size()).toBe(1);
		board.destroy();
		board.destroy();
		expect(playerGui.GetChildren().size()).toBe(0);
		expect(board.Frame.Parent).toBe(undefined);
		boards!.submit("Kills", "2", 60);
		boards!.flushNow();
		refresh();
		task.wait(1);
		expect(
			board.Frame.GetChildren()
				.filter((child) => tonumber(child.Name) !== undefined)
				.size(),
		).toBe(0);
	});

	it("mount's arguments are checked at the game's call, naming the field", () => {
		const each = setup([]);
		const { client, entry } = each[0];
		const wall = wallOf(client);
		expect(() => entry.WorldBoard.mount(wall, { Rows: 3 } as never)).toThrow(
			"WorldBoard.mount: options.Board must be a board's name (got nil)",
		);
		expect(() => entry.WorldBoard.mount(wall, { Board: "Kills", Rows: 0 })).toThrow(
			"WorldBoard.mount: options.Rows must be a positive integer (got 0)",
		);
		expect(() => entry.WorldBoard.mount(undefined as never, { Board: "Kills" })).toThrow(
			"WorldBoard.mount: part must be a BasePart (got nil)",
		);
		expect(() => entry.ListBoard.mount(wall as never, { Board: "Kills" })).toThrow(
			"ListBoard.mount: frame must be a GuiObject or a ScreenGui (got Wall)",
		);
		expect(() =>
			entry.ListBoard.mount(new Instance("Frame"), { Board: "Kills", Template: new Instance("Frame") }),
		).toThrow("ListBoard.mount: options.Template must be a GuiObject with a GuiObject child named Row (got Frame)");
		// On the server there is no local player to show the board to.
		expect(() => ListBoard.mount(new Instance("Frame"), { Board: "Kills" })).toThrow(
			"ListBoard.mount: call it on a client (a LocalScript): Players.LocalPlayer is nil here",
		);
	});
});
