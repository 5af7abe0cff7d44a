import { describe, expect, it } from "@rbxts/jest-globals";
import { SentRow } from "../../plugins/leaderboards/contracts";
import { messageParts, pageAfter } from "../../plugins/leaderboards/client/wire";
import { deltaOf, pageMessage } from "../../plugins/leaderboards/stages/Replicator/wire";

// The Replicator's messages read back as the client reads them (contracts/replication.ts): whatever
// the pages, a client that applies each delta holds the server's rows, ranks, names and values exact.

const ranked = (rows: SentRow[]) => rows.map((row, index) => ({ ...row, Rank: index + 1 }));

describe("Replicator messages", () => {
	it("keys, names and boards with the separators in them, and numbers, come back exact", () => {
		const rows = ranked([
			{ Rank: 0, Key: "a|b,c~d%e", Value: 0.1 + 0.2, DisplayName: "100% | yes, ~", Username: "u,1" },
			{ Rank: 0, Key: "2", Value: -1e300 },
			{ Rank: 0, Key: "3", Value: 12, DisplayName: "Three" },
		]);
		const boards = new Map<string, string>();
		const heard = messageParts(pageMessage("1", "Kills|Daily,~%", rows), boards)!;
		expect(heard.board).toBe("Kills|Daily,~%");
		expect(pageAfter([], heard.parts)).toEqual(rows);
	});

	it("a client applying 300 random deltas holds each new page", () => {
		const random = new Random(46);
		let before = new Array<SentRow>();
		let held = new Array<SentRow>();
		for (let step = 0; step < 300; step++) {
			const after = new Array<SentRow>();
			const keys = new Set<string>();
			for (let i = 0; i < random.NextInteger(0, 10); i++) {
				const key = tostring(random.NextInteger(1, 15));
				if (keys.has(key)) continue;
				keys.add(key);
				const named = random.NextInteger(0, 3) > 0;
				after.push({
					Rank: 0,
					Key: key,
					Value: random.NextInteger(1, 4),
					DisplayName: named ? `P ${key}` : undefined,
				});
			}
			held = pageAfter(held, deltaOf(before, ranked(after)));
			before = ranked(after);
			expect(held).toEqual(before);
		}
	});
});
