import { afterEach, describe, expect, it } from "@rbxts/jest-globals";
import { ReplicatedStorage } from "@rbxts/services";
import { Kernel } from "../../kernel";
import { Leaderboards, Topics } from "../../plugins/leaderboards";
import { READY, SentRow, SentStanding } from "../../plugins/leaderboards/contracts";
import { messageParts, pageAfter, standingOf } from "../../plugins/leaderboards/client/wire";
import { BoardsClient } from "../../plugins/leaderboards/client";
import { clientEntry } from "./clientEntry";
import { GateClient, headlessGate } from "../gate/control";
import { MemoryBackend, boardsWith } from "./doubles";

// The Replicator stage on the gate: a server and its clients (spec/gate/README.md, "Clients").
// A submit that changes the top reaches every client within a second of the server's Updated; a late
// client gets the whole page; a player's standing reaches that player only; junk and floods are
// ignored and counted.

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

/** What one client holds, applied from the messages as a client would, and when its rows last changed. */
interface Seen {
	rows: SentRow[];
	standing?: SentStanding;
	pages: number;
	standings: number;
	changedAt: number;
	/** The board's deltas as they came (contracts/replication.ts). */
	deltas: string[];
}

function listen(client: GateClient): Seen {
	const seen: Seen = { rows: [], pages: 0, standings: 0, changedAt: -1, deltas: [] };
	const pages = client.game
		.GetService("ReplicatedStorage")
		.WaitForChild("Leaderboards")
		.WaitForChild("Pages") as RemoteEvent;
	const boards = new Map<string, string>();
	pages.OnClientEvent.Connect((...messages: unknown[]) => {
		for (const message of messages) {
			const { kind, board, parts } = messageParts(message, boards)!;
			if (board !== "Kills") continue;
			if (kind === "S") {
				seen.standing = standingOf(parts);
				seen.standings += 1;
				continue;
			}
			seen.rows = pageAfter(kind === "P" ? [] : seen.rows, parts);
			if (kind === "P") seen.pages += 1;
			else seen.deltas.push(message as string);
			seen.changedAt = gate!.now();
		}
	});
	pages.FireServer(READY);
	return seen;
}

const keys = (seen: Seen) => seen.rows.map((row) => `${row.Rank}.${row.Key}=${row.Value}`);

let kernel: Kernel | undefined;
let boards: Leaderboards | undefined;
let clients: GateClient[] = [];

function setup(cacheSeconds = 1) {
	const backend = new MemoryBackend();
	backend.stored.set(
		"Kills",
		new Map([
			["1", 50],
			["2", 40],
			["3", 30],
			["4", 20],
		]),
	);
	gate!.users.register(4, "dora", "Dora");
	({ kernel, boards } = boardsWith({
		backend,
		Boards: { Kills: { Replicate: { Rows: 3 }, CacheSeconds: cacheSeconds } },
	}));
	kernel!.start();
	clients = [1, 2, 3].map((id) => gate!.connectClient({ UserId: id, Name: `p${id}`, DisplayName: `P ${id}` }));
	const seen = clients.map(listen);
	task.wait(0.5);
	return { backend, seen };
}

// The server reads the page again (past CacheSeconds) and returns when its Updated was published.
function refresh(cacheSeconds = 1): number {
	let at = -1;
	const subscription = kernel!.Bus.subscribe(Topics.Updated, () => (at = gate!.now()));
	task.wait(cacheSeconds + 0.1);
	boards!.top("Kills");
	subscription.disconnect();
	return at;
}

describeGate("Replicator: boards players see", () => {
	afterEach(() => {
		for (const client of clients) client.leave();
		clients = [];
		boards?.destroy();
		kernel?.stop();
		gate!.reset();
	});

	it("a ready client gets the page with names, and its own standing", () => {
		const { seen } = setup();
		for (const each of seen) {
			expect(keys(each)).toEqual(["1.1=50", "2.2=40", "3.3=30"]);
			expect(each.pages).toBe(1);
		}
		expect(seen[0].rows[0]).toEqual({ Rank: 1, Key: "1", Value: 50, DisplayName: "P 1", Username: "p1" });
		expect(seen.map((each) => each.standing)).toEqual([
			{ Value: 50, Rank: 1 },
			{ Value: 40, Rank: 2 },
			{ Value: 30, Rank: 3 },
		]);
		const folder = ReplicatedStorage.FindFirstChild("Leaderboards")!;
		expect(folder.FindFirstChildOfClass("RemoteEvent")!.Name).toBe("Pages");
		// The page of 3 rows and the standing, in the gate's bytes (spec/gate/README.md, "Clients"); "Ready" back.
		expect(clients.map((client) => [client.stats().received, client.stats().sent])).toEqual([
			[65, 8],
			[65, 8],
			[65, 8],
		]);
	});

	it("a submit that changes the top reaches every client's rows within 1 s of the server's Updated", () => {
		const { seen } = setup();
		boards!.submit("Kills", "4", 60);
		boards!.flushNow();
		const updatedAt = refresh();
		task.wait(1);
		for (const each of seen) {
			expect(keys(each)).toEqual(["1.4=60", "2.1=50", "3.2=40"]);
			expect(each.rows[0].DisplayName).toBe("Dora");
			expect(each.changedAt - updatedAt <= 1).toBe(true);
			expect(each.changedAt >= updatedAt).toBe(true);
		}
		// One op (key 4 at place 1, with its names: the client shifts the rest) and each standing's new rank.
		expect(clients.map((client) => client.stats().received)).toEqual([97, 97, 97]);
	});

	it("a client that joins late gets the whole page", () => {
		const { seen } = setup();
		boards!.submit("Kills", "4", 60);
		boards!.flushNow();
		refresh();
		task.wait(1);
		const late = gate!.connectClient({ UserId: 9, Name: "late" });
		clients.push(late);
		const lateSeen = listen(late);
		task.wait(0.5);
		expect(lateSeen.pages).toBe(1);
		expect(keys(lateSeen)).toEqual(keys(seen[0]));
		expect(lateSeen.standing).toEqual({});
	});

	it("a player's own standing reaches that player only", () => {
		const { seen } = setup();
		const before = seen.map((each) => each.standings);
		boards!.submit("Kills", clients[1].player, 45);
		boards!.flushNow();
		refresh();
		task.wait(1);
		expect(seen[1].standing).toEqual({ Value: 45, Rank: 2 });
		expect(seen.map((each) => each.standings)).toEqual([before[0], before[1] + 1, before[2]]);
	});

	it("a board's rows go at most once a second: the Updated between wait for the next send", () => {
		const { seen } = setup(0.25);
		task.wait(1); // past the first page's send
		let rowsMessages = 0;
		const pages = clients[0].game
			.GetService("ReplicatedStorage")
			.FindFirstChild("Leaderboards")!
			.FindFirstChild("Pages") as RemoteEvent;
		pages.OnClientEvent.Connect((message: string) => message.sub(1, 1) === "R" && rowsMessages++);
		boards!.submit("Kills", "4", 60);
		boards!.flushNow();
		const first = refresh(0.25);
		task.wait(0.2);
		expect(rowsMessages).toBe(1);
		boards!.submit("Kills", "4", 70);
		boards!.flushNow();
		const second = refresh(0.25);
		expect(second - first < 1).toBe(true);
		task.wait(0.1);
		// The second Updated came within a second of the first send: its rows wait until a second has passed.
		expect(rowsMessages).toBe(1);
		expect(seen[0].changedAt - first < 1).toBe(true);
		task.wait(1);
		expect(rowsMessages).toBe(2);
		expect(seen[0].changedAt - first >= 1).toBe(true);
		expect(keys(seen[0])).toEqual(["1.4=70", "2.1=50", "3.2=40"]);
	});

	it("LeaderboardsClient on a client: rows, standing and observe, from the page and its changes", () => {
		setup();
		const client = gate!.connectClient({ UserId: 7, Name: "g" });
		clients.push(client);
		const { LeaderboardsClient } = clientEntry(client) as { LeaderboardsClient: BoardsClient<"Kills"> };
		const observed = new Array<string[]>();
		const connection = LeaderboardsClient.observe("Kills", (rows) =>
			observed.push(rows.map((row) => `${row.Rank}.${row.Key}=${row.Value}`)),
		);
		task.wait(0.5);
		expect(observed).toEqual([[], ["1.1=50", "2.2=40", "3.3=30"]]);
		expect(LeaderboardsClient.rows("Kills")[0]).toEqual({
			Rank: 1,
			Key: "1",
			Value: 50,
			DisplayName: "P 1",
			Username: "p1",
		});
		expect(LeaderboardsClient.standing("Kills")).toEqual({});
		boards!.submit("Kills", "4", 60);
		boards!.flushNow();
		refresh();
		task.wait(1);
		expect(observed[2]).toEqual(["1.4=60", "2.1=50", "3.2=40"]);
		connection.Disconnect();
		connection.Disconnect();
		boards!.submit("Kills", "5", 70);
		boards!.flushNow();
		refresh();
		task.wait(1);
		expect(LeaderboardsClient.rows("Kills")[0].Key).toBe("5");
		expect(observed.size()).toBe(3);
		expect(() => LeaderboardsClient.rows(5 as never)).toThrow(
			"LeaderboardsClient.rows: board must be a board's name (got 5)",
		);
	});

	it("BoardConfig.Replicate is checked, naming the field", () => {
		expect(() => boardsWith({ Boards: { Kills: { Replicate: { Rows: 0 } } } })).toThrow(
			"options.Boards.Kills.Replicate.Rows must be a positive integer",
		);
		expect(() => boardsWith({ Boards: { Kills: { Replicate: { Rows: 20 }, MaxEntries: 10 } } })).toThrow(
			"options.Boards.Kills.Replicate.Rows must be at most the board's MaxEntries (10)",
		);
		expect(() => boardsWith({ Boards: { Kills: { Replicate: true as never } } })).toThrow(
			"options.Boards.Kills.Replicate must be a table { Rows }",
		);
	});

	it("a client sending junk or flooding ready signals is ignored and counted", () => {
		const { seen } = setup();
		const pages = clients[1].game
			.GetService("ReplicatedStorage")
			.FindFirstChild("Leaderboards")!
			.FindFirstChild("Pages") as RemoteEvent;
		pages.FireServer("Page", "Kills", []);
		pages.FireServer(READY, "extra");
		pages.FireServer(42);
		for (let i = 0; i < 10; i++) pages.FireServer(READY);
		task.wait(0.5);
		const folder = ReplicatedStorage.FindFirstChild("Leaderboards")!;
		expect(folder.GetAttribute("Ignored")).toBe(13);
		expect(seen[1].pages).toBe(1);
		expect(keys(seen[1])).toEqual(["1.1=50", "2.2=40", "3.3=30"]);
	});

	it("deltas: ranks are places, names go once while a key stays on the page, a late client gets it whole", () => {
		const { seen } = setup();
		const submit = (key: string, value: number) => {
			boards!.submit("Kills", key, value);
			boards!.flushNow();
			refresh();
			task.wait(1);
		};
		submit("4", 60); // a new leader: one op, the client shifts the rest and 3 leaves the page
		submit("4", 70); // a value change without a move: its names are not sent again
		submit("3", 80); // back on the page: its names again
		expect(seen[0].deltas).toEqual(["R1|1,4,60,Dora,dora", "R1|1,4,70", "R1|1,3,80,P 3,p3"]);
		for (const each of seen) expect(keys(each)).toEqual(["1.3=80", "2.4=70", "3.1=50"]);
		expect(seen[2].rows[1]).toEqual({ Rank: 2, Key: "4", Value: 70, DisplayName: "Dora", Username: "dora" });
		const late = gate!.connectClient({ UserId: 9, Name: "late" });
		clients.push(late);
		const lateSeen = listen(late);
		task.wait(0.5);
		expect(lateSeen.rows).toEqual(seen[0].rows);
	});
});
