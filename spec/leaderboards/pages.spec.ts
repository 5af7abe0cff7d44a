import { afterEach, beforeEach, describe, expect, it } from "@rbxts/jest-globals";
import { Kernel } from "../../kernel";
import { attach, memoryStoreBackend } from "../../plugins/leaderboards";
import { headlessGate } from "../gate/control";
import { leanBoards } from "../gate/servers";

// Shared pages (stages/Pages, issue 47): a server with no page of its own waits for the refresh another
// server holds, as top() waits on a read (the design document: "so top yields in that case"), within
// RequestSeconds; and a page item names its store, so two stores with a board of one name never share it.

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

describeGate("shared pages", () => {
	beforeEach(() => gate!.reset());
	afterEach(() => gate!.reset());

	const seeded = () =>
		gate!.dataStore.seed(
			"CKBoard_Kills",
			new Map([
				["a", 5],
				["b", 3],
			]),
		);
	const serversOf = (count: number) => {
		const running = new Array<ReturnType<typeof leanBoards>>();
		for (let i = 1; i <= count; i++) running.push(leanBoards(gate!, i, 1, { Boards: { Kills: {} } }));
		return running;
	};

	it("ten cold servers asking at once: one store read, and every one of them gets the page", () => {
		seeded();
		const running = serversOf(10);
		const pages = new Array<number>();
		for (const { boards } of running) task.spawn(() => pages.push(boards.top("Kills").size()));
		while (pages.size() < running.size()) task.wait();
		expect(pages).toEqual([2, 2, 2, 2, 2, 2, 2, 2, 2, 2]);
		expect(gate!.dataStore.calls("GetSortedAsync")).toBe(1);
		for (const { kernel } of running) kernel.stop();
	});

	it("a cold server waits for a refresh that hangs at most RequestSeconds, then returns {}", () => {
		seeded();
		const [holder, cold] = serversOf(2);
		gate!.dataStore.fault({ method: "GetSortedAsync", hangNext: 1 });
		task.spawn(() => holder.boards.top("Kills"));
		task.wait(1);
		const started = gate!.now();
		expect(cold.boards.top("Kills")).toEqual([]);
		const waited = gate!.now() - started;
		expect(waited).toBeGreaterThan(5);
		expect(waited).toBeLessThanOrEqual(10); // RequestSeconds, the default
		expect(gate!.dataStore.calls("GetSortedAsync")).toBe(1);
		holder.kernel.stop();
		cold.kernel.stop();
	});

	it("a board of one name on two stores keeps a page per store", () => {
		seeded();
		const ordered = attach(new Kernel({ bindToClose: false }), { Boards: { Kills: {} }, SkipLoop: true });
		const memory = attach(new Kernel({ bindToClose: false }), {
			Boards: { Kills: {} },
			Backend: memoryStoreBackend({ MapPrefix: "Event_" }),
			SkipLoop: true,
		});
		memory.submit("Kills", "z", 7);
		memory.flushNow();
		expect(ordered.top("Kills").map((entry) => entry.Key)).toEqual(["a", "b"]);
		expect(memory.top("Kills").map((entry) => entry.Key)).toEqual(["z"]);
		expect(ordered.top("Kills").map((entry) => entry.Key)).toEqual(["a", "b"]);
		ordered.destroy();
		memory.destroy();
	});
});
