import { describe, expect, it } from "@rbxts/jest-globals";
import { Kernel } from "../../kernel";
import { Backend, LeaderboardOptions, ReaderStage, StageContext, attach } from "../../plugins/leaderboards";
import { captureLogs } from "../kernel/doubles";
import { MemoryBackend } from "./doubles";

// Issue 42: attach holds a game's backend and its own stages to their contracts, at the game's call.

// This file's chunk name, as error positions print it.
const HERE = debug.info(1, "s")[0];

const kernel = () => new Kernel({ bindToClose: false });
const attachWith = (options: Partial<LeaderboardOptions>) =>
	attach(kernel(), { Boards: { Kills: {} }, SkipLoop: true, ...options } as LeaderboardOptions);

// What attach raised, checked to point at this file's line.
function raisedHere(call: () => unknown): string {
	const [ok, problem] = pcall(call);
	expect(ok).toBe(false);
	const message = tostring(problem);
	expect(message.sub(1, HERE.size() + 1)).toBe(`${HERE}:`);
	return message.sub(message.find("Leaderboards.attach: ", 1, true)[0] ?? 1);
}

describe("a backend's members", () => {
	const FUNCTIONS = [
		"submit",
		"set",
		"budget",
		"budgetRate",
		"scores",
		"readBudget",
		"remove",
		"removeBudget",
		"around",
		"refuseName",
	] as const;
	for (const name of FUNCTIONS)
		it(`${name} = 5 is refused at attach, naming the field`, () => {
			const backend = { ...new MemoryBackend().asSetBackend(), [name]: 5 } as unknown as Backend;
			expect(raisedHere(() => attachWith({ Backend: backend }))).toBe(
				`Leaderboards.attach: options.Backend.${name} must be a function (got 5)`,
			);
		});

	it("the other optional members are checked too: flags, kind, layout", () => {
		const backend = (member: string, value: unknown) =>
			({ ...new MemoryBackend().asSetBackend(), [member]: value }) as unknown as Backend;
		expect(raisedHere(() => attachWith({ Backend: backend("sharePages", "yes") }))).toBe(
			'Leaderboards.attach: options.Backend.sharePages must be a boolean (got "yes")',
		);
		expect(raisedHere(() => attachWith({ Backend: backend("sums", 1) }))).toBe(
			"Leaderboards.attach: options.Backend.sums must be a boolean (got 1)",
		);
		expect(raisedHere(() => attachWith({ Backend: backend("kind", 5) }))).toBe(
			"Leaderboards.attach: options.Backend.kind must be a string (got 5)",
		);
		expect(raisedHere(() => attachWith({ Backend: backend("layout", "OrderedDataStore") }))).toBe(
			'Leaderboards.attach: options.Backend.layout must be a table (got "OrderedDataStore")',
		);
	});

	it("a board's own backend is held to the same contract", () => {
		const own = { ...new MemoryBackend().asSetBackend(), budgetRate: 5 } as unknown as Backend;
		expect(raisedHere(() => attachWith({ Boards: { Kills: { Backend: own } } }))).toBe(
			"Leaderboards.attach: options.Boards.Kills.Backend.budgetRate must be a function (got 5)",
		);
	});
});

// A Reader with only the methods its contract requires: every page empty.
const bareReader = (_: StageContext): ReaderStage => ({
	Name: "Game.Reader",
	top() {
		return [];
	},
	scores() {
		return new Map();
	},
	release() {},
});

describe("a game's own stage", () => {
	it("that is not a table is refused, naming the stage", () => {
		expect(raisedHere(() => attachWith({ Stages: { Reader: () => 5 as never } }))).toBe(
			"Leaderboards.attach: options.Stages.Reader must return a table with the Reader stage's methods (got 5)",
		);
	});

	it("that lacks a method of its contract is refused, naming the stage and the method", () => {
		const noTop = (context: StageContext) => ({ ...bareReader(context), top: undefined }) as never;
		expect(raisedHere(() => attachWith({ Stages: { Reader: noTop } }))).toBe(
			"Leaderboards.attach: options.Stages.Reader returned a stage without top() (got nil)",
		);
		const noName = (context: StageContext) => ({ ...bareReader(context), Name: undefined }) as never;
		expect(raisedHere(() => attachWith({ Stages: { Reader: noName } }))).toBe(
			"Leaderboards.attach: options.Stages.Reader returned a stage without a Name (its kernel service name) (got nil)",
		);
	});

	it("that leaves hooks out gets one warning a hook, naming the stage and what goes off", () => {
		const logs = captureLogs();
		const boards = attachWith({ Stages: { Reader: bareReader } });
		boards.submit("Kills", "a", 5);
		boards.submit("Kills", "a", 6);
		logs.restore();
		expect(logs.messages("warn")).toEqual([
			"[Leaderboards] options.Stages.Reader has no erase(): an erased key stays on cached pages until they refresh",
			"[Leaderboards] options.Stages.Reader has no forget(): a removed key stays on cached pages until they refresh",
			"[Leaderboards] options.Stages.Reader has no patch(): records other servers announce are not patched into cached pages",
		]);
	});

	it("the default stages meet every contract: no warning", () => {
		const logs = captureLogs();
		attachWith({ Backend: new MemoryBackend().asSetBackend() });
		logs.restore();
		expect(logs.messages("warn")).toEqual([]);
	});
});
