import { describe, expect, it } from "@rbxts/jest-globals";
import { HttpService } from "@rbxts/services";
import { CONTRACT } from "../../plugins/leaderboards/contracts/outside";
import { headlessGate } from "../gate/control";

// The library and the moderation tool read one contract (issue 42, item 7): the data file the tool reads
// (plugins/leaderboards/contracts/outside/contract.json) holds exactly what the library's compiled CONTRACT does.

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

describeGate("the contract with tools outside the game", () => {
	it("the tool's data file and the library's CONTRACT hold the same names, figures and calendar", () => {
		const file = HttpService.JSONDecode(
			gate!.readFile("plugins/leaderboards/contracts/outside/contract.json")!,
		) as Record<string, unknown>;
		file["$comment"] = undefined;
		file.Records = undefined;
		expect(file).toEqual(CONTRACT);
	});
});
