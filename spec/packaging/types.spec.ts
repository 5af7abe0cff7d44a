import { afterEach, describe, expect, it } from "@rbxts/jest-globals";
import { HttpService } from "@rbxts/services";
import type { Kernel } from "../../kernel";
import { headlessGate } from "../gate/control";

// .ci/package.mjs generates the Wally package's Types.luau from the npm build's
// declarations (.ci/luau-types.mjs) and writes, from the TypeScript checker
// directly, each exported type's members to dist/checks/luau-types.json.
const gate = headlessGate();
const describeGate = gate && gate.readFile("dist/checks/luau-types.json") !== undefined ? describe : describe.skip;

interface DeclaredMember {
	name: string;
	optional: boolean;
	method: boolean;
	parameters?: number;
}

interface LuauMember {
	name: string;
	text: string;
}

// The generated module's shape: `export type Name = {` (or `type` for one only reached through others), one `\tname: type,` a line, `}`.
function luauBlocks(text: string): Map<string, LuauMember[]> {
	const blocks = new Map<string, LuauMember[]>();
	let current: LuauMember[] | undefined;
	for (const line of text.split("\n")) {
		const declaration = line.sub(1, 7) === "export " ? line.sub(8) : line;
		const [opened] = declaration.match("^type ([%w_]+)[^=]* = {$") as LuaTuple<[string?]>;
		if (opened !== undefined) {
			current = [];
			blocks.set(opened, current);
		} else if (line === "}") {
			current = undefined;
		} else if (current) {
			const [name, memberType] = line.match('^\t%[?"?([%w_]+)"?%]?: (.*),$') as LuaTuple<[string?, string?]>;
			if (name !== undefined && memberType !== undefined) current.push({ name, text: memberType });
		}
	}
	return blocks;
}

// The index of the bracket closing the one at `from` (1-based, Luau string positions).
function closing(text: string, from: number): number {
	let depth = 0;
	for (let i = from; i <= text.size(); i++) {
		const char = text.sub(i, i);
		if (char === "(" || char === "{" || char === "<") depth += 1;
		else if (char === ")" || char === "}" || (char === ">" && text.sub(i - 1, i - 1) !== "-")) depth -= 1;
		if (depth === 0) return i;
	}
	return -1;
}

// `T?` or `(function or union)?`, but not a function whose result is optional.
function optional(text: string): boolean {
	if (text.sub(-1) !== "?") return false;
	if (text.sub(1, 1) === "(") return closing(text, 1) === text.size() - 1;
	return text.find("->", 1, true)[0] === undefined;
}

// A method's parameters after self, counted at the top level of its list.
function methodParameters(member: string): number | undefined {
	// An optional method, (method)?, is a method too; an overloaded one, (method) & (method), counts as its first.
	let text = optional(member) && member.sub(1, 1) === "(" ? member.sub(2, -3) : member;
	if (text.sub(1, 1) === "(" && text.sub(closing(text, 1) + 1, closing(text, 1) + 3) === " & ")
		text = text.sub(2, closing(text, 1) - 1);
	const start = text.sub(1, 1) === "<" ? closing(text, 1) + 1 : 1;
	if (text.sub(start, start + 5) !== "(self:") return undefined;
	const list = text.sub(start + 1, closing(text, start) - 1);
	let depth = 0;
	let count = 1;
	for (let i = 1; i <= list.size(); i++) {
		const char = list.sub(i, i);
		if (char === "(" || char === "{" || char === "<") depth += 1;
		else if (char === ")" || char === "}" || (char === ">" && list.sub(i - 1, i - 1) !== "-")) depth -= 1;
		else if (char === "," && depth === 0) count += 1;
	}
	return count - 1;
}

// A field that is not a method takes no self anywhere in its type: an inline table's method would name the
// type holding the field as its self, a type the table is not (.ci/luau-types.mjs refuses to write one).
function strayingSelf(blocks: Map<string, LuauMember[]>): string[] {
	const strays = new Array<string>();
	for (const [name, members] of blocks)
		for (const member of members)
			if (methodParameters(member.text) === undefined && member.text.find("self:", 1, true)[0] !== undefined)
				strays.push(`${name}.${member.name}: ${member.text}`);
	return strays;
}

// Each block's members as the TypeScript surface lists them: name, optional, method and parameters.
function membersOf(block: LuauMember[]): DeclaredMember[] {
	return block.map((member) => {
		const parameters = methodParameters(member.text);
		return { name: member.name, optional: optional(member.text), method: parameters !== undefined, parameters };
	});
}

describeGate("Luau types shipped with the Wally package", () => {
	afterEach(() => gate!.reset());

	const declared = () =>
		HttpService.JSONDecode(gate!.readFile("dist/checks/luau-types.json")!) as {
			surface: Record<string, DeclaredMember[]>;
			exported: string[];
		};
	const luau = () => gate!.readFile("dist/wally/src/Types.luau")!;

	it("every exported TypeScript type is an exported Luau type with the same members, optional and method alike", () => {
		const { surface, exported } = declared();
		const blocks = luauBlocks(luau());
		for (const name of ["Leaderboards", "LeaderboardOptions", "BoardConfig", "Backend", "Entry", "ShutdownResult"])
			expect(exported).toContain(name);
		for (const name of exported) expect(luau()).toMatch(`\nexport type ${name}[<%s]`);
		for (const [name, members] of pairs(surface)) {
			const block = blocks.get(name);
			expect(`${name}: ${block !== undefined}`).toBe(`${name}: true`);
			expect(membersOf(block!)).toEqual(members);
		}
		// Board names are a type parameter in TypeScript; Luau callers pass plain strings.
		const submit = blocks.get("Leaderboards")!.find((member) => member.name === "submit")!;
		expect(submit.text).toMatch("^%(self: Leaderboards, board: string, ");
		const boards = surface.Leaderboards.map((member) => member.name);
		for (const call of ["submit", "top", "scores", "names", "flushNow", "destroy", "Stats"])
			expect(boards).toContain(call);
	});

	it("the client's types (ClientTypes.luau) are its declarations, and observe's connection is its own type", () => {
		const { surface, exported } = (
			HttpService.JSONDecode(gate!.readFile("dist/checks/luau-types.json")!) as {
				client: { surface: Record<string, DeclaredMember[]>; exported: string[] };
			}
		).client;
		const text = gate!.readFile("dist/wally/src/ClientTypes.luau")!;
		const blocks = luauBlocks(text);
		for (const name of ["BoardsClient", "RowsConnection", "MountedBoard", "WorldBoardOptions"])
			expect(exported).toContain(name);
		for (const name of exported) expect(text).toMatch(`\nexport type ${name}[<%s]`);
		for (const [name, members] of pairs(surface)) {
			expect(`${name}: ${blocks.get(name) !== undefined}`).toBe(`${name}: true`);
			expect(membersOf(blocks.get(name)!)).toEqual(members);
		}
		// Luau: local connection = Client.LeaderboardsClient.observe("Kills", fn); connection:Disconnect().
		const observe = blocks.get("BoardsClient")!.find((member) => member.name === "observe")!;
		expect(observe.text).toBe("(board: string, fn: RowsObserver) -> RowsConnection");
		expect(blocks.get("RowsConnection")).toEqual([{ name: "Disconnect", text: "(self: RowsConnection) -> ()" }]);
	});

	it("no field's type takes a self, in the package's, the stage author's and the client's types", () => {
		for (const file of ["Types", "ExtendTypes", "ClientTypes"])
			expect(strayingSelf(luauBlocks(gate!.readFile(`dist/wally/src/${file}.luau`)!))).toEqual([]);
	});

	it("the checks catch a drifted type: a member missing, an optional lost, a method without self", () => {
		const blocks = luauBlocks(
			'export type T = {\n\ta: number?,\n\tb: (self: T, x: number, y: { [string]: number }) -> string?,\n\t["end"]: ((x: number) -> ())?,\n\tc: (x: number) -> number?,\n}\n',
		);
		const members = blocks.get("T")!;
		expect(members.map((member) => member.name)).toEqual(["a", "b", "end", "c"]);
		expect(members.map((member) => optional(member.text))).toEqual([true, false, true, false]);
		expect(members.map((member) => methodParameters(member.text))).toEqual([undefined, 2, undefined, undefined]);
		// The drift this check was written for: observe's connection typed as an inline table whose method took
		// BoardsClient as its self.
		const drifted = luauBlocks(
			"export type BoardsClient = {\n\tobserve: (board: string, fn: RowsObserver) -> ({ Disconnect: (self: BoardsClient) -> () }),\n\trows: (board: string) -> { SentRow },\n}\n",
		);
		expect(strayingSelf(drifted)).toEqual([
			"BoardsClient.observe: (board: string, fn: RowsObserver) -> ({ Disconnect: (self: BoardsClient) -> () })",
		]);
		expect(strayingSelf(blocks)).toEqual([]);
	});

	it("the types load in strict mode, the entry re-exports them and `wally install`'s link forwards them", () => {
		const text = luau();
		expect(text.sub(1, 9)).toBe("--!strict");
		const entry = gate!.readFile("dist/wally/src/init.luau")!;
		expect(entry.sub(1, 9)).toBe("--!strict");
		const link = gate!.readFile("dist/consumers/luau/ServerPackages/Leaderboards.lua")!;
		for (const name of declared().exported) {
			expect(entry).toMatch(`\nexport type ${name}[<%s]`);
			expect(link).toMatch(`\nexport type ${name}[<%s]`);
		}
		// A strict game module annotated with the forwarded types loads and runs.
		const server = gate!.newServer("dist/consumers/luau/default.project.json");
		const scripts = server.game.GetService("ServerScriptService");
		const packages = scripts.WaitForChild("ServerPackages");
		server.require(
			packages
				.WaitForChild("_Index")
				.GetChildren()[0]
				.WaitForChild("leaderboards")
				.WaitForChild("Types") as ModuleScript,
		);
		const podium = server.require(scripts.WaitForChild("Typed").WaitForChild("Podium") as ModuleScript) as {
			attach: (kernel: Kernel) => {
				submit: (self: unknown, board: string, key: string, value: number) => boolean;
				_flush: (self: unknown) => void;
			};
			of: (boards: unknown, board: string) => string[];
		};
		const { Kernel: KernelClass } = server.require(packages.WaitForChild("Leaderboards") as ModuleScript) as {
			Kernel: new (options: object) => Kernel;
		};
		const boards = podium.attach(new KernelClass({ bindToClose: false }));
		for (const [key, value] of [
			["a", 3],
			["b", 9],
			["c", 5],
			["d", 1],
		] as const)
			boards.submit(boards, "Kills", key, value);
		boards._flush(boards);
		expect(podium.of(boards, "Kills")).toEqual(["1. b 9", "2. c 5", "3. a 3"]);
	});

	it("the package is the API: what a game uses, no tuning constant or stage internal", () => {
		const fields = luauBlocks(luau())
			.get("Package")!
			.map((member) => member.name);
		fields.sort();
		// The kernel and its helpers, the boards, the two backends, the topics and the drain's error texts;
		// Extend, what a game's own stage uses; Client, what a client uses.
		expect(fields).toEqual([
			"Bus",
			"Client",
			"DEADLINE_EXCEEDED",
			"Extend",
			"Kernel",
			"Leaderboards",
			"Logger",
			"MemoryStore",
			"NO_PROGRESS",
			"Priority",
			"SHORT_SUFFIXES",
			"Scheduler",
			"SingleFlight",
			"Topics",
			"attach",
			"format",
			"join",
			"memoryStoreBackend",
			"orderedDataStoreBackend",
			"sleep",
		]);
		for (const name of ["Warnings", "Store", "SubjectKey"]) expect(declared().exported).never.toContain(name);
	});

	it("what the types promise is what the runtime has: every Package field, and every boards method", () => {
		const blocks = luauBlocks(luau());
		const server = gate!.newServer("dist/consumers/luau/default.project.json");
		const packages = server.game.GetService("ServerScriptService").WaitForChild("ServerPackages");
		const module = server.require(packages.WaitForChild("Leaderboards") as ModuleScript) as Record<string, unknown>;
		const fields = blocks.get("Package")!.map((member) => member.name);
		const runtime = new Array<string>();
		for (const [name] of pairs(module)) runtime.push(name as string);
		fields.sort();
		runtime.sort();
		expect(runtime).toEqual(fields);

		const kernel = new (module.Kernel as new (options: object) => Kernel)({ bindToClose: false });
		const attach = module.attach as (kernel: Kernel, options: object) => Record<string, unknown>;
		const boards = attach(kernel, { Boards: { Kills: {} }, SkipLoop: true });
		for (const member of blocks.get("Leaderboards")!) {
			const kind = methodParameters(member.text) !== undefined ? "function" : typeOf(boards[member.name]);
			expect(`${member.name}: ${typeOf(boards[member.name])}`).toBe(`${member.name}: ${kind}`);
		}
	});
});
