import { afterEach, describe, expect, it } from "@rbxts/jest-globals";
import { headlessGate } from "../gate/control";

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

describeGate("the place default.project.json opens", () => {
	afterEach(() => gate!.reset());

	it("holds the Boot and SpecGate Scripts and the example BoardService in ServerScriptService", () => {
		const server = gate!.newServer();
		const scripts = server.game.GetService("ServerScriptService");
		expect(scripts.WaitForChild("Boot").ClassName).toBe("Script");
		expect(scripts.WaitForChild("SpecGate").ClassName).toBe("Script");
		expect(scripts.WaitForChild("Services").WaitForChild("BoardService").ClassName).toBe("ModuleScript");
	});

	it("holds the summary SpecGate prints, counting a spec file that failed to run as failed", () => {
		const server = gate!.newServer();
		const module = server.game
			.GetService("ServerScriptService")
			.WaitForChild("Leaderboards")
			.WaitForChild("spec")
			.WaitForChild("gate")
			.WaitForChild("summary") as ModuleScript;
		const summarize = server.require(module) as (results: object) => LuaTuple<[string, number, number]>;
		const counts = { numPassedTests: 5, numFailedTests: 1, numRuntimeErrorTestSuites: 1, numPendingTests: 2 };
		expect(summarize(counts)[0]).toBe("5 passed, 2 failed, 2 skipped");
		expect(summarize({ ...counts, numPendingTests: 0 })[0]).toBe("5 passed, 2 failed");
	});

	it("its Boot Script starts the kernel with the BoardService, and the server then closes cleanly", () => {
		const server = gate!.newServer();
		const errors = new Array<string>();
		const logs = server.game.GetService("LogService").MessageOut.Connect((message, kind) => {
			if (kind === Enum.MessageType.MessageError) errors.push(message);
		});
		const boot = server.runScript(server.game.GetService("ServerScriptService").WaitForChild("Boot") as Script);
		task.wait(1);
		expect(coroutine.status(boot)).toBe("dead");
		const [complete] = server.close();
		logs.Disconnect();
		expect(complete).toBe(true);
		expect(errors).toEqual([]);
	});
});
