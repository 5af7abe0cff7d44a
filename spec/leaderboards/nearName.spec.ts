import { describe, expect, it } from "@rbxts/jest-globals";
import { nearName } from "../../plugins/leaderboards/core/nearName";

// The board an unknown board's warning guesses: one edit away, or a case difference.
describe("nearName", () => {
	const BOARDS = ["BestTime", "DailyKills", "Kills", "X"];
	const CASES: [word: string, near: string | undefined][] = [
		["Kils", "Kills"], // a letter left out
		["Killls", "Kills"], // a letter doubled
		["Kilks", "Kills"], // a letter wrong
		["Klils", "Kills"], // two neighbours swapped
		["DialyKills", "DailyKills"],
		["kills", "Kills"], // case alone
		["BESTTIME", "BestTime"],
		["kils", "Kills"], // case and one edit
		["x", "X"], // case alone, however short
		["Kils2", undefined], // two edits
		["Klisl", undefined], // two swaps
		["Y", undefined], // one edit of one letter: nothing left of it
		["Nope", undefined],
		["", undefined],
	];
	for (const [word, near] of CASES)
		it(`"${word}" -> ${near ?? "none"}`, () => {
			expect(nearName(word, BOARDS)).toBe(near);
		});

	it("prefers a case difference to an edit, then the first name listed", () => {
		expect(nearName("ab", ["Ac", "AB"])).toBe("AB");
		expect(nearName("ab", ["ac", "ad"])).toBe("ac");
	});
});
