import { afterEach, describe, expect, it } from "@rbxts/jest-globals";
import { Players } from "@rbxts/services";
import { Kernel } from "../../kernel";
import { PlayerLookup, attach } from "../../plugins/leaderboards";
import { FRIENDS_SECONDS } from "../../plugins/leaderboards/internal";
import { headlessGate } from "../gate/control";
import { manualClock } from "../kernel/doubles";

// friends() asks Player:GetFriendsWhoPlayedAsync first (Player.yaml, 2026-04: "by narrowing DataStore
// lookups to only friends who have actually played the experience, you avoid fetching scores for the
// entire friends list"), cached like the friend list, and reads the whole list (GetFriendsAsync)
// where it fails or is absent.
const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

// Player 1 with 200 friends, every one holding a score (stored before the run), 20 of them (2, 12,
// 22, ...) having played this game; player 1 on this server, alone.
function twoHundredFriends() {
	gate!.reset();
	const stored = new Map<string, number>();
	const played = new Array<number>();
	for (let id = 2; id <= 201; id++) {
		gate!.friends.befriend(1, id);
		stored.set(tostring(id), id);
		if (id % 10 === 2) played.push(id);
	}
	gate!.friends.played(played);
	gate!.dataStore.seed("CKBoard_Kills", stored);
	return { player: gate!.players.join({ UserId: 1 }), played };
}

const boardsOn = (options: { Players?: PlayerLookup; Clock?: () => number } = {}) =>
	attach(new Kernel({ bindToClose: false }), {
		Boards: { Kills: { MaxEntries: 10 } },
		SkipLoop: true,
		...options,
	});

describeGate("friends() from friends who played", () => {
	afterEach(() => gate!.reset());

	it("reads only the friends who played when GetFriendsWhoPlayedAsync answers: two calls complete", () => {
		const { player, played } = twoHundredFriends();
		const boards = boardsOn();
		// A one-player server's reads: its share of the experience's, 0.9 x 40 = 36, half kept for writes.
		expect(boards.friends("Kills", player)[1]).toBe(2);
		task.wait(10);
		const [rows, unread] = boards.friends("Kills", player);
		expect(unread).toBe(0);
		const best = new Array<string>();
		for (let i = played.size() - 1; i >= 0; i--) best.push(tostring(played[i]));
		expect(rows!.map((row) => row.Key)).toEqual(best);
		expect(gate!.friends.calls("GetFriendsWhoPlayedAsync")).toBe(1);
		expect(gate!.friends.calls("GetFriendsAsync")).toBe(0);
		// The player and the 20 who played, less 192 on the top page: 20 keys read.
		expect(gate!.dataStore.spent("OrderedRead")).toBe(20);
		boards.destroy();
	});

	it("falls back to the whole friend list when GetFriendsWhoPlayedAsync errors", () => {
		const { player } = twoHundredFriends();
		gate!.friends.fault({ method: "GetFriendsWhoPlayedAsync", failNext: 1 });
		const boards = boardsOn();
		const [rows] = boards.friends("Kills", player);
		expect(gate!.friends.calls("GetFriendsWhoPlayedAsync")).toBe(1);
		expect(gate!.friends.calls("GetFriendsAsync")).toBe(1);
		expect(gate!.friends.calls("AdvanceToNextPageAsync")).toBe(3);
		// The first read takes what the budget grants of the 201 keys: 18 (above).
		expect(gate!.dataStore.spent("OrderedRead")).toBe(18);
		// The 10 on the top page, and 17 of the 18 read (the player has no score).
		expect(rows!.size()).toBe(27);
		boards.destroy();
	});

	it("is cached like the friend list: asked again only after FRIENDS_SECONDS", () => {
		const { player } = twoHundredFriends();
		const clock = manualClock();
		const boards = boardsOn({ Clock: clock.clock });
		boards.friends("Kills", player);
		clock.advance(FRIENDS_SECONDS - 1);
		boards.friends("Kills", player);
		expect(gate!.friends.calls()).toBe(1);
		clock.advance(1);
		boards.friends("Kills", player);
		expect(gate!.friends.calls("GetFriendsWhoPlayedAsync")).toBe(2);
		boards.destroy();
	});

	it("a Players double: its GetFriendsWhoPlayedAsync answers; without one, or failing, the friend list does", () => {
		const { player } = twoHundredFriends();
		const asked = new Array<string>();
		// Doubles: GetFriendsAsync through the gate's, GetFriendsWhoPlayedAsync as each case says.
		const lookup = (whoPlayed?: (userId: number) => number[]): PlayerLookup => {
			const double = {
				GetPlayerByUserId() {
					return player;
				},
				GetFriendsAsync(userId: number) {
					asked.push("list");
					return Players.GetFriendsAsync(userId as unknown as User);
				},
				GetFriendsWhoPlayedAsync(userId: number) {
					return whoPlayed!(userId);
				},
			};
			if (!whoPlayed) (double as { GetFriendsWhoPlayedAsync?: unknown }).GetFriendsWhoPlayedAsync = undefined;
			return double;
		};
		const answered = boardsOn({ Players: lookup(() => [3, 4]) });
		expect(answered.friends("Kills", 1)[0]!.map((row) => row.Key)).toEqual(["4", "3"]);
		expect(asked).toEqual([]);
		answered.destroy();
		const absent = boardsOn({ Players: lookup() });
		expect(absent.friends("Kills", 1)[0]).toBeDefined();
		expect(asked).toEqual(["list"]);
		absent.destroy();
		const failing = boardsOn({ Players: lookup(() => error("HTTP 500")) });
		expect(failing.friends("Kills", 1)[0]).toBeDefined();
		expect(asked).toEqual(["list", "list"]);
		failing.destroy();
	});
});
