import { afterEach, describe, expect, it } from "@rbxts/jest-globals";
import { Players, UserService } from "@rbxts/services";
import { headlessGate } from "./control";

// Domain-scoped user ids (players/users.md, 2026-06), Datatype.User (datatypes/User.yaml),
// Player.User and Player:GetFriendsWhoPlayedAsync (classes/Player.yaml),
// UserService:GetUserFromGlobalUserIdAsync (classes/UserService.yaml), and the enums
// SignalBehavior and DomainType (enums/SignalBehavior.yaml, enums/DomainType.yaml).

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

describeGate("Datatype.User", () => {
	afterEach(() => gate!.reset());

	it("User.fromId is a user of this experience: Id, DomainType EXPERIENCE, DomainId the universe", () => {
		const user = User.fromId(500_789);
		expect(typeOf(user)).toBe("User");
		expect(user.Id).toBe(500_789);
		expect(user.DomainType).toBe(Enum.DomainType.EXPERIENCE);
		expect(user.DomainId).toBe(gate!.users.universeId);
		expect(() => User.fromId(1.5)).toThrow("Unable to cast value to int64");
		expect(() => (user as unknown as { Name: unknown }).Name).toThrow("Name is not a valid member of User");
	});

	it("ToString and fromString round-trip, for either domain; a value compares equal to its copy", () => {
		const user = User.fromId(123);
		expect(User.fromString(user.ToString())).toEqual(user);
		expect(User.fromString(user.ToString()) === user).toBe(true);
		const app = gate!.users.make(42, "OAUTH", 9001);
		const back = User.fromString(app.ToString());
		expect([back.Id, back.DomainType, back.DomainId]).toEqual([42, Enum.DomainType.OAUTH, 9001]);
		expect(back === user).toBe(false);
		expect(() => User.fromString("123")).toThrow("is not a string User:ToString() wrote");
	});

	it("Player.User is the player's User in this experience, with the Player's UserId", () => {
		const player = gate!.players.join({ UserId: 77 });
		expect(player.User.Id).toBe(77);
		expect(player.User.DomainType).toBe(Enum.DomainType.EXPERIENCE);
		expect(player.User === User.fromId(77)).toBe(true);
	});

	it("GetUserFromGlobalUserIdAsync: a returning player keeps the global id; a new one gets the scoped id", () => {
		gate!.users.scope(1_000, 9_000_001);
		expect(UserService.GetUserFromGlobalUserIdAsync(123).Id).toBe(123);
		const scoped = UserService.GetUserFromGlobalUserIdAsync(1_000);
		expect([scoped.Id, scoped.DomainType, scoped.DomainId]).toEqual([
			9_000_001,
			Enum.DomainType.EXPERIENCE,
			gate!.users.universeId,
		]);
		expect(gate!.users.stats().calls).toBe(2);
		gate!.users.fault({ method: "GetUserFromGlobalUserIdAsync", failNext: 1 });
		expect(() => UserService.GetUserFromGlobalUserIdAsync(123)).toThrow("HTTP 500");
		expect(() => UserService.GetUserFromGlobalUserIdAsync("x" as unknown as number)).toThrow("int64");
	});
});

describeGate("Player:GetFriendsWhoPlayedAsync", () => {
	afterEach(() => gate!.reset());

	it("every friend has played until the control names who did; then those and whoever joins", () => {
		for (const id of [2, 3, 4, 5]) gate!.friends.befriend(1, id);
		const player = gate!.players.join({ UserId: 1 });
		expect(player.GetFriendsWhoPlayedAsync()).toEqual([2, 3, 4, 5]);
		gate!.friends.played([3]);
		expect(player.GetFriendsWhoPlayedAsync()).toEqual([3]);
		gate!.players.join({ UserId: 5 });
		expect(player.GetFriendsWhoPlayedAsync()).toEqual([3, 5]);
		expect(gate!.friends.calls("GetFriendsWhoPlayedAsync")).toBe(3);
		expect(gate!.friends.calls()).toBe(3);
	});

	it("an empty array when no friend played; it follows the friends fault plan", () => {
		const player = gate!.players.join({ UserId: 1 });
		expect(player.GetFriendsWhoPlayedAsync()).toEqual([]);
		gate!.friends.fault({ method: "GetFriendsWhoPlayedAsync", failNext: 1 });
		expect(() => player.GetFriendsWhoPlayedAsync()).toThrow("HTTP 500");
		expect(player.GetFriendsWhoPlayedAsync()).toEqual([]);
	});
});

describeGate("the enums of 2026", () => {
	it("Enum.SignalBehavior: Default 0, Immediate 1, Deferred 2, AncestryDeferred 3", () => {
		const items = Enum.SignalBehavior.GetEnumItems().map((item) => `${item.Name}=${item.Value}`);
		expect(items).toEqual(["Default=0", "Immediate=1", "Deferred=2", "AncestryDeferred=3"]);
		expect(Enum.SignalBehavior.FromValue(2)).toBe(Enum.SignalBehavior.Deferred);
	});

	it("Enum.DomainType: EXPERIENCE 1, OAUTH 3", () => {
		const items = Enum.DomainType.GetEnumItems().map((item) => `${item.Name}=${item.Value}`);
		expect(items).toEqual(["EXPERIENCE=1", "OAUTH=3"]);
		expect(Enum.DomainType.FromValue(3)).toBe(Enum.DomainType.OAUTH);
		expect(Enum.DomainType.FromValue(2)).toBeUndefined();
	});
});

// Players in another server see the same friends who played.
describeGate("who played, across servers", () => {
	afterEach(() => gate!.reset());

	it("a player who joined any server counts as played once the control restricts it", () => {
		gate!.friends.befriend(1, 2);
		gate!.friends.befriend(1, 3);
		gate!.friends.played([]);
		const other = gate!.newServer("spec/gate/fixtures/bare/default.project.json");
		other.join({ UserId: 2 });
		const player = gate!.players.join({ UserId: 1 });
		expect(player.GetFriendsWhoPlayedAsync()).toEqual([2]);
		expect(Players.GetPlayerByUserId(1)).toBe(player);
		other.close();
	});
});
