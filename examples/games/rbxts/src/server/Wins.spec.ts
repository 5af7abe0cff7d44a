// The Wins service's specs, on the headless gate: `npx leaderboards-gate test` in this folder.
import { afterEach, describe, expect, it } from "@rbxts/jest-globals";
import { Kernel } from "@rbxts/leaderboards";
import { headlessGate } from "@rbxts/leaderboards-gate";
import { Wins } from "./Wins";

const gate = headlessGate(); // undefined in Studio, where these specs skip
const describeGate = gate ? describe : describe.skip;

function startWins() {
	const kernel = new Kernel();
	const wins = new Wins();
	kernel.add(wins);
	kernel.start();
	return wins;
}

describeGate("Wins", () => {
	afterEach(() => gate!.reset()); // a fresh server, stores and clock for each spec

	it("stores a round's wins when the server closes before its flush window", () => {
		const wins = startWins();
		const ada = gate!.players.join({ UserId: 101, Name: "ada" });
		const grace = gate!.players.join({ UserId: 102, Name: "grace" });
		wins.roundWon([ada, grace]);
		task.wait(5); // virtual seconds: no wall time
		wins.roundWon([ada]);
		const [drained] = gate!.closeServer(); // BindToClose: the boards drain
		expect(drained).toBe(true);
		const stored = gate!.dataStore.snapshot("CKBoard_Wins");
		expect(stored.get("101")).toBe(2);
		expect(stored.get("102")).toBe(1);
	});

	it("writes again after a failed write, within the next windows", () => {
		const wins = startWins();
		gate!.dataStore.fault({ failNext: 2 }); // the store fails the first two requests
		wins.roundWon([gate!.players.join({ UserId: 101, Name: "ada" })]);
		task.wait(60); // the next windows, on the virtual clock
		expect(gate!.dataStore.snapshot("CKBoard_Wins").get("101")).toBe(1);
	});

	it("ranks the lobby board with the players' names", () => {
		gate!.dataStore.seed(
			"CKBoard_Wins",
			new Map([
				["101", 7],
				["102", 9],
			]),
		);
		gate!.users.register(101, "ada", "Ada");
		gate!.users.register(102, "grace", "Grace");
		const rows = startWins().top(2);
		expect(rows.map((row) => `${row.Rank} ${row.DisplayName} ${row.Value}`)).toEqual(["1 Grace 9", "2 Ada 7"]);
	});
});
