import { describe, expect, it } from "@rbxts/jest-globals";
import { HttpService } from "@rbxts/services";
import { Command, parse, usage } from "./command";
import { count, counted, decimal } from "./format";

const TOOL: Command = {
	program: "tool",
	invocation: "npm run tool --",
	about: ["A tool."],
	flags: [
		{ name: "seeds", value: "N", min: 1, max: 100_000, fallback: 20, help: "seeds to run" },
		{ name: "rate", value: "R", kind: "number", min: 0, max: 0.9, help: "a share" },
		{ name: "backend", value: "B", kind: "choice", choices: ["ordered", "memorystore"], help: "where" },
		{ name: "json", help: "JSON only", excludes: ["markdown"] },
		{ name: "markdown", help: "Markdown" },
	],
};

const values = (args: string[]) => {
	const parsed = parse(TOOL, args);
	return "values" in parsed ? parsed.values : parsed;
};

describe("a gate program's command line (bench, demo, soak)", () => {
	it("--help and -h ask for the usage, even beside a mistake", () => {
		expect(parse(TOOL, ["--help"])).toEqual({ help: true });
		expect(parse(TOOL, ["-h"])).toEqual({ help: true });
		expect(parse(TOOL, ["--bogus", "--help"])).toEqual({ help: true });
	});

	it("refuses two flags one excludes, naming both, in either order", () => {
		const problem = { problem: "--json and --markdown cannot go together: give one" };
		expect(parse(TOOL, ["--json", "--markdown"])).toEqual(problem);
		expect(parse(TOOL, ["--markdown", "--json"])).toEqual(problem);
		expect("values" in parse(TOOL, ["--markdown"])).toBe(true);
	});

	it("reads --flag value and --flag=value alike", () => {
		const spaced = values(["--seeds", "30", "--rate", "0.5", "--backend", "memorystore", "--json"]);
		const joined = values(["--seeds=30", "--rate=0.5", "--backend=memorystore", "--json"]);
		expect(joined).toEqual(spaced);
		expect((spaced as Map<string, unknown>).get("seeds")).toBe(30);
		expect((spaced as Map<string, unknown>).get("json")).toBe(true);
	});

	it("takes decimal digits only for an integer: no exponent, hex, sign, fraction or inf", () => {
		for (const text of ["1e1", "0x10", "+5", "-5", "2.5", "inf", "nan", "", " 5"])
			expect(parse(TOOL, ["--seeds", text])).toEqual({
				problem: `--seeds must be a whole number from 1 to 100,000, not ${text}`,
			});
		expect(parse(TOOL, ["--rate", "1e-1"])).toEqual({ problem: "--rate must be a number from 0 to 0.9, not 1e-1" });
		expect((values(["--rate", ".25"]) as Map<string, unknown>).get("rate")).toBe(0.25);
	});

	it("names the flag a near miss most likely meant: one it begins, or one within two edits", () => {
		expect(parse(TOOL, ["--sedes", "3"])).toEqual({ problem: "unknown option --sedes (did you mean --seeds?)" });
		expect(parse(TOOL, ["--backnd=ordered"])).toEqual({
			problem: "unknown option --backnd (did you mean --backend?)",
		});
		expect(parse(TOOL, ["--jsn"])).toEqual({ problem: "unknown option --jsn (did you mean --json?)" });
		expect(parse(TOOL, ["--back"])).toEqual({ problem: "unknown option --back (did you mean --backend?)" });
		expect(parse(TOOL, ["--r"])).toEqual({ problem: "unknown option --r" });
	});

	it("wraps a long help at words under its column, every line within 80 columns", () => {
		const long: Command = {
			...TOOL,
			flags: [
				{
					name: "only",
					value: "ROWS",
					kind: "choice",
					choices: ["experiences", "server"],
					help: string.rep("word ", 20),
				},
			],
		};
		const lines = usage(long).split("\n");
		expect(lines.filter((line) => line.size() > 80)).toEqual([]);
		// 12 words fit beside the flag, 8 and "(experiences or" on the next line, "server)" on a third.
		const under = lines.filter((line) => line.sub(1, 20) === string.rep(" ", 20));
		expect(under).toEqual([
			`${string.rep(" ", 20)}${string.rep("word ", 8)}(experiences or`,
			`${string.rep(" ", 20)}server)`,
		]);
	});

	it("names every other mistake: unknown flags, stray arguments, missing and unwanted values, ranges", () => {
		expect(parse(TOOL, ["--bogus"])).toEqual({ problem: "unknown option --bogus" });
		expect(parse(TOOL, ["--bogus=1"])).toEqual({ problem: "unknown option --bogus" });
		expect(parse(TOOL, ["-x"])).toEqual({ problem: "unknown option -x" });
		expect(parse(TOOL, ["seeds"])).toEqual({ problem: "unexpected argument seeds" });
		expect(parse(TOOL, ["--seeds"])).toEqual({ problem: "--seeds needs a value" });
		expect(parse(TOOL, ["--seeds", "--json"])).toEqual({ problem: "--seeds needs a value" });
		expect(parse(TOOL, ["--json=yes"])).toEqual({ problem: "--json takes no value" });
		expect(parse(TOOL, ["--seeds", "0"])).toEqual({
			problem: "--seeds must be a whole number from 1 to 100,000, not 0",
		});
		expect(parse(TOOL, ["--backend", "redis"])).toEqual({
			problem: "--backend must be ordered or memorystore, not redis",
		});
		expect((values(["--backend", "MemoryStore"]) as Map<string, unknown>).get("backend")).toBe("memorystore");
	});

	it("prints a usage whose ranges and defaults are the ones enforced, in the one number format", () => {
		const text = usage(TOOL);
		expect(text.split("\n")[0]).toBe("usage: npm run tool -- [options]");
		expect(text).toContain("\n  --seeds N         seeds to run, 1 to 100,000 (default 20)\n");
		expect(text).toContain("\n  --backend B       where (ordered or memorystore)\n");
		expect(text).toContain("\n  --help, -h        this text");
	});
});

describe("the one number format", () => {
	it("groups thousands in every count, and a noun agrees with its count", () => {
		expect([count(0), count(999), count(1000), count(1234567), count(-4734), count(1440.5)]).toEqual([
			"0",
			"999",
			"1,000",
			"1,234,567",
			"-4,734",
			"1,440.5",
		]);
		expect([counted(1, "user"), counted(0, "user"), counted(2911, "user")]).toEqual([
			"1 user",
			"0 users",
			"2,911 users",
		]);
		expect([decimal(1234.5), decimal(3), decimal(0.1 + 0.2, 3)]).toEqual(["1,234.50", "3", "0.300"]);
	});

	it("encodes a fraction in JSON as its shortest text, as Roblox does (0.1, not 0.10000000000000001)", () => {
		expect(HttpService.JSONEncode([0.1, 0.3, 2 / 3, 1e21])).toBe("[0.1,0.3,0.6666666666666666,1e+21]");
	});
});
