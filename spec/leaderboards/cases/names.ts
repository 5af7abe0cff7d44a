import { expect, it } from "@rbxts/jest-globals";
import { Entry, LeaderboardOptions, Leaderboards, PlayerLookup } from "../../../plugins/leaderboards";

// What every NameResolver owes names(), the default's and a game's own alike: names.spec.ts runs these on
// the default, spec/packaging/stages.spec.ts on the example (examples/stages) as the built packages run it.

/** A NameResolver under test and the source it names users from: a fresh one for each case. */
export interface NamesSubject {
	/** Boards with the NameResolver under test in place, with these options (Players: nobody unless given). */
	readonly attach: (options?: Partial<LeaderboardOptions>) => Leaderboards;
	/** The source learns a user who is not in this server. */
	readonly know: (id: number, username: string, displayName: string) => void;
	/** Lookups of that source so far. */
	readonly lookups: () => number;
	/** While true, every lookup of that source fails. */
	readonly fail: (failing: boolean) => void;
}

/** A server with nobody in it. */
export const nobodyHere: PlayerLookup = {
	GetPlayerByUserId() {
		return undefined;
	},
};

export function rowsOf(...keys: (string | number)[]): Entry[] {
	return keys.map((key, i) => ({ Key: tostring(key), Value: 1, Rank: i + 1 }));
}

export function nameCases(subjectOf: () => NamesSubject) {
	// A subject knowing users 1..count as user<id>, "User <id>".
	const knowing = (count: number) => {
		const subject = subjectOf();
		for (let id = 1; id <= count; id++) subject.know(id, `user${id}`, `User ${id}`);
		return subject;
	};

	it("names() adds DisplayName and Username to entries keyed by UserId and returns the same table", () => {
		const boards = knowing(2).attach();
		const rows = rowsOf(1, 2);
		expect(boards.names(rows)).toBe(rows);
		expect(rows[0]).toEqual({ Key: "1", Value: 1, Rank: 1, DisplayName: "User 1", Username: "user1" });
		expect(rows[1].DisplayName).toBe("User 2");
	});

	it("players in this server are named first, from their Player, with no lookup", () => {
		const subject = subjectOf();
		subject.know(7, "old-ada", "Old Ada");
		const here = { Name: "ada", DisplayName: "Ada" } as unknown as Player;
		const boards = subject.attach({
			Players: {
				GetPlayerByUserId(id) {
					return id === 7 ? here : undefined;
				},
			},
		});
		const rows = boards.names(rowsOf(7));
		expect([rows[0].DisplayName, rows[0].Username]).toEqual(["Ada", "ada"]);
		expect(subject.lookups()).toBe(0);
	});

	it("names looked up are remembered: naming the same rows again looks nobody up", () => {
		const subject = knowing(3);
		const boards = subject.attach();
		boards.names(rowsOf(1, 2, 3));
		const looked = subject.lookups();
		expect(looked).toBeGreaterThan(0);
		expect(boards.names(rowsOf(3, 2, 1))[0].DisplayName).toBe("User 3");
		expect(subject.lookups()).toBe(looked);
	});

	it("an id its source does not know stays unnamed and is never looked up again", () => {
		const subject = knowing(5);
		const boards = subject.attach();
		expect(boards.names(rowsOf(4, 999))[1].DisplayName).toBeUndefined();
		const looked = subject.lookups();
		boards.names(rowsOf(4, 999));
		expect(subject.lookups()).toBe(looked);
	});

	it("keys that are not UserIds are left alone and cost nothing", () => {
		const subject = knowing(10);
		const rows = subject.attach().names(rowsOf("Guild of Foxes", "npc-7", "007", "-3", "1.5"));
		expect(subject.lookups()).toBe(0);
		expect(rows.filter((row) => row.DisplayName !== undefined).size()).toBe(0);
	});

	it("a failed lookup leaves the entries unnamed, and a later call looks them up again", () => {
		const subject = knowing(1);
		const boards = subject.attach();
		subject.fail(true);
		expect(boards.names(rowsOf(1))[0].DisplayName).toBeUndefined();
		subject.fail(false);
		expect(boards.names(rowsOf(1))[0].DisplayName).toBe("User 1");
	});
}
