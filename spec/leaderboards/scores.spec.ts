import { afterEach, describe, expect, it } from "@rbxts/jest-globals";
import { DataStoreService } from "@rbxts/services";
import { Kernel } from "../../kernel";
import { Backend, attach } from "../../plugins/leaderboards";
import { headlessGate } from "../gate/control";
import { captureLogs } from "../kernel/doubles";
import { MemoryBackend, boardsWith } from "./doubles";

const gate = headlessGate();

describe("scores()", () => {
	afterEach(() => gate?.reset());

	it("returns stored values by key, leaving out keys with none and never queued submissions", () => {
		const backend = new MemoryBackend();
		backend.storeOf("Kills").set("1", 10);
		const { boards } = boardsWith({ backend });
		boards.submit("Kills", "2", 99);
		const scores = boards.scores("Kills", ["1", "2", "3"]);
		expect(scores).toEqual(new Map([["1", 10]]));
	});

	it("resolves subjects exactly as submit does", () => {
		if (!gate) return;
		const player = gate.players.join({ UserId: 77 });
		const backend = new MemoryBackend();
		backend.storeOf("Kills").set("77", 5);
		const { boards } = boardsWith({ backend });
		expect(boards.scores("Kills", [player])?.get("77")).toBe(5);
		expect(boards.scores("Kills", [{ Player: player }])?.get("77")).toBe(5);
	});

	it("gives {} for an unknown board and errors when the backend has no scores", () => {
		const backend = new MemoryBackend();
		const { boards } = boardsWith({ backend });
		expect(boards.scores("Nope", ["1"])).toEqual(new Map());
		const noScores = { ...backend.asSetBackend(), scores: undefined } as Backend;
		const { boards: bare } = boardsWith({ Backend: noScores });
		expect(() => bare.scores("Kills", ["1"])).toThrow("scores() needs a backend with scores()");
	});

	it("the default backend reads in BatchGetAsync chunks of 100 keys: 250 subjects, three calls", () => {
		if (!gate) return;
		gate.reset();
		// Ten players: OrderedRead 60 + 40 x 10 a minute, this server's share of the experience's 0.9 x 40 x 10.
		for (let id = 1; id <= 10; id++) gate.players.join({ UserId: id });
		const entries = new Map<string, number>();
		for (let i = 1; i <= 200; i++) entries.set(tostring(i), i);
		gate.dataStore.seed("CKBoard_Kills", entries);
		const boards = attach(new Kernel({ bindToClose: false }), { Boards: { Kills: {} }, SkipLoop: true });
		const subjects = new Array<string>();
		for (let i = 1; i <= 250; i++) subjects.push(tostring(i));
		const scores = boards.scores("Kills", subjects)!;
		expect(gate.dataStore.calls("BatchGetAsync")).toBe(3);
		let count = 0;
		for (const [] of scores) count++;
		expect(count).toBe(200);
		expect(scores.get("200")).toBe(200);
		expect(scores.get("201")).toBeUndefined();
	});

	it("the default backend returns nil when a chunk fails", () => {
		if (!gate) return;
		gate.reset();
		gate.dataStore.fault({ method: "BatchGetAsync", failNext: 1 });
		const boards = attach(new Kernel({ bindToClose: false }), { Boards: { Kills: {} }, SkipLoop: true });
		expect(boards.scores("Kills", ["1"])).toBeUndefined();
		expect(boards.scores("Kills", ["1"])).toEqual(new Map());
	});

	// Engine facts: BatchGetAsync spends one OrderedRead request per key, and a
	// server's OrderedRead budget holds 60 + 40 x players (one minute); its share of the
	// experience's (300 + 40 x CCU) is 0.9 x 40 x players, one player's worth at least: on an
	// empty server a chunk of 100 keys would wait in the throttle queue for a budget that never holds it.
	it("the default backend refuses, with nil and a warning, more keys than the read budget grants now", () => {
		if (!gate) return;
		gate.reset();
		const boards = attach(new Kernel({ bindToClose: false }), { Boards: { Kills: {} }, SkipLoop: true });
		const subjects = new Array<string>();
		for (let i = 1; i <= 150; i++) subjects.push(tostring(i));
		const logs = captureLogs();
		const started = os.clock();
		const scores = boards.scores("Kills", subjects);
		logs.restore();
		expect(scores).toBeUndefined();
		expect(os.clock() - started).toBeLessThan(1);
		expect(gate.dataStore.calls("BatchGetAsync")).toBe(0);
		expect(logs.messages("warn")).toEqual([
			"[Leaderboards] Kills: scores() refused 150 keys: the read budget grants 36 now (ask for fewer, or later)",
		]);
	});

	it("the default backend chunks to what the read budget holds now, never waiting on the throttle queue", () => {
		if (!gate) return;
		gate.reset();
		const store = DataStoreService.GetOrderedDataStore("CKBoard_Kills");
		store.SetAsync("3", 30);
		// 60 OrderedRead requests on an empty server; spend 30 of them (its share holds 36).
		for (let i = 0; i < 30; i++) store.GetAsync("3");
		const boards = attach(new Kernel({ bindToClose: false }), { Boards: { Kills: {} }, SkipLoop: true });
		const subjects = new Array<string>();
		for (let i = 1; i <= 30; i++) subjects.push(tostring(i));
		expect(boards.scores("Kills", subjects)).toEqual(new Map([["3", 30]]));
		expect(gate.dataStore.calls("BatchGetAsync")).toBe(1);
		expect(gate.dataStore.throttled()).toBe(0);
	});
});
