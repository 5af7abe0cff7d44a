import { beforeAll, describe, expect, it } from "@rbxts/jest-globals";
import { HeadlessGate, headlessGate } from "./control";

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;
const fixtures = script.Parent!.WaitForChild("fixtures").WaitForChild("modules");

describeGate("the gate's require", () => {
	let control: HeadlessGate;
	beforeAll(() => {
		control = gate!;
	});

	it("runs a module once and caches its result, with the module as its own script", () => {
		const counter = fixtures.WaitForChild("counter") as ModuleScript;
		const first = control.require(counter) as { loads: number; script: Instance };
		const second = control.require(counter) as { loads: number; script: Instance };
		expect(second).toBe(first);
		expect(first.script).toBe(counter);
	});

	it("names the chain when modules require each other in a cycle", () => {
		const cycle = fixtures.WaitForChild("cycleA") as ModuleScript;
		expect(() => control.require(cycle)).toThrow(
			"Requested module was required recursively: ServerScriptService.Leaderboards.spec.gate.fixtures.modules.cycleA -> ServerScriptService.Leaderboards.spec.gate.fixtures.modules.cycleB -> ServerScriptService.Leaderboards.spec.gate.fixtures.modules.cycleA",
		);
	});

	it("raises a module's error, then refuses it on later requires as Roblox does", () => {
		const broken = fixtures.WaitForChild("broken") as ModuleScript;
		expect(() => control.require(broken)).toThrow("broken on purpose");
		expect(() => control.require(broken)).toThrow("Requested module experienced an error while loading");
	});

	it("refuses a module that returns nothing", () => {
		const empty = fixtures.WaitForChild("empty") as ModuleScript;
		expect(() => control.require(empty)).toThrow("Module code did not return exactly one value");
	});

	it("refuses what is not a ModuleScript", () => {
		expect(() => control.require(fixtures as unknown as ModuleScript)).toThrow(
			"Attempted to call require with invalid argument(s).",
		);
	});
});
