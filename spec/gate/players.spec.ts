import { afterEach, describe, expect, it } from "@rbxts/jest-globals";
import { Players, UserService } from "@rbxts/services";
import { GateServer, headlessGate } from "./control";

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;
// Players:GetFriendsAsync takes a UserId (typed User in @rbxts/types).
const friendPages = (userId: unknown) => Players.GetFriendsAsync(userId as User);

describeGate("Players, UserService and closing the server", () => {
	afterEach(() => gate!.reset());

	it("players join and leave with PlayerAdded and PlayerRemoving", () => {
		const events: string[] = [];
		const added = Players.PlayerAdded.Connect((p) => events.push(`+${p.Name}`));
		const removing = Players.PlayerRemoving.Connect((p) => events.push(`-${p.Name}`));
		const player = gate!.players.join({ UserId: 101, Name: "ada", DisplayName: "Ada" });
		expect(Players.GetPlayers()).toEqual([player]);
		expect(Players.GetPlayerByUserId(101)).toBe(player);
		expect(player.DisplayName).toBe("Ada");
		gate!.players.leave(player);
		task.wait(); // under Deferred signals the handlers run at the next resumption point
		added.Disconnect();
		removing.Disconnect();
		expect(events).toEqual(["+ada", "-ada"]);
		expect(Players.GetPlayers().size()).toBe(0);
	});

	it("UserService returns known users and leaves out invalid ids", () => {
		gate!.users.register(1, "one", "One");
		const infos = UserService.GetUserInfosByUserIdsAsync([1, 999]);
		expect(infos.size()).toBe(1);
		expect(infos[0].Id).toBe(1);
		expect(infos[0].Username).toBe("one");
		expect(infos[0].DisplayName).toBe("One");
	});

	it("UserService errors past 250 results a minute, and recovers a minute later", () => {
		const ids: number[] = [];
		for (let id = 1; id <= 250; id++) {
			gate!.users.register(id, `user${id}`);
			ids.push(id);
		}
		gate!.users.register(251, "user251");
		expect(UserService.GetUserInfosByUserIdsAsync(ids).size()).toBe(250);
		expect(() => UserService.GetUserInfosByUserIdsAsync([251])).toThrow("HTTP 429");
		task.wait(60);
		expect(UserService.GetUserInfosByUserIdsAsync([251]).size()).toBe(1);
	});

	it("UserService follows its fault plan", () => {
		gate!.users.register(1, "one");
		gate!.users.fault({ failNext: 1, message: "HTTP 503" });
		expect(() => UserService.GetUserInfosByUserIdsAsync([1])).toThrow("HTTP 503");
		expect(UserService.GetUserInfosByUserIdsAsync([1]).size()).toBe(1);
	});

	it("GetFriendsAsync: FriendPages of { Id, Username, DisplayName }, perPage a page, mutual friendships", () => {
		gate!.users.register(7, "seven", "Seven");
		for (let id = 1; id <= 120; id++) if (id !== 7) gate!.friends.befriend(7, id);
		const pages = friendPages(7);
		const first = pages.GetCurrentPage();
		expect(first.size()).toBe(gate!.friends.perPage);
		expect(first[0].Id).toBe(1);
		expect(first[0].Username).toBe("User1");
		const ids = new Array<number>();
		for (;;) {
			for (const item of pages.GetCurrentPage()) ids.push(item.Id);
			if (pages.IsFinished) break;
			pages.AdvanceToNextPageAsync();
		}
		expect(ids.size()).toBe(119);
		expect(() => pages.AdvanceToNextPageAsync()).toThrow("No pages to advance to");
		expect(gate!.friends.calls()).toBe(3);
		const back = friendPages(1).GetCurrentPage();
		expect(back.size()).toBe(1);
		expect(back[0]).toEqual({ Id: 7, Username: "seven", DisplayName: "Seven", IsOnline: false });
	});

	it("GetFriendsAsync follows its fault plan, checks its argument, and a user has at most 1,000 friends", () => {
		gate!.friends.fault({ method: "GetFriendsAsync", failNext: 1 });
		expect(() => friendPages(1)).toThrow("HTTP 500");
		expect(friendPages(1).GetCurrentPage().size()).toBe(0);
		expect(() => friendPages("one")).toThrow("Unable to cast value to int64");
		for (let id = 2; id <= gate!.friends.limit + 1; id++) gate!.friends.befriend(1, id);
		expect(() => gate!.friends.befriend(1, 5000)).toThrow("at most 1000 friends");
	});

	it("closing runs BindToClose callbacks in parallel and waits for them", () => {
		const done: string[] = [];
		game.BindToClose(() => {
			task.wait(3);
			done.push("slow");
		});
		game.BindToClose(() => done.push("fast"));
		const [complete, seconds] = gate!.closeServer();
		expect(complete).toBe(true);
		expect(done).toEqual(["fast", "slow"]);
		expect(seconds).toBeCloseTo(3, 1);
	});

	it("closing gives up on a callback that yields forever after 30 s", () => {
		game.BindToClose(() => {
			coroutine.yield();
		});
		const [complete, seconds] = gate!.closeServer();
		expect(complete).toBe(false);
		expect(seconds).toBeCloseTo(30, 1);
	});
});

describeGate("the close reason", () => {
	afterEach(() => gate!.reset());

	// create.roblox.com/docs/reference/engine/enums/CloseReason: the first parameter of a
	// BindToClose callback; Studio always passes DeveloperShutdown.
	it("BindToClose callbacks receive an Enum.CloseReason, DeveloperShutdown unless told", () => {
		const reasons: Enum.CloseReason[] = [];
		game.BindToClose((reason) => reasons.push(reason));
		gate!.closeServer();
		gate!.closeServer("ServerEmpty");
		expect(reasons).toEqual([Enum.CloseReason.DeveloperShutdown, Enum.CloseReason.ServerEmpty]);
	});

	it("a server started by the gate passes the reason too", () => {
		const server = gate!.newServer();
		const reasons: string[] = [];
		(server.require(closer(server.game)) as (log: string[], name: string) => void)(reasons, "");
		server.close("RobloxMaintenance");
		expect(reasons).toEqual(["Enum.CloseReason.RobloxMaintenance"]);
	});
});

describeGate("several servers in one universe", () => {
	afterEach(() => gate!.reset());

	it("each server has its own game, Players and request budgets; stored data is shared", () => {
		const a = gate!.newServer();
		const b = gate!.newServer();
		expect(a.game).never.toBe(b.game);
		a.join({ UserId: 1 });
		a.join({ UserId: 2 });
		expect(a.game.GetService("Players").GetPlayers().size()).toBe(2);
		expect(b.game.GetService("Players").GetPlayers().size()).toBe(0);
		// 30 + 5 x players a minute, each on top of its startup burst of 30 (spec/gate/README.md).
		expect(a.budget("OrderedWrite")).toBe(40 + 30);
		expect(b.budget("OrderedWrite")).toBe(30 + 30);
		const storeA = a.game.GetService("DataStoreService").GetOrderedDataStore("Shared");
		const storeB = b.game.GetService("DataStoreService").GetOrderedDataStore("Shared");
		storeA.SetAsync("k", 7);
		expect(storeB.GetAsync("k")).toBe(7);
		expect(a.budget("OrderedWrite")).toBe(39 + 30);
		expect(b.budget("OrderedWrite")).toBe(30 + 30);
	});

	it("a module required in a server is that server's own copy", () => {
		const pluginOf = (server: GateServer) =>
			server.require(
				server.game
					.GetService("ServerScriptService")
					.WaitForChild("ChloeKernelServer")
					.WaitForChild("Leaderboards") as ModuleScript,
			) as { attach: unknown };
		const a = gate!.newServer();
		const b = gate!.newServer();
		const plugin = pluginOf(a);
		expect(typeIs(plugin.attach, "function")).toBe(true);
		expect(pluginOf(a)).toBe(plugin);
		expect(pluginOf(b)).never.toBe(plugin);
	});

	it("closing one server runs only its BindToClose callbacks", () => {
		const a = gate!.newServer();
		const b = gate!.newServer();
		const closed = new Array<string>();
		(a.require(closer(a.game)) as (log: string[], name: string) => void)(closed, "a");
		(b.require(closer(b.game)) as (log: string[], name: string) => void)(closed, "b");
		const [complete] = a.close();
		expect(complete).toBe(true);
		expect(closed).toEqual(["aEnum.CloseReason.DeveloperShutdown"]);
	});
});

// A module in `server` whose function binds a close callback there, logging a name and the reason.
function closer(server: DataModel): ModuleScript {
	const module = new Instance("ModuleScript");
	(module as unknown as { Source: string }).Source =
		"return function(log, name) game:BindToClose(function(reason) table.insert(log, name .. tostring(reason)) end) end";
	module.Parent = server.GetService("ServerStorage");
	return module;
}
