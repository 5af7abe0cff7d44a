import { Players } from "@rbxts/services";
import { Kernel } from "../kernel";
import { PlayerLookup, attach } from "../plugins/leaderboards";
import { HeadlessGate } from "../spec/gate/control";
import { count, counted } from "../spec/gate/format";
import { BenchRow } from "./measure";

/** A friends board's size: the player's friends, how many of them played, the players on the server. */
export interface FriendsSize {
	friends: number;
	played: number;
	online: number;
}

// Player 1 asks friends() every 10 s until the board is complete: the reads (OrderedRead requests)
// and the calls it took. Every friend holds a score below the top page's (100 others ahead), so each
// is read; `played` of them played this game.
function complete(gate: HeadlessGate, size: FriendsSize, players?: PlayerLookup): [reads: number, calls: number] {
	gate.reset();
	gate.latency.use("realistic");
	const stored = new Map<string, number>();
	const played = new Array<number>();
	for (let id = 2; id <= size.friends + 1; id++) {
		gate.friends.befriend(1, id);
		stored.set(tostring(id), id);
		if (played.size() < size.played && id % math.floor(size.friends / size.played) === 0) played.push(id);
	}
	for (let i = 1; i <= 100; i++) stored.set(`other${i}`, 1_000 + i);
	gate.friends.played(played);
	gate.dataStore.seed("CKBoard_Kills", stored);
	const player = gate.players.join({ UserId: 1 });
	for (let i = 2; i <= size.online; i++) gate.players.join({ UserId: 100_000 + i });
	const boards = attach(new Kernel({ bindToClose: false }), {
		Boards: { Kills: {} },
		SkipLoop: true,
		Players: players,
	});
	let calls = 0;
	for (;;) {
		calls += 1;
		const [rows, unread] = boards.friends("Kills", player);
		if (rows !== undefined && unread === 0) break;
		task.wait(10);
	}
	boards.destroy();
	return [gate.dataStore.spent("OrderedRead"), calls];
}

// The path before GetFriendsWhoPlayedAsync: Players with only the friend list.
const friendListOnly: PlayerLookup = {
	GetPlayerByUserId(userId: number) {
		return Players.GetPlayerByUserId(userId);
	},
	GetFriendsAsync(userId: number) {
		return Players.GetFriendsAsync(userId as unknown as User);
	},
};

/** friends() of a player whose friends mostly never played, before (the whole friend list) and after. */
export function friendsRow(gate: HeadlessGate, size: FriendsSize): BenchRow {
	const [reads, calls] = complete(gate, size);
	const [listReads, listCalls] = complete(gate, size, friendListOnly);
	return {
		name: `friends(): ${count(size.friends)} friends, ${count(size.played)} who played, ${counted(size.online, "player")} on the server, asked every 10 s`,
		ours: `${counted(reads, "read")}, ${counted(calls, "call")} to complete (friends who played)`,
		baseline: `${counted(listReads, "read")}, ${counted(listCalls, "call")} (the whole friend list)`,
		ratio: `${count(listCalls)}/${count(calls)} calls`,
		bound: "complete in at most 2 calls",
		met: calls <= 2,
	};
}
