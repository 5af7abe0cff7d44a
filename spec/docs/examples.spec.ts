import { describe, expect, it } from "@rbxts/jest-globals";
import { Kernel } from "../../kernel";
import * as Package from "../../plugins/leaderboards";
import { headlessGate } from "../gate/control";

// The Luau examples of the API reference (docs/reference.md's `<!-- fragment -->` blocks, which the
// docs check cannot run as files): each runs as a game's script would, on a started kernel with
// the Kills and DailyKills boards the page names, its free names given; a line ending in a quoted
// result (`Leaderboards.format(1.23e45) -- "1.23e45"`) must give it.
const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

declare const loadstring: (source: string, chunkName: string) => LuaTuple<[Callback | undefined, string?]>;

const FREE = [
	"Leaderboards",
	"kernel",
	"boards",
	"player",
	"kills",
	"userId",
	"cheaterUserId",
	"label",
	"render",
	"grantBadges",
	"announce",
	"expect",
];

interface Example {
	readonly section: string;
	readonly code: string;
}

// Every `<!-- fragment -->` Lua block, with the `###` section it is under.
function examples(page: string): Example[] {
	const found = new Array<Example>();
	let section = "";
	let marked = false;
	let code: string[] | undefined;
	for (const line of page.split("\n")) {
		if (code) {
			if (line.sub(1, 3) === "```") {
				found.push({ section, code: code.join("\n") });
				code = undefined;
			} else code.push(line);
		} else if (line.sub(1, 4) === "### ") section = line.sub(5);
		else if (line === "<!-- fragment -->") marked = true;
		else if (marked && line === "```lua") code = [];
		else if (line !== "") marked = false;
	}
	return found;
}

// Runs `code` with the free names bound; what it returns.
function run(example: Example, code: string, names: unknown[]): unknown {
	const [chunk, problem] = loadstring(`local ${FREE.join(", ")} = ...\n${code}`, `reference: ${example.section}`);
	expect(problem).toBeUndefined();
	return chunk!(...names);
}

describeGate("the API reference's Luau examples", () => {
	const page = gate!.readFile("docs/reference.md")!;

	it("finds the examples", () => {
		expect(examples(page).size()).toBeGreaterThan(15);
	});

	for (const example of examples(page))
		it(`${example.section}: runs, and gives the results its comments quote`, () => {
			gate!.reset();
			const kernel = new Kernel({ bindToClose: false });
			// The attach example attaches its own boards.
			const own = example.code.find("Leaderboards.attach(", 1, true)[0] !== undefined;
			const boards = own
				? undefined
				: Package.attach(kernel, { Boards: { Kills: {}, DailyKills: { Reset: "Daily", Sum: true } } });
			if (!own) kernel.start();
			gate!.users.register(7, "ada", "Ada");
			const player = gate!.players.join({ UserId: 7, Name: "ada", DisplayName: "Ada" });
			const label = { Text: "" };
			const ignore = () => {};
			const names = [Package, kernel, boards, player, 5, 7, 7, label, ignore, ignore, ignore, expect];
			run(example, example.code, names);
			const lines = example.code.split("\n");
			lines.forEach((line, index) => {
				const [expression, quoted] = line.match('^(.-)%s*%-%-%s*"(.*)"%s*$') as LuaTuple<[string?, string?]>;
				if (expression === undefined || expression.sub(1, 6) === "local ") return;
				const before = lines.filter((_, i) => i < index).join("\n");
				expect(`${expression} -> ${run(example, `${before}\nreturn ${expression}`, names)}`).toBe(
					`${expression} -> ${quoted}`,
				);
			});
			kernel.stop();
		});
});
