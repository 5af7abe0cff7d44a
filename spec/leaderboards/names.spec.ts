import { describe, expect, it } from "@rbxts/jest-globals";
import { Entry, PlayerLookup, UserLookup } from "../../plugins/leaderboards";
import { captureLogs, manualClock } from "../kernel/doubles";
import { boardsWith } from "./doubles";

/** A UserService double: users 1..n exist, calls are counted, it can fail. */
function users(existing: number) {
	const double = {
		calls: new Array<number[]>(),
		results: 0,
		fail: false,
		GetUserInfosByUserIdsAsync(ids: number[]) {
			double.calls.push([...ids]);
			if (double.fail) error("HTTP 500");
			const infos = ids
				.filter((id) => id <= existing)
				.map((id) => ({ Id: id, Username: `user${id}`, DisplayName: `User ${id}` }));
			double.results += infos.size();
			return infos;
		},
	};
	return double as typeof double & UserLookup;
}

const nobodyHere: PlayerLookup = {
	GetPlayerByUserId() {
		return undefined;
	},
};

function entries(...keys: (string | number)[]): Entry[] {
	return keys.map((key, i) => ({ Key: tostring(key), Value: 1, Rank: i + 1 }));
}

function setup(existing = 10_000, players: PlayerLookup = nobodyHere) {
	const time = manualClock();
	const userService = users(existing);
	const { boards } = boardsWith({ UserService: userService, Players: players, Clock: time.clock });
	return { boards, userService, time };
}

describe("names()", () => {
	it("adds DisplayName and Username to entries keyed by UserId and returns the same table", () => {
		const { boards } = setup();
		const rows = entries(1, 2);
		const named = boards.names(rows);
		expect(named).toBe(rows);
		expect(rows[0]).toEqual({ Key: "1", Value: 1, Rank: 1, DisplayName: "User 1", Username: "user1" });
		expect(rows[1].DisplayName).toBe("User 2");
	});

	it("players in this server resolve locally, with no call", () => {
		const here = { Name: "ada", DisplayName: "Ada" } as unknown as Player;
		const { boards, userService } = setup(10, {
			GetPlayerByUserId(id) {
				return id === 7 ? here : undefined;
			},
		});
		const rows = boards.names(entries(7));
		expect(rows[0].DisplayName).toBe("Ada");
		expect(rows[0].Username).toBe("ada");
		expect(userService.calls.size()).toBe(0);
	});

	it("the rest share one UserService call, and results are cached", () => {
		const { boards, userService } = setup();
		boards.names(entries(1, 2, 3, 2));
		boards.names(entries(1, 2, 3));
		expect(userService.calls).toEqual([[1, 2, 3]]);
	});

	it("keeps within 250 results a minute across calls; ids past the budget stay unnamed until later", () => {
		const { boards, userService, time } = setup();
		const first = new Array<number>();
		for (let id = 1; id <= 200; id++) first.push(id);
		boards.names(entries(...first));
		const second = new Array<number>();
		for (let id = 201; id <= 300; id++) second.push(id);
		const rows = boards.names(entries(...second));
		expect(userService.calls[1].size()).toBe(50);
		expect(rows[49].DisplayName).toBe("User 250");
		expect(rows[50].DisplayName).toBeUndefined();
		boards.names(entries(...second));
		expect(userService.calls.size()).toBe(2);
		time.advance(60);
		const later = boards.names(entries(...second));
		expect(later[99].DisplayName).toBe("User 300");
		expect(userService.results).toBe(300);
	});

	it("remembers ids with no account and never asks for them again", () => {
		const { boards, userService } = setup(5);
		boards.names(entries(4, 999));
		boards.names(entries(4, 999));
		expect(userService.calls).toEqual([[4, 999]]);
	});

	it("starts the cache over past 1,000 users", () => {
		const { boards, userService, time } = setup();
		for (let start = 1; start <= 1001; start += 200) {
			const ids = new Array<number>();
			for (let id = start; id < start + 200 && id <= 1001; id++) ids.push(id);
			boards.names(entries(...ids));
			time.advance(60);
		}
		const before = userService.calls.size();
		boards.names(entries(1001));
		expect(userService.calls.size()).toBe(before);
		boards.names(entries(1));
		expect(userService.calls.size()).toBe(before + 1);
	});

	it("a failed call warns and leaves the entries unnamed", () => {
		const logs = captureLogs();
		const { boards, userService } = setup();
		userService.fail = true;
		const rows = boards.names(entries(1));
		logs.restore();
		expect(rows[0].DisplayName).toBeUndefined();
		expect(logs.messages("warn")[0]).toMatch("UserService lookup failed");
	});

	it("keys that are not UserIds are left alone and cost nothing", () => {
		const { boards, userService } = setup();
		const rows = boards.names(entries("Guild of Foxes", "npc-7", "007", "-3", "1.5"));
		expect(userService.calls.size()).toBe(0);
		expect(rows[0].DisplayName).toBeUndefined();
	});
});

describe("names() under concurrency", () => {
	it("concurrent calls for the same ids share one UserService call", () => {
		const userService = users(100);
		const slow = {
			GetUserInfosByUserIdsAsync(ids: number[]) {
				task.wait(1);
				return userService.GetUserInfosByUserIdsAsync(ids);
			},
		};
		const { boards } = boardsWith({ UserService: slow, Players: nobodyHere });
		const named = new Array<string>();
		for (let i = 0; i < 30; i++)
			task.spawn(() => named.push(boards.names(entries(1, 2, 3))[2].DisplayName ?? "unnamed"));
		task.wait(2);
		expect(userService.calls).toEqual([[1, 2, 3]]);
		expect(named.size()).toBe(30);
		expect(named.every((name) => name === "User 3")).toBe(true);
	});
});
