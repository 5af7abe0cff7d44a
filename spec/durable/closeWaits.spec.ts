import { afterEach, describe, expect, it } from "@rbxts/jest-globals";
import { headlessGate } from "../gate/control";
import { leanBoards } from "../gate/servers";
import { boardsAt, closeServers, dayOf, waitFor } from "./servers";

// One cancellation idiom (issue 42): every wait of the Eraser, Rewards and Pages is a kernel Promise on its
// stage's timers, which destroy() cancels. destroy() in the middle of one ends it at once: the work is handed
// back, nothing is read, removed or written after the close, and no deadline is left waiting.
const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

const DAY = 86400;
const NOW = 1_796_515_200; // 2026-12-06 00:00 UTC
const MINUTES = 60_000;

// Every request of the ordered stores, the manifest's store and MemoryStore so far.
const requests = () => gate!.dataStore.calls() + gate!.dataStore.standard.calls() + gate!.memoryStore.calls();

describeGate("destroy() in the middle of a stage's wait", () => {
	afterEach(() => {
		closeServers();
		gate!.reset();
	});

	it(
		"an erasure waiting for its sweep hands its work back at once, and nothing runs after",
		() => {
			gate!.calendar.set(NOW + 3600);
			gate!.dataStore.seed(
				"CKBoard_Kills",
				new Map([
					["42", 10],
					["7", 5],
				]),
			);
			const { boards, kernel } = boardsAt(undefined, { Kills: {} });
			boards.erase("42");
			// Removed within seconds; the sweep waits a poll and a write's landing (over a minute) after the request.
			task.wait(10);
			expect(gate!.dataStore.snapshot("CKBoard_Kills").has("42")).toBe(false);
			const held = gate!.dataStore.standard.snapshot("CKBoard_Manifest").get("erasure:42") as { Holder?: string };
			expect(held.Holder).toBeDefined();

			const started = gate!.now();
			expect(boards.destroy()[0]).toBe(true);
			// The wait ended with the close (the hand-back is one write), not at the sweep's time.
			expect(gate!.now() - started).toBeLessThan(1);
			const record = boards.erasure("42")!;
			expect(record.State).toBe("pending");
			expect(record.Removed).toEqual(["CKBoard_Kills"]);
			const stored = gate!.dataStore.standard.snapshot("CKBoard_Manifest").get("erasure:42") as {
				Holder?: string;
			};
			expect(stored.Holder).toBeUndefined();
			const after = requests();
			task.wait(600);
			expect(requests()).toBe(after);
			expect(kernel.Scheduler.pending()).toBe(0);
		},
		15 * MINUTES,
	);

	it(
		"a period's check waiting for the period to settle never runs after destroy()",
		() => {
			gate!.calendar.set(NOW + DAY - 30);
			const { boards, kernel } = boardsAt(undefined, { Daily: { Reset: "Daily" } });
			let handled = 0;
			boards.onPeriodEnd("Daily", () => handled++, { SettleSeconds: 10 });
			boards.submit("Daily", "7", 3);
			boards.flushNow();
			task.wait(5);
			expect(boards.destroy()[0]).toBe(true);
			const after = requests();
			// Past the period's end and its settle delay: no check read the manifest, no handler ran.
			task.wait(120);
			expect(handled).toBe(0);
			expect(requests()).toBe(after);
			expect(gate!.dataStore.standard.snapshot("CKBoard_Manifest").has(`rewards:Daily@${dayOf(NOW)}`)).toBe(
				false,
			);
			expect(kernel.Scheduler.pending()).toBe(0);
		},
		5 * MINUTES,
	);

	it("a cold server waiting for another server's refresh stops asking for the page at destroy()", () => {
		gate!.dataStore.seed("CKBoard_Kills", new Map([["a", 5]]));
		const [holder, cold] = [1, 2].map((index) => leanBoards(gate!, index, 1, { Boards: { Kills: {} } }));
		// The holder's read hangs: it keeps the page's lease, and the cold server polls the page item.
		gate!.dataStore.fault({ method: "GetSortedAsync", hangNext: 1 });
		task.spawn(() => holder.boards.top("Kills"));
		task.wait(1);
		let answered: number | undefined;
		task.spawn(() => (answered = cold.boards.top("Kills").size()));
		task.wait(2);
		const asked = gate!.memoryStore.calls("GetAsync");
		cold.boards.destroy();
		// The waiting reader goes with the page it has (none); the poll ends with it.
		expect(waitFor(() => answered !== undefined, 1, 0.1)).toBe(true);
		expect(answered).toBe(0);
		task.wait(10);
		expect(gate!.memoryStore.calls("GetAsync")).toBe(asked);
		expect(cold.kernel.Scheduler.pending()).toBe(0);
		holder.kernel.stop();
		cold.kernel.stop();
	});
});
