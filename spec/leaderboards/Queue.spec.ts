import { describe, expect, it } from "@rbxts/jest-globals";
import { Kernel } from "../../kernel";
import { attach } from "../../plugins/leaderboards";
import { subjectKey } from "../../plugins/leaderboards/internal";
import { Stages, Topics } from "../../plugins/leaderboards/contracts";
import { headlessGate } from "../gate/control";
import { captureLogs } from "../kernel/doubles";
import { MemoryBackend, boardsWith } from "./doubles";

const gate = headlessGate();

describe("the submit queue", () => {
	describe("subjects become storage keys", () => {
		it("a Player becomes tostring(UserId); a session, its player's", () => {
			if (!gate) return;
			const player = gate.players.join({ UserId: 4242, Name: "ada" });
			expect(subjectKey(player)[0]).toBe("4242");
			expect(subjectKey({ Player: player })[0]).toBe("4242");
			gate.players.leave(player);
		});

		it("a string is itself, a whole number its digits: guild names, NPC ids", () => {
			expect(subjectKey("Guild of Foxes")[0]).toBe("Guild of Foxes");
			expect(subjectKey(17)[0]).toBe("17");
			expect(subjectKey(-3)[0]).toBe("-3");
		});

		it("the queued key is the resolved key", () => {
			const { boards, backend } = boardsWith();
			boards.submit("Kills", "npc-7", 3);
			boards._flush();
			expect(backend.get("Kills", "npc-7")).toBe(3);
		});
	});

	describe("coalescing", () => {
		it("keeps the larger pending value on a descending keep-best board", () => {
			const { boards, backend } = boardsWith();
			for (const value of [3, 9, 4]) boards.submit("Kills", "a", value);
			boards._flush();
			expect(backend.writes.size()).toBe(1);
			expect(backend.get("Kills", "a")).toBe(9);
		});

		it("keeps the smaller pending value on an Ascending keep-best board", () => {
			const { boards, backend } = boardsWith();
			for (const value of [5000, 4200, 4800]) boards.submit("BestTime", "a", value);
			boards._flush();
			expect(backend.writes.size()).toBe(1);
			expect(backend.get("BestTime", "a")).toBe(4200);
		});

		it("keeps the newest with KeepBest = false", () => {
			const { boards, backend } = boardsWith({ Boards: { Level: { KeepBest: false } } });
			for (const value of [7, 9, 2]) boards.submit("Level", "a", value);
			boards._flush();
			expect(backend.get("Level", "a")).toBe(2);
		});

		it("a burst costs one write per key per window", () => {
			const { boards, backend } = boardsWith({ WritesPerFlush: 100 });
			for (let i = 1; i <= 500; i++) boards.submit("Kills", `p${i % 5}`, i);
			const window = boards._flush();
			expect(window.Attempted).toBe(5);
			expect(backend.writes.size()).toBe(5);
			expect(boards.Stats.Submitted).toBe(500);
		});

		it("a keep-best value no better than the stored one still goes to the store, which decides (another server may have removed it)", () => {
			const { boards, backend } = boardsWith();
			boards.submit("Kills", "a", 9);
			boards._flush();
			backend.stored.get("Kills")!.delete("a"); // removed elsewhere
			expect(boards.submit("Kills", "a", 4)).toBe(true);
			expect(boards._flush().Attempted).toBe(1);
			expect(backend.get("Kills", "a")).toBe(4);
		});
	});

	describe("refusals: a clear false, nothing queued", () => {
		it("refuses an unknown board, non-numbers, NaN and infinities", () => {
			const { boards } = boardsWith();
			expect(boards.submit("Nope", "a", 1)).toBe(false);
			expect(boards.submit("Kills", "a", "5" as unknown as number)).toBe(false);
			expect(boards.submit("Kills", "a", 0 / 0)).toBe(false);
			expect(boards.submit("Kills", "a", math.huge)).toBe(false);
			expect(boards.submit("Kills", "a", -math.huge)).toBe(false);
			expect(boards.Stats.Submitted).toBe(0);
			expect(boards._flush().Attempted).toBe(0);
		});

		it("refuses integers a double does not hold exactly (past ±2^53)", () => {
			const { boards } = boardsWith();
			expect(boards.submit("Kills", "a", 2 ** 53)).toBe(true);
			expect(boards.submit("Kills", "a", 2 ** 53 + 2)).toBe(false);
			expect(boards.submit("Kills", "a", -(2 ** 53) - 2)).toBe(false);
		});

		it("refuses after destroy()", () => {
			const { boards } = boardsWith();
			boards.destroy();
			expect(boards.submit("Kills", "a", 1)).toBe(false);
		});

		it("a custom backend that takes fractions gets them", () => {
			const { boards, backend } = boardsWith();
			expect(boards.submit("BestTime", "a", 41.5)).toBe(true);
			boards._flush();
			expect(backend.get("BestTime", "a")).toBe(41.5);
		});

		it("the default backend refuses fractions and warns once per board", () => {
			const logs = captureLogs();
			const boards = attach(new Kernel({ bindToClose: false }), {
				Boards: { Kills: {}, BestTime: { Ascending: true } },
				SkipLoop: true,
			});
			expect(boards.submit("BestTime", "a", 41.5)).toBe(false);
			expect(boards.submit("BestTime", "b", 0.25)).toBe(false);
			expect(boards.submit("Kills", "a", 1.5)).toBe(false);
			logs.restore();
			const warnings = logs.messages("warn");
			expect(warnings.size()).toBe(2);
			expect(warnings[0]).toMatch("BestTime: submit refused, fractional");
			expect(warnings[1]).toMatch("Kills: submit refused, fractional");
		});

		it("the default backend refuses empty keys and keys over 50 characters, with a warning", () => {
			const logs = captureLogs();
			const boards = attach(new Kernel({ bindToClose: false }), { Boards: { Kills: {} }, SkipLoop: true });
			expect(boards.submit("Kills", "", 1)).toBe(false);
			expect(boards.submit("Kills", string.rep("k", 51), 1)).toBe(false);
			expect(boards.submit("Kills", string.rep("k", 50), 1)).toBe(true);
			logs.restore();
			expect(logs.messages("warn")).toEqual([
				"[Leaderboards] Kills: submit refused, empty key (the store cannot hold such a key); this warning shows once per board",
				"[Leaderboards] Kills: submit refused, key longer than 50 characters (the store cannot hold such a key); this warning shows once per board",
			]);
		});
	});

	it("counts accepted submits in Stats.Submitted", () => {
		const { boards } = boardsWith();
		boards.submit("Kills", "a", 1);
		boards.submit("Kills", "a", 2);
		boards.submit("Kills", "b", 1.5);
		boards.submit("Nope", "a", 1);
		expect(boards.Stats.Submitted).toBe(3);
	});

	it("holds a value per key even with a hundred thousand keys queued", () => {
		const backend = new MemoryBackend();
		const { boards } = boardsWith({ backend, WritesPerFlush: 30 });
		for (let i = 1; i <= 100_000; i++) boards.submit("Kills", `k${i}`, i);
		const window = boards._flush();
		expect(window.Attempted).toBe(30);
		expect(backend.writes[0].key).toBe("k1");
		expect(backend.writes[29].key).toBe("k30");
	});

	it("an erasure beside a prompt window's take leaves the arrival order whole (the soak's seed 11)", () => {
		const { boards, backend, kernel } = boardsWith();
		const { Queue } = (boards as unknown as { stages: Stages }).stages;
		boards.top("Kills"); // an empty page cached: any value enters its visible top
		boards.submit("Kills", "a", 5);
		boards.submit("Kills", "b", 6);
		boards.submit("Kills", "c", 7);
		expect(Queue.takeRecord!("Kills")?.Key).toBe("a"); // taken, still in the arrival order
		// erase() drops the key's queued values.
		kernel.Bus.publish(Topics.Erasing, "b");
		expect(Queue.pending()).toBe(1);
		expect(Queue.take("Kills")?.Key).toBe("c");
		expect(Queue.take("Kills")).toBeUndefined();
		expect(backend.writes.size()).toBe(0);
	});
	describe("a key already pending (submit's common case)", () => {
		let compared = 0;
		const comparable = () => {
			const compare = () => {
				compared += 1;
				return true;
			};
			return setmetatable({}, { __lt: compare, __le: compare });
		};
		const VALUES: [string, () => unknown][] = [
			["nil", () => undefined],
			["a numeric string", () => "5"],
			["true", () => true],
			["NaN", () => 0 / 0],
			["infinity", () => math.huge],
			["-infinity", () => -math.huge],
			["a number past 2^53", () => 2 ** 60],
			["a table", () => ({})],
			["a table that compares with anything", comparable],
			["a function", () => () => 1],
		];
		for (const [name, value] of VALUES) {
			it(`refuses a value that is ${name} as for a new key: false, the pending value kept, the same reason`, () => {
				const { boards, backend, kernel } = boardsWith();
				const reasons = new Array<string>();
				kernel.Bus.subscribe(Topics.Refused, (_, __, key, ___, reason) => reasons.push(`${key}: ${reason}`));
				boards.submit("Kills", "a", 7);
				compared = 0;
				const logs = captureLogs();
				const [ok, pending] = pcall(() => boards.submit("Kills", "a", value() as number));
				const fresh = boards.submit("Kills", "b", value() as number);
				logs.restore();
				expect([ok, pending, fresh]).toEqual([true, false, false]);
				expect(compared).toBe(0);
				expect(reasons.size()).toBe(2);
				expect(reasons[0].sub(4)).toBe(reasons[1].sub(4));
				expect(boards.Stats.Refused).toBe(2);
				boards._flush();
				expect(backend.get("Kills", "a")).toBe(7);
				expect(backend.writes.size()).toBe(1);
			});
		}

		it("refuses a fraction where the store holds integers, as for a new key", () => {
			const boards = attach(new Kernel({ bindToClose: false }), { Boards: { Kills: {} }, SkipLoop: true });
			const logs = captureLogs();
			expect(boards.submit("Kills", "a", 2)).toBe(true);
			expect(boards.submit("Kills", "a", 2.5)).toBe(false);
			expect(boards.submit("Kills", "b", 2.5)).toBe(false);
			logs.restore();
			expect(logs.messages("warn").size()).toBe(1);
			expect(logs.messages("warn")[0]).toMatch("Kills: submit refused, fractional");
			expect(boards.Stats.Refused).toBe(2);
		});

		it("a value submitted after remove() is written after the removal, not kept against it", () => {
			const { boards, backend } = boardsWith();
			backend.storeOf("Kills").set("a", 9);
			boards.submit("Kills", "a", 5);
			boards.remove("Kills", "a");
			expect(boards.submit("Kills", "a", 3)).toBe(true);
			boards._flush();
			expect(backend.get("Kills", "a")).toBe(3);
			// The removal landed: the key's values are kept by comparison again.
			boards.submit("Kills", "a", 1);
			boards.submit("Kills", "a", 4);
			boards.submit("Kills", "a", 2);
			boards._flush();
			expect(backend.get("Kills", "a")).toBe(4);
		});

		it("a later value of a pending key that enters the visible top goes to a prompt window", () => {
			const { boards, backend } = boardsWith();
			for (let i = 1; i <= 12; i++) backend.storeOf("Kills").set(`p${i}`, i * 100);
			const { Queue } = (boards as unknown as { stages: Stages }).stages;
			boards.top("Kills"); // a page cached: its visible top is the best 10 (300 and up)
			boards.submit("Kills", "a", 50);
			boards.submit("Kills", "a", 60);
			expect(Queue.recordsOn!("Kills")).toBe(0);
			boards.submit("Kills", "a", 5000);
			expect(Queue.recordsOn!("Kills")).toBe(1);
			expect(Queue.takeRecord!("Kills")?.Value).toBe(5000);
		});

		it("with a page cached, a value at or over the last shown row goes to a prompt window, one under it does not", () => {
			const { boards, backend, kernel } = boardsWith();
			const { Queue } = (boards as unknown as { stages: Stages }).stages;
			let prompts = 0;
			kernel.Bus.subscribe(Topics.Prompt, () => (prompts += 1));
			for (let i = 1; i <= 12; i++) {
				backend.storeOf("Kills").set(`p${i}`, i * 100);
				backend.storeOf("BestTime").set(`p${i}`, i * 100);
			}
			boards.submit("Kills", "early", 400); // pending before any page: no prompt yet
			boards.top("Kills"); // the visible top is the best 10: its last row p3 at 300
			boards.top("BestTime"); // Ascending: the last row p10 at 1000
			boards.submit("Kills", "a", 50);
			boards.submit("Kills", "a", 299);
			boards.submit("BestTime", "a", 5000);
			boards.submit("BestTime", "a", 1001);
			expect([Queue.recordsOn!("Kills"), Queue.recordsOn!("BestTime"), prompts]).toEqual([0, 0, 0]);
			// A tie with the last row enters by key ("a" before "p3"): as many as the bar's comparison is off by.
			boards.submit("Kills", "a", 300);
			boards.submit("BestTime", "a", 1000);
			expect([Queue.recordsOn!("Kills"), Queue.recordsOn!("BestTime"), prompts]).toEqual([1, 1, 2]);
			boards.submit("Kills", "b", 301); // a new key
			// A pending value that entered before the page was cached goes at the key's next submit, however low.
			boards.submit("Kills", "early", 1);
			expect([Queue.recordsOn!("Kills"), prompts]).toEqual([3, 4]);
			const taken = new Array<string>();
			for (let i = 0; i < 3; i++) {
				const write = Queue.takeRecord!("Kills");
				taken.push(`${write?.Key} ${write?.Value}`);
			}
			expect(taken).toEqual(["a 300", "b 301", "early 400"]);
			expect(Queue.takeRecord!("BestTime")?.Value).toBe(1000);
		});

		it("a key still pending after destroy() (the drain's writes failed) is refused", () => {
			const { boards, backend } = boardsWith({ ShutdownSeconds: 1 });
			boards.submit("Kills", "a", 5);
			backend.failWrites = 1000;
			boards.destroy();
			expect(boards.submit("Kills", "a", 6)).toBe(false);
			expect(boards.Stats.Submitted).toBe(1);
		});
	});
});
