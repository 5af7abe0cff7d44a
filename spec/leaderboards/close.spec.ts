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

maybe("destroy() cancels every timer", () => {
	// One cancellation idiom (kernel/Timers.ts, sleep()): nothing a stage armed outlives the close, so the
	// Scheduler has no deadline left (and so no engine timer armed to wake it).
	it("no deadline is left on the kernel's Scheduler after destroy()", () => {
		gate!.reset();
		const kernel = new Kernel({ bindToClose: false });
		const boards = attach(kernel, {
			Boards: { Kills: { RefreshSeconds: 30 }, Daily: { Reset: "Daily" } },
		});
		boards.onPeriodEnd("Daily", () => {});
		kernel.start();
		boards.submit("Kills", "7", 12);
		boards.submit("Daily", "7", 3);
		boards.top("Kills");
		boards.erase("9");
		task.wait(5);
		expect(kernel.Scheduler.pending()).toBeGreaterThan(0);
		expect(boards.destroy()[0]).toBe(true);
		task.wait(1);
		expect(kernel.Scheduler.pending()).toBe(0);
	});
});
