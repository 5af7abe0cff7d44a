import { afterAll, describe, expect, it } from "@rbxts/jest-globals";
import { HttpService } from "@rbxts/services";
import { headlessGate } from "../gate/control";
import { KEY, UNIVERSE, seedManifest, serveTool } from "./tool";

// The tool as the npm package ships it (node .ci/package.mjs npm, which npm test runs first): package.json's
// "bin" names it, "files" holds it, and the published copy runs as npx starts it, a process of its own.

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

describeGate("the tool in the npm package", () => {
	afterAll(() => {
		gate!.front.stop();
		gate!.reset();
	});

	it("is the package's bin, shipped in dist/npm, and runs from there", () => {
		const pkg = HttpService.JSONDecode(gate!.readFile("dist/npm/package.json")!) as {
			bin: Record<string, string>;
			files: string[];
		};
		expect(pkg.bin).toEqual({ leaderboards: "cli/bin/leaderboards.mjs" });
		expect(pkg.files).toContain("cli/bin");
		expect(pkg.files).toContain("cli/src");
		expect(pkg.files).toContain("plugins/leaderboards/contracts/outside/contract.json");
		expect(gate!.readFile("dist/npm/cli/bin/leaderboards.mjs")!.sub(1, 19)).toBe("#!/usr/bin/env node");
		gate!.reset();
		seedManifest(gate!, { Kills: { Backend: "OrderedDataStore", Prefix: "CKBoard_", Storage: "Kills" } });
		serveTool(gate!);
		const run = gate!.front.run(["dist/npm/cli/bin/leaderboards.mjs", "boards"], {
			env: { LEADERBOARDS_API_KEY: KEY, LEADERBOARDS_UNIVERSE_ID: tostring(UNIVERSE) },
		});
		expect([run.code, run.stderr]).toEqual([0, ""]);
		expect(run.stdout.split("\n")[0]).toBe("1 board in CKBoard_Manifest:");
	});
});
