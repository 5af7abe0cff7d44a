import { afterEach, describe, expect, it } from "@rbxts/jest-globals";
import { Kernel } from "../../kernel";
import { DataStoreService } from "@rbxts/services";
import { Entry, Leaderboards, Period, ShutdownResult, Standing } from "../../plugins/leaderboards";
import { headlessGate } from "../gate/control";

// The calls the docs pages quote (examples/docs/Tour.luau), run as a game would run them.
const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

interface Tour {
	boards(this: void, kernel: Kernel): Leaderboards;
	periods(this: void, boards: Leaderboards): LuaTuple<[Entry[], Entry[], Entry[], number, Period]>;
	updates(this: void, kernel: Kernel, boards: Leaderboards, render: (board: string, rows: Entry[]) => void): void;
	standing(this: void, boards: Leaderboards, player: Player): LuaTuple<[Standing, Standing[], Entry[], number]>;
	wipe(this: void, boards: Leaderboards, cheater: Player): void;
	memoryStore(this: void, kernel: Kernel): Leaderboards;
	backendPerBoard(this: void, kernel: Kernel): Leaderboards;
	drained(this: void, kernel: Kernel, report: (line: string) => void): void;
	bigAndBounded(this: void, kernel: Kernel, report: (line: string) => void): Leaderboards;
	display(this: void, value: number): LuaTuple<[string, string]>;
	erase(this: void, boards: Leaderboards, userId: number, reply: (line: string) => void): void;
	erasureState(this: void, boards: Leaderboards, userId: number): LuaTuple<[string | undefined, number | undefined]>;
	grant(this: void, profiles: DataStore, userId: string, grantId: string, gems: number): void;
	rewards(this: void, boards: Leaderboards, profiles: DataStore): void;
}

const WINDOW = 16; // the first flush window, FlushSeconds (15) after the first submit

describeGate("the calls the docs show", () => {
	afterEach(() => gate!.reset());
	const tour = () =>
		require(
			game
				.GetService("ServerScriptService")
				.WaitForChild("Leaderboards")
				.WaitForChild("examples")
				.WaitForChild("docs")
				.WaitForChild("Tour") as ModuleScript,
		) as Tour;

	it("boards, periods, updates, standing and moderation on the default backend", () => {
		gate!.reset();
		const kernel = new Kernel({ bindToClose: false });
		const boards = tour().boards(kernel);
		const rendered = new Array<string>();
		tour().updates(kernel, boards, (board, rows) => rendered.push(`${board} ${rows[0]?.DisplayName}`));
		kernel.start();
		gate!.users.register(7, "ada", "Ada");
		const ada = gate!.players.join({ UserId: 7, Name: "ada", DisplayName: "Ada" });
		for (const [board, first, second] of [
			["Kills", 5, 3],
			["BestTime", 52_000, 61_000],
			["Level", 9, 4],
			["Coins", 10, 5],
			["DailyKills", 1, 1],
		] as const) {
			boards.submit(board, ada, first);
			boards.submit(board, ada, second);
		}
		task.wait(WINDOW);
		const stored = (name: string) => gate!.dataStore.snapshot(`CKBoard_${name}`).get("7");
		// Keep-best either way, the newest, sums.
		expect([stored("Kills"), stored("BestTime"), stored("Level"), stored("Coins")]).toEqual([5, 52_000, 4, 15]);
		expect(stored("DailyKills@2026-12-06")).toBe(2);

		const [today, yesterday, day, seconds, period] = tour().periods(boards);
		expect(today.map((entry) => entry.Value)).toEqual([2]);
		expect([yesterday.size(), day.size()]).toEqual([0, 0]);
		expect(period.Id).toBe("2026-12-06");
		expect(seconds).toBe(period.Finish - os.time());
		task.wait(); // the Updated subscriber names the page on its own thread
		expect(rendered).toContain("DailyKills Ada");

		const [me, near, pals, unread] = tour().standing(boards, ada);
		expect(me).toEqual({ Key: "7", Value: 5, Rank: 1 });
		expect(near).toEqual([{ Key: "7", Value: 5, Rank: 1 }]);
		expect([pals, unread]).toEqual([[{ Key: "7", Value: 5, Rank: 1 }], 0]);

		tour().wipe(boards, ada);
		expect(boards.top("Kills")).toEqual([]); // hidden at once
		task.wait(WINDOW);
		expect([stored("Kills"), stored("BestTime"), stored("DailyKills@2026-12-06")]).toEqual([
			undefined,
			undefined,
			undefined,
		]);
		kernel.stop();
	});

	it("the MemoryStore backend with four shards", () => {
		gate!.reset();
		const kernel = new Kernel({ bindToClose: false });
		const boards = tour().memoryStore(kernel);
		kernel.start();
		boards.submit("Kills", "guild-a", 4);
		boards.submit("Kills", "guild-b", 9);
		task.wait(WINDOW);
		expect(boards.top("Kills").map((entry) => `${entry.Key}=${entry.Value}`)).toEqual(["guild-b=9", "guild-a=4"]);
		kernel.stop();
	});

	it("a backend per board: Kills on OrderedDataStores, the daily and weekly sums on one MemoryStore backend", () => {
		gate!.reset();
		const kernel = new Kernel({ bindToClose: false });
		const boards = tour().backendPerBoard(kernel);
		kernel.start();
		for (const board of ["Kills", "DailyKills", "WeeklyKills"]) {
			boards.submit(board, "7", 3);
			boards.submit(board, "7", 2);
		}
		task.wait(WINDOW);
		expect(gate!.dataStore.snapshot("CKBoard_Kills").get("7")).toBe(3);
		expect(boards.top("DailyKills")).toEqual([{ Key: "7", Value: 5, Rank: 1 }]);
		expect(boards.top("WeeklyKills")).toEqual([{ Key: "7", Value: 5, Rank: 1 }]);
		expect(gate!.dataStore.snapshot("CKBoard_DailyKills@2026-12-06").isEmpty()).toBe(true);
		kernel.stop();
		expect(boards.Stats.Written).toBe(3);
	});

	it("the drain's result reaches the game when it is incomplete", () => {
		gate!.reset();
		const kernel = new Kernel({ bindToClose: false });
		const boards = tour().boards(kernel);
		const reported = new Array<string>();
		tour().drained(kernel, (line) => reported.push(line));
		kernel.start();
		gate!.dataStore.fault({ method: "UpdateAsync", rate: 1 }); // every write fails: the drain makes no progress
		boards.submit("Kills", "guild-a", 4);
		kernel.stop();
		task.wait();
		expect(reported).toEqual(["board drain incomplete: leaderboard shutdown flush made no progress (1 left)"]);
		const [, drain] = boards.destroy();
		expect((drain as ShutdownResult).Complete).toBe(false);
	});

	it("big numbers, the earliest of a tie first, bounds and their trail, a value for display", () => {
		gate!.reset();
		const kernel = new Kernel({ bindToClose: false });
		const reported = new Array<string>();
		const boards = tour().bigAndBounded(kernel, (line) => reported.push(line));
		kernel.start();
		boards.submit("Coins", "7", 1.23e45);
		boards.submit("FirstTo1000", "9", 1000);
		task.wait(20); // "9" is written in the first window, "8" in a later one
		boards.submit("FirstTo1000", "8", 1000);
		expect(boards.submit("Kills", "7", 2 ** 50)).toBe(false);
		expect(boards.submit("Gems", "7", 3)).toBe(false);
		expect(boards.submit("Gems", "7", 5000)).toBe(true);
		expect(boards.submit("Gems", "7", 5)).toBe(false);
		task.wait(WINDOW);
		expect(reported).toEqual([
			"Kills: refused 1125899906842624 for 7 (above MaxValue)",
			"Gems: refused 3 for 7 (gems come in fives)",
			"Gems: refused 5 for 7 (over MaxAddedPerMinute)",
		]);
		const coins = boards.top("Coins")[0].Value;
		expect(math.abs(coins - 1.23e45) <= 1.23e45 * 2 ** -42).toBe(true);
		// Stored first, ranked first, though "8" sorts before "9".
		expect(boards.top("FirstTo1000").map((entry) => entry.Key)).toEqual(["9", "8"]);
		expect(boards.Stats.Refused).toBe(3);
		expect([...tour().display(coins)]).toEqual(["1.23 QaDe", "1.23e45"]);
		kernel.stop();
	});

	it("an erasure from an admin command, and where it stands", () => {
		gate!.reset();
		const kernel = new Kernel({ bindToClose: false });
		const boards = tour().boards(kernel);
		kernel.start();
		boards.submit("Kills", 7, 5);
		boards.submit("DailyKills", 7, 1);
		task.wait(WINDOW);
		const replies = new Array<string>();
		tour().erase(boards, 7, (line) => replies.push(line));
		// The four all-time boards' stores, and the one daily period written.
		expect(replies).toEqual(["erasing 7 from 5 stores"]);
		expect([...tour().erasureState(boards, 7)]).toEqual(["pending", 5]);
		task.wait(150);
		expect([...tour().erasureState(boards, 7)]).toEqual(["done", 0]);
		expect(gate!.dataStore.snapshot("CKBoard_Kills").has("7")).toBe(false);
		expect(gate!.dataStore.snapshot("CKBoard_DailyKills@2026-12-06").has("7")).toBe(false);
		kernel.stop();
	}, 300_000);

	it("period rewards granted once through the player's profile", () => {
		gate!.reset();
		gate!.calendar.set(1_796_601_600 - 30); // 30 s before 2026-12-07 00:00 UTC
		const kernel = new Kernel({ bindToClose: false });
		const boards = tour().boards(kernel);
		const profiles = DataStoreService.GetDataStore("Profiles");
		tour().rewards(boards, profiles);
		kernel.start();
		for (const [key, kills] of [
			["1", 9],
			["2", 7],
			["3", 5],
			["4", 1],
		] as const)
			boards.submit("DailyKills", key, kills);
		task.wait(30 + 40 + 10); // the roll, the settle delay, the jitter
		const gems = (key: string) =>
			(profiles.GetAsync<{ Gems: number }>(key)[0] as { Gems: number } | undefined)?.Gems;
		expect([gems("1"), gems("2"), gems("3"), gems("4")]).toEqual([500, 250, 100, undefined]);
		// The handler run again (its server died before the period was marked done): nothing twice.
		tour().grant(profiles, "1", "CKBoard_DailyKills@2026-12-06", 500);
		expect(gems("1")).toBe(500);
		kernel.stop();
	}, 300_000);
});
