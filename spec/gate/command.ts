// The command lines of the gate's programs (npm run bench, demo, soak): one
// parser, so every program reads flags the same way, the way the gate's own
// command line does (spec/gate/command.mjs, the same rules in Node):
// --help or -h prints the usage and exits 0; --flag value and --flag=value;
// integers are decimal digits only (no 1e1, no 0x10); an unknown flag, a
// stray argument or a bad value is a usage error: exit 2, the message on stderr,
// with the flag a near miss most likely meant ("did you mean --servers?").

import type { HeadlessGate } from "./control";
import { count } from "./format";

/** One flag of a program. Without `value` it is a switch (true when given). */
export interface Flag {
	/** The flag's name without its dashes: "seeds" for --seeds. */
	readonly name: string;
	/** The placeholder the usage shows ("N"); absent for a switch. */
	readonly value?: string;
	/** "integer" (decimal digits), "number" (decimal, with an optional fraction) or "choice"; "integer" when a value is taken and no kind is given. */
	readonly kind?: "integer" | "number" | "choice";
	readonly min?: number;
	readonly max?: number;
	readonly choices?: ReadonlyArray<string>;
	readonly help: string;
	/** Shown in the usage as "(default X)". */
	readonly fallback?: number | string;
	/** Flags that cannot be given with this one (a usage error naming both). */
	readonly excludes?: ReadonlyArray<string>;
}

/** A program: its name in messages, how it is started, what it does, its flags. */
export interface Command {
	readonly program: string;
	/** How a user starts it: "npm run bench --". */
	readonly invocation: string;
	/** Lines under the usage line. */
	readonly about: ReadonlyArray<string>;
	readonly flags: ReadonlyArray<Flag>;
}

/** A flag's value: a number for integer and number flags, a string for a choice, true for a switch. */
export type FlagValue = number | string | boolean;

export type Parsed = { values: Map<string, FlagValue> } | { help: true } | { problem: string };

const HELP = "  --help, -h        this text";

/** The --help text: the ranges printed are the ranges parse() enforces. */
export function usage(command: Command): string {
	const lines = [`usage: ${command.invocation} [options]`, "", ...command.about, ""];
	for (const flag of command.flags) {
		const left = `  --${flag.name}${flag.value !== undefined ? ` ${flag.value}` : ""}`;
		const range =
			flag.min !== undefined && flag.max !== undefined ? `, ${count(flag.min)} to ${count(flag.max)}` : "";
		const choices = flag.choices ? ` (${flag.choices.join(" or ")})` : "";
		const fallback =
			flag.fallback !== undefined
				? ` (default ${typeIs(flag.fallback, "number") ? count(flag.fallback) : flag.fallback})`
				: "";
		const pad = string.rep(" ", math.max(1, 20 - left.size()));
		// Wrapped at words under the help column, so every line fits 80 columns.
		let line = `${left}${pad}`;
		let fresh = true;
		for (const [piece] of `${flag.help}${choices}${range}${fallback}`.gmatch("%S+")) {
			const word = piece as string;
			if (!fresh && line.size() + 1 + word.size() > 80) {
				lines.push(line);
				line = `${string.rep(" ", 20)}${word}`;
			} else line = fresh ? `${line}${word}` : `${line} ${word}`;
			fresh = false;
		}
		lines.push(line);
	}
	lines.push(HELP);
	return lines.join("\n");
}

// Decimal digits, with a fraction for "number": tonumber alone also takes 1e1, 0x10, inf and nan.
function decimal(text: string, kind: "integer" | "number"): number | undefined {
	const whole = text.match("^%d+$")[0] !== undefined;
	const fraction = text.match("^%d*%.%d+$")[0] !== undefined;
	return whole || (kind === "number" && fraction) ? tonumber(text) : undefined;
}

function readValue(flag: Flag, text: string): { value: FlagValue } | { problem: string } {
	const kind = flag.kind ?? "integer";
	if (kind === "choice") {
		const choices = flag.choices ?? [];
		const choice = choices.find((candidate) => candidate.lower() === text.lower());
		return choice !== undefined
			? { value: choice }
			: { problem: `--${flag.name} must be ${choices.join(" or ")}, not ${text}` };
	}
	const value = decimal(text, kind);
	const range =
		flag.min !== undefined && flag.max !== undefined ? ` from ${count(flag.min)} to ${count(flag.max)}` : "";
	const within =
		value !== undefined &&
		!(flag.min !== undefined && value < flag.min) &&
		!(flag.max !== undefined && value > flag.max);
	if (value === undefined || !within)
		return {
			problem: `--${flag.name} must be ${kind === "integer" ? "a whole number" : "a number"}${range}, not ${text}`,
		};
	return { value };
}

// Levenshtein: insertions, deletions and substitutions.
function editDistance(a: string, b: string): number {
	let row = new Array<number>();
	for (let j = 0; j <= b.size(); j++) row.push(j);
	for (let i = 1; i <= a.size(); i++) {
		const below = [i];
		for (let j = 1; j <= b.size(); j++) {
			const same = a.sub(i, i) === b.sub(j, j);
			below.push(math.min(row[j] + 1, below[j - 1] + 1, row[j - 1] + (same ? 0 : 1)));
		}
		row = below;
	}
	return row[b.size()];
}

/** The flag a near-miss `name` most likely meant: one that starts with it, or within two edits of it. */
export function nearest(name: string, flags: ReadonlyArray<Flag>): string | undefined {
	let best: string | undefined;
	let bestDistance = 3;
	for (const flag of flags) {
		const distance = flag.name.sub(1, name.size()) === name ? 1 : editDistance(name, flag.name);
		if (distance < bestDistance && distance < name.size()) {
			best = flag.name;
			bestDistance = distance;
		}
	}
	return best;
}

// "unknown option --sever (did you mean --servers?)" (spec/gate/command.mjs says the same).
function unknownOption(name: string, flags: ReadonlyArray<Flag>): string {
	const guess = nearest(name, flags);
	return `unknown option --${name}${guess !== undefined ? ` (did you mean --${guess}?)` : ""}`;
}

/** Reads a program's arguments; the first mistake is named. --help wins over any mistake. */
export function parse(command: Command, args: ReadonlyArray<string>): Parsed {
	if (args.includes("--help") || args.includes("-h")) return { help: true };
	const values = new Map<string, FlagValue>();
	for (let i = 0; i < args.size(); i++) {
		const arg = args[i];
		if (arg.sub(1, 1) !== "-" || arg === "--") return { problem: `unexpected argument ${arg}` };
		if (arg.sub(1, 2) !== "--") return { problem: `unknown option ${arg}` };
		const [name, inline] = arg.match("^%-%-([^=]+)=(.*)$") as LuaTuple<[string?, string?]>;
		const flag = command.flags.find((candidate) => candidate.name === (name ?? arg.sub(3)));
		if (!flag) return { problem: unknownOption(name ?? arg.sub(3), command.flags) };
		if (flag.value === undefined) {
			if (inline !== undefined) return { problem: `--${flag.name} takes no value` };
			values.set(flag.name, true);
			continue;
		}
		let text = inline;
		if (text === undefined) {
			const following = args[i + 1];
			if (following === undefined || following.sub(1, 2) === "--")
				return { problem: `--${flag.name} needs a value` };
			text = following;
			i += 1;
		}
		const read = readValue(flag, text);
		if ("problem" in read) return read;
		values.set(flag.name, read.value);
	}
	for (const flag of command.flags)
		for (const other of flag.excludes ?? [])
			if (values.has(flag.name) && values.has(other))
				return { problem: `--${flag.name} and --${other} cannot go together: give one` };
	return { values };
}

/**
 * Runs a program by the conventions: --help to stdout (exit 0), a usage error to
 * stderr (exit 2), otherwise `run` with the values read (its exit code).
 */
export function runCommand(
	gate: HeadlessGate,
	command: Command,
	args: ReadonlyArray<string>,
	run: (values: Map<string, FlagValue>) => number,
): number {
	const parsed = parse(command, args);
	if ("help" in parsed) {
		gate.write(usage(command));
		return 0;
	}
	if ("problem" in parsed) {
		gate.writeError(`${command.program}: ${parsed.problem}\n${command.invocation} --help lists the options`);
		return 2;
	}
	return run(parsed.values);
}
