import { describe, expect, it } from "@rbxts/jest-globals";
import { HttpService } from "@rbxts/services";
import { HeadlessGate, headlessGate } from "../gate/control";

const gate = headlessGate();
const describeGate = gate && gate.readFile("dist/checks/wally.json") !== undefined ? describe : describe.skip;

interface WallyManifest {
	package: {
		name: string;
		version: string;
		registry: string;
		realm: string;
		license?: string;
		authors?: string[];
		description?: string;
		include?: string[];
	};
}

const SEMVER = "^%d+%.%d+%.%d+[%-%+%w%.]*$";

describeGate("wally.toml, as a real TOML parser reads it, by Wally's manifest rules", () => {
	// .ci/package.mjs parses wally.toml with smol-toml and writes what it read here.
	const read = () =>
		HttpService.JSONDecode(gate!.readFile("dist/checks/wally.json")!) as {
			manifest: WallyManifest;
			packageJson: { name: string; version: string };
		};

	it("names the package scope/name, lowercase letters, digits and dashes, each at most 64", () => {
		const [scope, name] = read().manifest.package.name.split("/") as unknown as [string, string];
		for (const part of [scope, name]) {
			expect(part).toMatch("^[a-z0-9][a-z0-9%-]*$");
			expect(part.size() <= 64).toBe(true);
		}
	});

	it("has a semver version equal to package.json's", () => {
		const { manifest, packageJson } = read();
		expect(manifest.package.version).toMatch(SEMVER);
		expect(manifest.package.version).toBe(packageJson.version);
	});

	it("is a server-realm package on a registry, with license, authors, description and include", () => {
		const { manifest } = read();
		expect(manifest.package.realm).toBe("server");
		expect(manifest.package.registry).toMatch("^https://");
		expect(manifest.package.license).toBe("MIT");
		expect((manifest.package.authors ?? []).size() > 0).toBe(true);
		expect((manifest.package.description ?? "").size() > 0).toBe(true);
		expect(manifest.package.include).toContain("src");
		expect(manifest.package.include).toContain("default.project.json");
	});

	it("the built package holds every file its include names", () => {
		const { manifest } = read();
		for (const entry of manifest.package.include ?? []) {
			if (entry.find("*")[0] !== undefined) continue;
			expect(
				gate!.readFile(`dist/wally/${entry}`) !== undefined || gate!.isDirectory(`dist/wally/${entry}`),
			).toBe(true);
		}
	});

	it("package.json is publishable as an @rbxts package", () => {
		const pkg = HttpService.JSONDecode(gate!.readFile("package.json")!) as {
			name: string;
			main: string;
			types: string;
			files: string[];
			license: string;
			peerDependencies: Record<string, string>;
		};
		expect(pkg.name).toBe("@rbxts/leaderboards");
		expect(pkg.license).toBe("MIT");
		expect(pkg.peerDependencies["@rbxts/compiler-types"]).toBeDefined();
		expect(pkg.peerDependencies["@rbxts/types"]).toBeDefined();
		// main and types point at what the npm build compiles and declares.
		expect(gate!.readFile(`dist/npm/${pkg.main}`)).toBeDefined();
		expect(gate!.readFile(`dist/npm/${pkg.types}`)).toBeDefined();
		expect(pkg.files).toContain("out/plugins");
	});

	it("npm run build:npm, build:gate and build:wally say what they built and where to publish or install it from", () => {
		const said = HttpService.JSONDecode(gate!.readFile("dist/checks/built.json")!) as string[];
		const { manifest, packageJson } = read();
		expect(said).toEqual([
			`built the npm package ${packageJson.name}@${packageJson.version} in dist/npm (Luau and .d.ts under out/); publish from there: npm publish dist/npm`,
			`built the gate @rbxts/leaderboards-gate@${packageJson.version} in dist/gate, packed as dist/leaderboards-gate.tgz: npm install --save-dev dist/leaderboards-gate.tgz`,
			`built the Wally package ${manifest.package.name}@${manifest.package.version} in dist/wally (the runtime inside, ${(
				HttpService.JSONDecode(gate!.readFile("dist/checks/luau-types.json")!) as { exported: string[] }
			).exported.size()} Luau types in src/Types.luau); publish from there: cd dist/wally && wally publish`,
		]);
	});

	it("its peer ranges accept the compiler types of roblox-ts 3 and 2.3 games (checked by npm's semver)", () => {
		const peers = HttpService.JSONDecode(gate!.readFile("dist/checks/peers.json")!) as {
			compiler: string;
			compilerTypes: string;
			accepted: boolean;
		}[];
		expect(peers.map((peer) => peer.compiler.match("^roblox%-ts@%d+")[0])).toEqual(["roblox-ts@3", "roblox-ts@2"]);
		for (const peer of peers) expect(`${peer.compilerTypes}: ${peer.accepted}`).toBe(`${peer.compilerTypes}: true`);
	});
});

// Rojo's rules for a project file: $path targets exist, $className values are
// Roblox classes, and no node has two children with one name.
function checkProject(control: HeadlessGate, file: string, classes: Set<string>): string[] {
	const problems = new Array<string>();
	const base = file.match("^(.*)/[^/]+$")[0] as string | undefined;
	const at = (path: string) => (base !== undefined ? `${base}/${path}` : path);
	const project = HttpService.JSONDecode(control.readFile(file)!) as { tree: Record<string, unknown> };
	const walk = (node: Record<string, unknown>, where: string) => {
		const names = new Set<string>();
		const className = node.$className as string | undefined;
		if (className !== undefined && !classes.has(className))
			problems.push(`${where}: ${className} is not a Roblox class`);
		const path = node.$path as string | undefined;
		if (path !== undefined) {
			const entries = control.listDirectory(at(path));
			if (entries === undefined && control.readFile(at(path)) === undefined)
				problems.push(`${where}: $path ${path} does not exist`);
			for (const entry of entries ?? []) {
				const stem = entry.name
					.gsub("%.server%.luau?$", "")[0]
					.gsub("%.client%.luau?$", "")[0]
					.gsub("%.luau?$", "")[0];
				if (entry.directory || entry.name !== stem) {
					if (names.has(stem)) problems.push(`${where}: two children named ${stem}`);
					names.add(stem);
				}
			}
		}
		const keys = new Array<string>();
		for (const [key] of pairs(node)) if ((key as string).sub(1, 1) !== "$") keys.push(key as string);
		keys.sort();
		for (const key of keys) {
			if (names.has(key)) problems.push(`${where}: two children named ${key}`);
			names.add(key);
			walk(node[key] as Record<string, unknown>, `${where}.${key}`);
		}
	};
	walk(project.tree, file);
	return problems;
}

describe("the Rojo project files", () => {
	if (!gate) return;
	// .ci/package.mjs lists the classes @rbxts/types declares.
	const classes = new Set<string>(
		HttpService.JSONDecode(gate.readFile("dist/checks/classes.json") ?? "[]") as string[],
	);

	it("knows the Roblox classes from @rbxts/types", () => {
		expect(classes.has("ServerScriptService")).toBe(true);
		expect(classes.has("NotAClass")).toBe(false);
	});

	for (const file of [
		"default.project.json",
		"dist/consumers/luau/default.project.json",
		"dist/consumers/rbxts/default.project.json",
		"dist/wally/default.project.json",
	]) {
		it(`${file} follows Rojo's rules`, () => {
			if (gate.readFile(file) === undefined) return;
			expect(checkProject(gate, file, classes)).toEqual([]);
		});
	}

	it("the checks catch a broken project", () => {
		const broken = HttpService.JSONEncode({
			name: "broken",
			tree: { $className: "DataModel", Bad: { $className: "NotAClass" }, Gone: { $path: "no/such/path" } },
		});
		const problems = checkProject(
			{
				...gate,
				readFile: (path: string) => (path === "broken.project.json" ? broken : gate.readFile(path)),
			} as HeadlessGate,
			"broken.project.json",
			classes,
		);
		expect(problems).toEqual([
			"broken.project.json.Bad: NotAClass is not a Roblox class",
			"broken.project.json.Gone: $path no/such/path does not exist",
		]);
	});
});
