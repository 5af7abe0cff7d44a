import { describe, expect, it } from "@rbxts/jest-globals";
import { UserLookup } from "../../plugins/leaderboards";
import { captureLogs, manualClock } from "../kernel/doubles";
import { nameCases, nobodyHere, rowsOf as entries } from "./cases/names";
import { boardsWith } from "./doubles";

/** A UserService double: users 1..n exist (user<id>, "User <id>") and those it is told of; calls are counted, it can fail. */
function users(existing: number) {
	const told = new Map<number, { Username: string; DisplayName: string }>();
	const double = {
		calls: new Array<number[]>(),
		results: 0,
		fail: false,
		tell(id: number, username: string, displayName: string) {
			told.set(id, { Username: username, DisplayName: displayName });
		},
		GetUserInfosByUserIdsAsync(ids: number[]) {
			double.calls.push([...ids]);
			if (double.fail) error("HTTP 500");
			const infos = new Array<{ Id: number; Username: string; DisplayName: string }>();
			for (const id of ids) {
				const user = told.get(id);
				if (user) infos.push({ Id: id, ...user });
				else if (id <= existing) infos.push({ Id: id, Username: `user${id}`, DisplayName: `User ${id}` });
			}
			double.results += infos.size();
			return infos;
		},
	};
	return double as typeof double & UserLookup;
}

function setup(existing = 10_000, players = nobodyHere) {
	const time = manualClock();
	const userService = users(existing);
	const { boards } = boardsWith({ UserService: userService, Players: players, Clock: time.clock });
	return { boards, userService, time };
}

describe("names(), as every NameResolver owes it (cases/names.ts)", () =>
	nameCases(() => {
		const userService = users(0);
		return {
			attach: (options) => boardsWith({ UserService: userService, Players: nobodyHere, ...options }).boards,
			know: (id, username, displayName) => userService.tell(id, username, displayName),
			lookups: () => userService.calls.size(),
			fail: (failing) => (userService.fail = failing),
		};
	}));

describe("names()", () => {
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
