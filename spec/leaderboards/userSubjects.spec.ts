import { afterEach, describe, expect, it } from "@rbxts/jest-globals";
import { Kernel } from "../../kernel";
import { attach } from "../../plugins/leaderboards";
import { headlessGate } from "../gate/control";
import { captureLogs } from "../kernel/doubles";

// Datatype.User subjects (players/users.md, 2026-06: player.User is "the standard identifier for
// referencing users in game code"; "for data store keys within a single game, use user.Id"): a User
// of this game is the key its Player gets, in every call that takes a subject; an OAuth app's User
// names nobody here and is refused, naming the call.
const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

const boardsOn = () =>
	attach(new Kernel({ bindToClose: false }), { Boards: { Kills: { MaxEntries: 10 } }, SkipLoop: true });

describeGate("a User subject", () => {
	afterEach(() => gate!.reset());

	it("player.User and the Player give the same key in submit, scores, rank, around, friends, names", () => {
		gate!.reset();
		gate!.friends.befriend(77, 5);
		gate!.users.register(5, "five");
		const player = gate!.players.join({ UserId: 77, Name: "seven" });
		const boards = boardsOn();
		expect(boards.submit("Kills", player.User, 30)).toBe(true);
		expect(boards.submit("Kills", 5, 20)).toBe(true);
		boards.flushNow();
		expect(gate!.dataStore.snapshot("CKBoard_Kills")).toEqual(
			new Map([
				["77", 30],
				["5", 20],
			]),
		);
		expect(boards.scores("Kills", [player.User])).toEqual(boards.scores("Kills", [player]));
		expect(boards.scores("Kills", [player.User])).toEqual(new Map([["77", 30]]));
		expect(boards.rank("Kills", player.User)).toEqual(boards.rank("Kills", player));
		expect(boards.rank("Kills", player.User)).toEqual({ Key: "77", Value: 30, Rank: 1 });
		expect(boards.around("Kills", player.User, 1)).toEqual(boards.around("Kills", player, 1));
		expect(boards.friends("Kills", player.User)[0]).toEqual(boards.friends("Kills", player)[0]);
		const [rows] = boards.friends("Kills", User.fromId(77));
		expect(boards.names(rows!)).toEqual([
			{ Key: "77", Value: 30, Rank: 1, Username: "seven", DisplayName: "seven" },
			{ Key: "5", Value: 20, Rank: 2, Username: "five", DisplayName: "five" },
		]);
		boards.destroy();
	});

	it("remove and erase by player.User reach the key the Player's submits wrote", () => {
		gate!.reset();
		const player = gate!.players.join({ UserId: 77 });
		const boards = boardsOn();
		boards.submit("Kills", player, 30);
		boards.submit("Kills", "npc", 10);
		boards.flushNow();
		expect(boards.remove("Kills", player.User)).toBe(true);
		expect(boards.top("Kills").map((row) => row.Key)).toEqual(["npc"]);
		boards.flushNow();
		expect(gate!.dataStore.snapshot("CKBoard_Kills")).toEqual(new Map([["npc", 10]]));
		const report = boards.erase(player.User);
		expect(report.Key).toBe("77");
		expect(boards.erasure(player)?.Key).toBe("77");
		expect(boards.submit("Kills", player, 40)).toBe(false);
		boards.destroy();
	});

	it("another domain's User (an OAuth app's) is refused: each call names itself and the subject", () => {
		gate!.reset();
		const app = gate!.users.make(77, "OAUTH", 9001);
		const boards = boardsOn();
		const logs = captureLogs();
		expect(boards.submit("Kills", app, 30)).toBe(false);
		expect(boards.scores("Kills", [app])).toEqual(new Map());
		expect(boards.remove("Kills", app)).toBe(false);
		logs.restore();
		const why = "a User of another domain (OAUTH), not this game's";
		expect(logs.messages("warn")).toEqual([
			`[Leaderboards] Kills: submit refused, the subject is ${why} (submit a Player, this game's User, a session with a Player, a string, a whole number or a value with __tostring); this warning shows once per board`,
			`[Leaderboards] Kills: scores() skipped a subject, the subject is ${why}; this warning shows once per board`,
			`[Leaderboards] Kills: remove() refused, the subject is ${why}; this warning shows once per board`,
		]);
		for (const [call, run] of [
			["rank", () => boards.rank("Kills", app)],
			["around", () => boards.around("Kills", app, 1)],
			["erase", () => boards.erase(app)],
		] as const)
			expect(run).toThrow(`Leaderboards: ${call}() subject is ${why}: pass a Player, this game's User,`);
		expect(() => boards.friends("Kills", app)).toThrow(`friends() player must be a Player, this game's User,`);
		expect(() => boards.friends("Kills", app)).toThrow(`(got ${why})`);
		expect(gate!.dataStore.calls()).toBe(0);
		boards.destroy();
	});
});
