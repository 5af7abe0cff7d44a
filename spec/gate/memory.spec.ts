import { afterEach, describe, expect, it } from "@rbxts/jest-globals";
import { headlessGate } from "./control";

// A suite of any length must fit in the gate's fixed Luau heap: what a closed
// server or a finished spec file held has to become garbage. gate.collect()
// runs full collections, so a weakly held value that survives it is still
// referenced from somewhere.

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

const weakly = <T extends object>(value: T) => setmetatable(new Map<number, T>([[1, value]]), { __mode: "v" });

describeGate("memory in the gate", () => {
	afterEach(() => gate!.reset());

	it("an instance tree nothing refers to is reclaimed", () => {
		// Built in a function of its own: a local of this test would keep it on the stack.
		const held = (() => {
			const parent = new Instance("Folder");
			new Instance("Folder").Parent = parent;
			return weakly(parent);
		})();
		gate!.collect();
		expect(held.get(1)).toBeUndefined();
	});

	it("a closed server is reclaimed, its running kernel and timers with it", () => {
		const held = (() => {
			const server = gate!.newServer();
			server.runScript(server.game.GetService("ServerScriptService").WaitForChild("Boot") as Script);
			server.join({ UserId: 1 });
			task.wait(5);
			const [complete] = server.close();
			expect(complete).toBe(true);
			return weakly(server.game);
		})();
		gate!.collect();
		expect(held.get(1)).toBeUndefined();
	});

	it("a closed server's threads never run again", () => {
		const server = gate!.newServer();
		const module = new Instance("ModuleScript");
		(module as unknown as { Source: string }).Source =
			"local ticks = { n = 0 } task.spawn(function() while true do task.wait(1) ticks.n += 1 end end) return ticks";
		module.Parent = server.game.GetService("ServerStorage");
		const ticks = server.require(module) as { n: number };
		task.wait(3.5);
		expect(ticks.n).toBe(3);
		server.close();
		task.wait(5);
		expect(ticks.n).toBe(3);
	});

	it("servers built and closed one after another leave the heap where it was", () => {
		const cycle = () => {
			const server = gate!.newServer();
			server.runScript(server.game.GetService("ServerScriptService").WaitForChild("Boot") as Script);
			task.wait(1);
			server.close();
		};
		cycle();
		const before = gate!.collect();
		for (let i = 0; i < 8; i++) cycle();
		// Each server compiles and runs the kernel, the plugin and the runtime (about 700 KB held
		// while it lives): kept, 8 servers would hold megabytes.
		expect(gate!.collect() - before).toBeLessThan(1024);
	});

	it("clients that left are reclaimed, with the containers they copied", () => {
		const cycle = () => {
			const clients = [1, 2, 3, 4, 5].map((id) => gate!.connectClient({ UserId: 900 + id }));
			task.wait(0.2);
			for (const client of clients) client.leave();
			task.wait(0.5); // what was travelling to them arrives, and goes
		};
		cycle();
		const before = gate!.collect();
		for (let i = 0; i < 4; i++) cycle();
		// Each client copies the place's ReplicatedStorage (here the runtime and jest's packages): kept,
		// 20 clients would hold tens of megabytes.
		expect(gate!.collect() - before).toBeLessThan(1024);
	});

	it("jest-circus's state of a finished spec file is not kept in _G (spec/setup.lua drops it)", () => {
		type State = { rootDescribeBlock: { children: unknown[] } };
		let withTests = 0;
		for (const [key, value] of _G as unknown as Map<unknown, State>) {
			if (tostring(key) === "Symbol(JEST_STATE_SYMBOL)" && value.rootDescribeBlock.children.size() > 0) {
				withTests += 1;
			}
		}
		expect(withTests).toBe(1); // this file's
	});
});
