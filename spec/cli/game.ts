import { DataStoreService, HttpService, MemoryStoreService } from "@rbxts/services";
import { Kernel } from "../../kernel";
import { Leaderboards, attach, memoryStoreBackend } from "../../plugins/leaderboards";
import { HeadlessGate } from "../gate/control";
import { LayoutBoard } from "./tool";

// A game for the tool to moderate: four boards of the library in the gate (a plain all-time board, a
// Big board, a tie-break board and a daily MemoryStore board over two shards), twelve players' scores
// stored, yesterday's daily map, and the manifest the library writes (docs/manifest.md). The end-to-end
// spec and the playground (spec/cli/playground.ts) both start from it.

// Sunday 2026-12-06 00:00 UTC is the gate's calendar at virtual time 0: the game plays at 12:00.
export const NOON = 1796515200 + 12 * 3600;
export const TODAY = "2026-12-06";
export const YESTERDAY = "2026-12-05";
export const BOARDS = ["Kills", "Coins", "Sprint", "DailyKills"];

export const LAYOUT: Record<string, LayoutBoard> = {
	Kills: { Backend: "OrderedDataStore", Prefix: "CKBoard_", Storage: "Kills", KeepBest: true },
	Coins: { Backend: "OrderedDataStore", Prefix: "CKBoard_", Storage: "Coins#Big", Values: "Big", KeepBest: true },
	Sprint: {
		Backend: "OrderedDataStore",
		Prefix: "CKBoard_",
		Storage: "Sprint#Earliest",
		TieBreak: "Earliest",
		Ascending: true,
		KeepBest: true,
	},
	DailyKills: {
		Backend: "MemoryStore",
		Prefix: "CKBoard_",
		Shards: 2,
		Storage: "DailyKills",
		Reset: "Daily",
		ResetOffset: 0,
		KeepBest: true,
	},
};

/** The shard (0-based) of a key on a board of 2 shards, as the library's MemoryStore backend picks it (djb2). */
export function shardOf(key: string) {
	let hash = 5381;
	for (let i = 1; i <= key.size(); i++) hash = (hash * 33 + string.byte(key, i)[0]) % 4_294_967_296;
	return hash % 2;
}

function storedAll(gate: HeadlessGate, count: number) {
	const sizes = ["CKBoard_Kills", "CKBoard_Coins#Big", "CKBoard_Sprint#Earliest"].map((name) =>
		gate.dataStore.snapshot(name).size(),
	);
	let daily = 0;
	for (const shard of [1, 2]) daily += gate.memoryStore.snapshot(`CKBoard_DailyKills@${TODAY}.${shard}/2`).size();
	return sizes.every((size) => size === count) && daily === count;
}

/** The game, after gate.reset(): its kernel (started: stop it when done) and boards, every score stored, the manifest written. */
export function playGame(gate: HeadlessGate): { kernel: Kernel; boards: Leaderboards } {
	gate.calendar.set(NOON);
	// Thirty players: the game's share of the experience's List budget (54 a minute) rereads its pages often.
	for (let i = 1; i <= 30; i++) gate.players.join({ UserId: 900 + i });
	const kernel = new Kernel({ bindToClose: false });
	const boards = attach(kernel, {
		Boards: {
			Kills: { CacheSeconds: 1 },
			Coins: { Values: "Big", CacheSeconds: 1 },
			Sprint: { TieBreak: "Earliest", Ascending: true, CacheSeconds: 1 },
			DailyKills: { Reset: "Daily", Backend: memoryStoreBackend({ Shards: 2 }), CacheSeconds: 1 },
		},
		SkipLoop: true,
		SharePages: false,
	});
	// Started as a game starts it: the library writes the manifest's layout then.
	kernel.start();
	for (let i = 1; i <= 12; i++) {
		const key = tostring(100 + i);
		boards.submit("Kills", key, i * 10);
		boards.submit("Coins", key, i * 1.5e20);
		boards.submit("Sprint", key, 60 - i);
		boards.submit("DailyKills", key, i);
	}
	// Flushed until every board holds all 12 (the server's ordered writes are 30 + 5 a player a minute).
	for (let i = 0; i < 100 && !storedAll(gate, 12); i++) {
		boards._flush();
		task.wait(2);
	}
	if (!storedAll(gate, 12)) error("the game did not store every score");
	// Yesterday's map of the daily board, as the game wrote it a day ago: 105 was on it too.
	for (const [key, value] of [
		["105", 50],
		["201", 70],
	] as const) {
		const shard = MemoryStoreService.GetSortedMap(`CKBoard_DailyKills@${YESTERDAY}.${shardOf(key) + 1}/2`);
		shard.SetAsync(key, value, 86400, value);
	}
	// The library wrote the manifest's layout and today's period; yesterday's is added as that day's game would have.
	DataStoreService.GetDataStore("CKBoard_Manifest").UpdateAsync("periods:DailyKills", (old) => {
		const ids = (old as { Ids: string[] } | undefined)?.Ids ?? [];
		return $tuple({ Version: 1, Ids: [YESTERDAY, ...ids.filter((id) => id !== YESTERDAY)] });
	});
	return { kernel, boards };
}

/** A board's top() as [key, value] rows. */
export function topOf(boards: Leaderboards, board: string, count = 20) {
	return boards.top(board, count).map((entry) => [entry.Key, entry.Value]);
}

/**
 * The game's top() once it agrees with `expected`: its page (CacheSeconds 1, no shared pages) is
 * read again within its share of the List budget, so this waits up to two virtual minutes for it.
 */
export function agreed(boards: Leaderboards, board: string, expected: unknown) {
	const want = HttpService.JSONEncode(expected);
	for (let waited = 0; waited < 120; waited += 1) {
		const top = topOf(boards, board);
		if (HttpService.JSONEncode(top) === want) return top;
		task.wait(1);
	}
	return topOf(boards, board);
}
