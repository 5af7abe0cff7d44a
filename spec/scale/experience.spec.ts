import { afterEach, beforeEach, describe, it } from "@rbxts/jest-globals";
import { headlessGate } from "../gate/control";
import { expectOpenCloudNeighbour, expectShareHolds } from "../leaderboards/experienceCases";

// Issue 26's cases at the sizes npm test cannot afford (npm run scale; a few minutes on 2 cores).

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

describeGate("each server spends its share of the experience's budgets, at scale", () => {
	beforeEach(() => gate!.reset());
	afterEach(() => gate!.reset());

	for (const [servers, players] of [
		[10, 30],
		[100, 1],
		[100, 30],
	])
		it(`${servers} servers of ${players} player(s) under a write backlog: 0 throttled`, () =>
			expectShareHolds(gate!, servers, players));

	it("an Open Cloud tool spending half the budget: the servers back off and lose nothing", () =>
		expectOpenCloudNeighbour(gate!));
});
