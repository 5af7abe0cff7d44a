import { describe, expect, it } from "@rbxts/jest-globals";
import { Kernel } from "../../kernel";
import { attach } from "../../plugins/leaderboards";
import { headlessGate } from "../gate/control";

const gate = headlessGate();
const maybe = gate ? describe : describe.skip;

maybe("closing the kernel drains the boards", () => {
	// The stage services stop at once, after the boards' own stop (they start later, by Name):
	// the kernel must still wait for the drain, or the server closes with the scores unwritten.
	it("kernel.stop() before the first window writes the queued score and reports complete", () => {
		gate!.reset();
		const kernel = new Kernel({ bindToClose: false });
		const boards = attach(kernel, { Boards: { Kills: {} } });
		kernel.start();
		expect(boards.submit("Kills", "7", 12)).toBe(true);
		const result = kernel.stop();
		expect(result.complete).toBe(true);
		expect(result.unfinished).toEqual([]);
		expect(gate!.dataStore.snapshot("CKBoard_Kills").get("7")).toBe(12);
	});
});
