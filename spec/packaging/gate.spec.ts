import { describe, expect, it } from "@rbxts/jest-globals";
import { HttpService } from "@rbxts/services";
import { headlessGate } from "../gate/control";

const gate = headlessGate();
const describeGate = gate && gate.isDirectory("dist/gate") ? describe : describe.skip;

interface PackageJson {
	name: string;
	main: string;
	types: string;
	bin: Record<string, string>;
	dependencies: Record<string, string>;
	files?: string[];
}

const read = (path: string) => HttpService.JSONDecode(gate!.readFile(path)!) as PackageJson;

// The gate as a game's tool (.ci/gate-package.mjs): its own package, never part of the runtime one.
describeGate("the gate's package, @rbxts/leaderboards-gate", () => {
	it("has the leaderboards-gate bin, and luau-web and jest-lua as dependencies at the versions the specs run on", () => {
		const tool = read("dist/gate/package.json");
		const project = HttpService.JSONDecode(gate!.readFile("package.json")!) as {
			devDependencies: Record<string, string>;
		};
		expect(tool.name).toBe("@rbxts/leaderboards-gate");
		expect(tool.bin).toEqual({ "leaderboards-gate": "tool/gate.mjs" });
		expect(gate!.readFile(`dist/gate/${tool.bin["leaderboards-gate"]}`)).toBeDefined();
		for (const name of ["luau-web", "@rbxts-js/jest", "@rbxts-js/jest-globals"])
			expect(`${name}@${tool.dependencies[name]}`).toBe(`${name}@${project.devDependencies[name]}`);
	});

	it("puts only headlessGate() in a place (its default.project.json), with the control's typings beside it", () => {
		const tool = read("dist/gate/package.json");
		const project = HttpService.JSONDecode(gate!.readFile("dist/gate/default.project.json")!) as {
			tree: { $path: string };
		};
		expect(project.tree.$path).toBe("lib");
		expect(
			gate!
				.listDirectory("dist/gate/lib")!
				.map((entry) => entry.name)
				.sort(),
		).toEqual(["index.d.ts", "init.luau"]);
		expect(`${tool.main} ${tool.types}`).toBe("lib/init.luau lib/index.d.ts");
		expect(
			gate!.readFile("dist/gate/lib/index.d.ts")!.find("export interface HeadlessGate", 1, true)[0],
		).toBeDefined();
	});

	it("ships the control's Luau types for a Luau game's specs (HeadlessGate.luau, outside the place)", () => {
		const types = gate!.readFile("dist/gate/HeadlessGate.luau")!;
		for (const name of ["HeadlessGate", "GateServer", "FaultRule"])
			expect(types.find(`export type ${name} = {`, 1, true)[0]).toBeDefined();
	});

	it("is no part of the runtime package, which holds nothing of the gate", () => {
		const runtime = read("dist/npm/package.json");
		for (const file of runtime.files ?? []) expect(file.find("spec", 1, true)[0]).toBeUndefined();
		expect(gate!.isDirectory("dist/npm/out/spec")).toBe(false);
		expect(runtime.dependencies["luau-web"]).toBeUndefined();
	});
});
