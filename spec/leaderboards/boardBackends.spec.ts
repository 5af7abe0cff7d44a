import { afterEach, beforeEach, describe, expect, it } from "@rbxts/jest-globals";
import { Kernel } from "../../kernel";
import { Backend, attach, memoryStoreBackend, orderedDataStoreBackend } from "../../plugins/leaderboards";
import { headlessGate } from "../gate/control";
import { MemoryBackend } from "./doubles";

// BoardConfig.Backend: one attach holds boards on different stores (the README's advice:
// OrderedDataStores for all-time boards, MemoryStore for daily ones), each store's budget
// spent once per window, and one drain and one Stats over all of them.

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

describeGate("a backend per board", () => {
	beforeEach(() => gate!.reset());
	afterEach(() => gate!.reset());

	it("an all-time OrderedDataStore board and a daily MemoryStore board in one attach: written, read, drained, counted", () => {
		const players = 10;
		for (let id = 1; id <= players; id++) gate!.players.join({ UserId: id });
		const kernel = new Kernel({ bindToClose: false });
		const boards = attach(kernel, {
			Boards: {
				Kills: {},
				DailyKills: { Reset: "Daily", Sum: true, Backend: memoryStoreBackend() },
			},
		});
		kernel.start();
		const best = new Map<string, number>();
		const total = new Map<string, number>();
		let submits = 0;
		// Five minutes of play: every player reports a kill streak and its kills every 5 s.
		for (let tick = 1; tick <= 60; tick++) {
			for (let id = 1; id <= players; id++) {
				const key = tostring(id);
				const streak = (id * 7 + tick * 3) % 23;
				boards.submit("Kills", key, streak);
				boards.submit("DailyKills", key, 1);
				submits += 2;
				best.set(key, math.max(best.get(key) ?? 0, streak));
				total.set(key, (total.get(key) ?? 0) + 1);
			}
			task.wait(5);
		}
		// Each board read from its own store: every player on both.
		expect(boards.top("Kills").size()).toBe(players);
		expect(boards.top("Kills")[0].Value).toBe(22);
		expect(boards.top("DailyKills").size()).toBe(players);
		const [complete, result] = boards.destroy();
		expect(result.Error).toBeUndefined();
		expect(complete).toBe(true);

		const ordered = gate!.dataStore.snapshot("CKBoard_Kills");
		const daily = new Map<string, unknown>();
		for (const item of gate!.memoryStore.snapshot("CKBoard_DailyKills@2026-12-06"))
			daily.set(item.key, item.sortKey);
		for (let id = 1; id <= players; id++) {
			expect(ordered.get(tostring(id))).toBe(best.get(tostring(id)));
			expect(daily.get(tostring(id))).toBe(total.get(tostring(id)));
		}
		// Each board on its own store only.
		expect(gate!.dataStore.snapshot("CKBoard_DailyKills@2026-12-06").isEmpty()).toBe(true);
		expect(gate!.memoryStore.snapshot("CKBoard_Kills").size()).toBe(0);
		// One Stats over both boards.
		expect(boards.Stats.Submitted).toBe(submits);
		expect(boards.Stats.Dropped).toBe(0);
		expect(boards.Stats.Failed).toBe(0);
		expect(boards.Stats.Written).toBeGreaterThanOrEqual(gate!.dataStore.calls("UpdateAsync"));
		// Each store's cost table kept: nothing throttled or refused at any level.
		expect(gate!.dataStore.throttled()).toBe(0);
		expect(gate!.dataStore.dropped()).toBe(0);
		expect(gate!.memoryStore.refused()).toBe(0);
		// OrderedWrite: 30 + 5 x 10 = 80 a minute; five minutes of windows and the drain stay under it.
		expect(gate!.dataStore.calls("UpdateAsync")).toBeLessThanOrEqual(6 * 80);
		// The MemoryStore share: 120 units a minute per player, claimed by this server for its 10.
		expect(gate!.memoryStore.calls()).toBeLessThanOrEqual(6 * 120 * players);
		kernel.stop();
	}, 600_000);

	it("a board whose store has no budget left waits; the other boards' windows go on", () => {
		const spent = new MemoryBackend();
		spent.budgetValue = 0;
		const open = new MemoryBackend();
		const kernel = new Kernel({ bindToClose: false });
		const boards = attach(kernel, {
			Boards: { Kills: {}, Coins: { Backend: spent.asSetBackend() } },
			Backend: open.asSetBackend(),
			SkipLoop: true,
		});
		boards.submit("Coins", "a", 5);
		boards.submit("Kills", "a", 3);
		boards.submit("Kills", "b", 4);
		const summary = boards._flush();
		expect(summary.Attempted).toBe(2);
		expect(summary.Budget).toBe(30);
		expect(open.get("Kills", "a")).toBe(3);
		expect(open.get("Kills", "b")).toBe(4);
		expect(spent.writes.size()).toBe(0);
		// Only the spent store's work is left: the window's budget is 0, nothing attempted.
		expect(boards._flush()).toEqual({ Attempted: 0, Written: 0, Failed: 0, Budget: 0 });
		spent.budgetValue = 1;
		boards.submit("Coins", "b", 1);
		// Coins' backend was built with budget() reading budgetValue: one write now, the other next window.
		expect(boards._flush().Attempted).toBe(1);
		expect(boards._flush().Attempted).toBe(1);
		expect(spent.get("Coins", "a")).toBe(5);
		expect(spent.get("Coins", "b")).toBe(1);
	});

	it("boards naming one backend table share one store: its budget is asked once a window and spent across them", () => {
		const shared = new MemoryBackend();
		let asked = 0;
		const backend: Backend = {
			...shared.asSetBackend(),
			budget: () => {
				asked += 1;
				return 3;
			},
		};
		const boards = attach(new Kernel({ bindToClose: false }), {
			Boards: { Daily: { Backend: backend }, Weekly: { Backend: backend }, Kills: {} },
			Backend: new MemoryBackend().asSetBackend(),
			SkipLoop: true,
		});
		for (let i = 1; i <= 4; i++) {
			boards.submit("Daily", `d${i}`, i);
			boards.submit("Weekly", `w${i}`, i);
		}
		const summary = boards._flush();
		expect(asked).toBe(1);
		expect(summary.Attempted).toBe(3);
		expect(shared.writes.size()).toBe(3);
	});

	it("backends of one kind (Backend.kind) spend one budget: two OrderedDataStore prefixes do not double it", () => {
		const kernel = new Kernel({ bindToClose: false });
		const DataStoreService = game.GetService("DataStoreService");
		const seasonal = orderedDataStoreBackend("Season1_", DataStoreService);
		const boards = attach(kernel, {
			Boards: { Kills: {}, SeasonKills: { Backend: seasonal } },
			SkipLoop: true,
		});
		// One player: OrderedWrite 30 + 5 = 35 a minute on the server, and its share of the
		// experience's 0.9 x 20: one budget for both prefixes.
		gate!.players.join({ UserId: 1 });
		const budget = math.min(gate!.dataStore.budget("OrderedWrite"), 0.9 * 20);
		for (let i = 1; i <= 40; i++) {
			boards.submit("Kills", `k${i}`, i);
			boards.submit("SeasonKills", `s${i}`, i);
		}
		const summary = boards._flush();
		expect(summary.Budget).toBe(math.min(30, budget));
		expect(
			gate!.dataStore.snapshot("Season1_SeasonKills").size() + gate!.dataStore.snapshot("CKBoard_Kills").size(),
		).toBe(summary.Attempted);
	});

	it("reads go to each board's own store, and a capability error names the board's backend", () => {
		const own = new MemoryBackend();
		own.storeOf("Coins").set("a", 7);
		const noRemove = { ...own.asSetBackend(), remove: undefined };
		const boards = attach(new Kernel({ bindToClose: false }), {
			Boards: { Kills: {}, Coins: { Backend: noRemove } },
			Backend: new MemoryBackend().asSetBackend(),
			SkipLoop: true,
		});
		expect(boards.top("Coins")).toEqual([{ Key: "a", Value: 7, Rank: 1 }]);
		expect(boards.top("Kills")).toEqual([]);
		expect(boards.scores("Coins", ["a"])?.get("a")).toBe(7);
		expect(() => boards.remove("Coins", "a")).toThrow(
			"Leaderboards: remove() needs a backend with remove(); options.Boards.Coins.Backend has none",
		);
		expect(boards.remove("Kills", "a")).toBe(true);
	});

	it("a board's Backend meets the backend contract checks at attach, named by its field", () => {
		const kernel = () => new Kernel({ bindToClose: false });
		expect(() => attach(kernel(), { Boards: { Daily: { Backend: 5 as unknown as Backend } } })).toThrow(
			"Leaderboards.attach: options.Boards.Daily.Backend must be a table of functions (got 5)",
		);
		expect(() =>
			attach(kernel(), { Boards: { Daily: { Backend: { set: () => true } as unknown as Backend } } }),
		).toThrow("Leaderboards.attach: options.Boards.Daily.Backend needs sorted()");
		expect(() =>
			attach(kernel(), {
				Boards: { Daily: { Backend: { ...new MemoryBackend().asSetBackend(), kind: 3 as unknown as string } } },
			}),
		).toThrow("Leaderboards.attach: options.Boards.Daily.Backend.kind must be a string (got 3)");
		// A Sum board needs set() or sums on its own backend, not the attach's.
		const submitOnly: Backend = { submit: () => true, sorted: () => [] };
		expect(() => attach(kernel(), { Boards: { Coins: { Sum: true, Backend: submitOnly } } })).toThrow(
			"Leaderboards.attach: options.Boards.Coins.Sum needs a backend with set() or sums = true (got true)",
		);
	});

	it("a second attach on one kernel is refused with what to do instead", () => {
		const kernel = new Kernel({ bindToClose: false });
		attach(kernel, { Boards: { Kills: {} }, SkipLoop: true });
		expect(() => attach(kernel, { Boards: { DailyKills: { Reset: "Daily" } }, SkipLoop: true })).toThrow(
			"Leaderboards.attach: this kernel already has boards; attach once, with every board in options.Boards (a board may name its own Backend)",
		);
	});
});
