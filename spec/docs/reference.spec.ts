import { describe, expect, it } from "@rbxts/jest-globals";
import { HttpService } from "@rbxts/services";
import { Topics } from "../../plugins/leaderboards";
import { DEFAULTS } from "../../plugins/leaderboards/internal";
import { headlessGate } from "../gate/control";

// The API reference page (docs/reference.md) against the declarations: what
// the TypeScript checker lists for each public type (dist/checks/luau-types.json,
// written by .ci/package.mjs) must have its row, and each documented default
// must be the one settings applies.
const gate = headlessGate();
const describeGate = gate && gate.readFile("dist/checks/luau-types.json") !== undefined ? describe : describe.skip;

// The text under a "## " heading, its subsections included, up to the next heading of its level or above.
function section(page: string, heading: string): string {
	const [start] = page.find(`\n${heading}\n`, 1, true);
	if (start === undefined) return "";
	const rest = page.sub(start + heading.size() + 2);
	const [stop] = rest.find("\n#?# ");
	return stop === undefined ? rest : rest.sub(1, stop);
}

// The first cell of each table row: "| `FlushSeconds` | 15 | ..." -> "`FlushSeconds`".
function rows(text: string): Map<string, string[]> {
	const result = new Map<string, string[]>();
	for (const line of text.split("\n")) {
		if (line.sub(1, 2) !== "| ") continue;
		const cells = line
			.sub(3, -3)
			.split(" | ")
			.map((cell) => cell.gsub("^%s+", "")[0].gsub("%s+$", "")[0]);
		for (const [name] of cells[0].gmatch("`([%w_]+)`")) result.set(name as string, cells);
	}
	return result;
}

describeGate("the API reference page says what the code does", () => {
	const reference = gate!.readFile("docs/reference.md")!;
	const surface = (
		HttpService.JSONDecode(gate!.readFile("dist/checks/luau-types.json")!) as {
			surface: Record<string, { name: string; method: boolean }[]>;
		}
	).surface;
	const names = (declared: string) => surface[declared].map((member) => member.name);

	it("every public call and field of the boards has its section, and every section is a real member", () => {
		const api = section(reference, "## The boards");
		// Service plumbing the kernel calls, not a game.
		const plumbing = new Set(["Name", "stop"]);
		const documented = new Set<string>();
		// Each member's section opens with its signature on a line of its own: "boards:submit(board, ...".
		for (const [name] of api.gmatch("\nboards[:%.]([%w_]+)")) documented.add(name as string);
		const members = names("Leaderboards").filter((name) => !plumbing.has(name));
		const undocumented = members.filter((name) => !documented.has(name));
		expect(undocumented).toEqual([]);
		const unknown = new Array<string>();
		for (const name of documented) if (!members.includes(name)) unknown.push(name);
		expect(unknown).toEqual([]);
	});

	it("every option, BoardConfig field, ShutdownResult field and backend member has its row", () => {
		const cases: [string, string][] = [
			["LeaderboardOptions", "## Options"],
			["BoardConfig", "## BoardConfig"],
			["ShutdownResult", "## ShutdownResult"],
			["Backend", "## The backend contract"],
		];
		for (const [declared, heading] of cases) {
			const documented = rows(section(reference, heading));
			const missing = names(declared).filter((name) => !documented.has(name));
			expect(`${declared}: ${missing.join(", ")}`).toBe(`${declared}: `);
		}
	});

	it("every default in the Options and BoardConfig tables is the one attach applies", () => {
		const documented = rows(section(reference, "## Options"));
		for (const [name, cells] of rows(section(reference, "## BoardConfig"))) documented.set(name, cells);
		for (const [name, value] of pairs(DEFAULTS)) {
			const cells = documented.get(name as string);
			const shown = typeIs(value, "string") ? `\`"${value}"\`` : tostring(value);
			expect(`${name as string} = ${cells?.[1]}`).toBe(`${name as string} = ${shown}`);
		}
	});

	it("every Bus topic has its row", () => {
		const topics = section(reference, "## Bus topics");
		for (const [, topic] of pairs(Topics)) expect(topics).toContain(`| \`${topic}\` |`);
	});
});
