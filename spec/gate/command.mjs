// The gate's own command line, by the rules every program of the gate follows
// (spec/gate/command.ts holds the same rules for bench, demo and soak; parseCommand
// reads their flags here too, so the gate refuses a bad one before it builds):
// --help or -h prints the usage and exits 0; --flag value and --flag=value;
// integers are decimal digits only (no 1e1, no 0x10); an unknown flag or a bad
// value is a usage error: exit 2, the message on stderr. Everything after `--`
// is the --main module's own arguments.

/**
 * Reads `argv` against `flags` ({ name, value?, kind?, min?, max?, choices?, repeat? }; a flag
 * without `value` is a switch). Returns { values, positional, rest } or { help: true } or { problem }.
 */
export function parse(flags, argv) {
	const dashes = argv.indexOf("--");
	const own = dashes < 0 ? argv : argv.slice(0, dashes);
	const rest = dashes < 0 ? [] : argv.slice(dashes + 1);
	if (own.includes("--help") || own.includes("-h")) return { help: true };
	const values = {};
	const positional = [];
	for (let i = 0; i < own.length; i++) {
		const arg = own[i];
		if (!arg.startsWith("-")) {
			positional.push(arg);
			continue;
		}
		const match = /^--([^=]+)(?:=(.*))?$/s.exec(arg);
		const flag = match && flags.find((candidate) => candidate.name === match[1]);
		if (!flag) return { problem: unknown(match ? match[1] : arg, flags) };
		let text = match[2];
		if (flag.value === undefined) {
			if (text !== undefined) return { problem: `--${flag.name} takes no value` };
			values[flag.name] = true;
			continue;
		}
		if (text === undefined) {
			text = own[i + 1];
			if (text === undefined || text.startsWith("--")) return { problem: `--${flag.name} needs a value` };
			i += 1;
		}
		const read = readValue(flag, text);
		if (read.problem) return read;
		if (flag.repeat) (values[flag.name] ??= []).push(read.value);
		else values[flag.name] = read.value;
	}
	return { values, positional, rest };
}

/** The flag a near-miss `name` most likely meant: one that starts with it, or within two edits of it. */
export function nearest(name, flags) {
	let best;
	let bestDistance = 3;
	for (const flag of flags) {
		const distance = flag.name.startsWith(name) ? 1 : editDistance(name, flag.name);
		if (distance < bestDistance && distance < name.length) [best, bestDistance] = [flag.name, distance];
	}
	return best;
}

// Levenshtein: insertions, deletions and substitutions.
function editDistance(a, b) {
	let row = Array.from({ length: b.length + 1 }, (_, j) => j);
	for (let i = 1; i <= a.length; i++) {
		const next = [i];
		for (let j = 1; j <= b.length; j++)
			next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
		row = next;
	}
	return row[b.length];
}

// "unknown option --sever (did you mean --servers?)"; `name` without its dashes, or a whole argument such as -x.
function unknown(name, flags) {
	if (name.startsWith("-")) return `unknown option ${name}`;
	const guess = nearest(name, flags);
	return `unknown option --${name}${guess ? ` (did you mean --${guess}?)` : ""}`;
}

/**
 * Reads a gate program's arguments (bench, demo, soak: a Command of spec/gate/command.ts, such as
 * examples/demo/command.json) by command.ts's rules, so the gate can refuse them before it builds:
 * no positional argument, and a flag taking a value is an integer unless its kind says otherwise.
 * Returns { values } or { help: true } or { problem }.
 */
export function parseCommand(command, args) {
	const flags = command.flags.map((flag) => (flag.value === undefined ? flag : { kind: "integer", ...flag }));
	if (args.includes("--help") || args.includes("-h")) return { help: true };
	// The first argument that is neither a flag nor a flag's value: what came before it is read first.
	for (let i = 0; i < args.length; i++) {
		const flag = flags.find((candidate) => args[i] === `--${candidate.name}`);
		if (flag?.value !== undefined) i += 1;
		else if (!args[i].startsWith("-") || args[i] === "--") {
			const before = parse(flags, args.slice(0, i));
			return before.problem ? before : { problem: `unexpected argument ${args[i]}` };
		}
	}
	const parsed = parse(flags, args);
	for (const flag of parsed.values ? flags : [])
		for (const other of flag.excludes ?? [])
			if (parsed.values[flag.name] !== undefined && parsed.values[other] !== undefined)
				return { problem: `--${flag.name} and --${other} cannot go together: give one` };
	return parsed;
}

function readValue(flag, text) {
	const kind = flag.kind ?? "string";
	if (kind === "string") return { value: text };
	if (kind === "choice") {
		const choice = flag.choices.find((candidate) => candidate.toLowerCase() === text.toLowerCase());
		return choice
			? { value: choice }
			: { problem: `--${flag.name} must be ${flag.choices.join(" or ")}, not ${text}` };
	}
	const pattern = kind === "integer" ? /^\d+$/ : /^(\d+|\d*\.\d+)$/;
	const value = pattern.test(text) ? Number(text) : undefined;
	const range =
		flag.min !== undefined && flag.max !== undefined ? ` from ${count(flag.min)} to ${count(flag.max)}` : "";
	if (value === undefined || value < (flag.min ?? -Infinity) || value > (flag.max ?? Infinity))
		return {
			problem: `--${flag.name} must be ${kind === "integer" ? "a whole number" : "a number"}${range}, not ${text}`,
		};
	return { value };
}

// A count as the programs print it (spec/gate/format.ts): 1,000 and 0.1.
const count = (n) => n.toLocaleString("en-US", { maximumFractionDigits: 20 });

// The usage fits this many columns: a flag's help wraps under itself.
const COLUMNS = 80;
const HELP_AT = 20;

/**
 * `text` in lines within `columns` (80), broken at spaces (a word longer than a line keeps its
 * own): the first line starts with `lead`, the others with `indent`.
 */
export function wrap(text, lead = "", indent = "  ", columns = COLUMNS) {
	const lines = [];
	let line = lead;
	let fresh = true;
	for (const word of text.split(" ")) {
		if (!fresh && line.length + 1 + word.length > columns) {
			lines.push(line);
			line = `${indent}${word}`;
		} else line = fresh ? line + word : `${line} ${word}`;
		fresh = false;
	}
	lines.push(line);
	return lines;
}

/** The --help text of `flags`, every line within 80 columns. */
export function usage(synopsis, about, flags) {
	const lines = [`usage: ${synopsis}`, "", ...about, ""];
	const row = (left, help) =>
		lines.push(...wrap(help, `${left}${" ".repeat(Math.max(1, HELP_AT - left.length))}`, " ".repeat(HELP_AT)));
	for (const flag of flags) row(`  --${flag.name}${flag.value ? ` ${flag.value}` : ""}`, flag.help);
	row("  --help, -h", "this text");
	return lines.join("\n");
}

/**
 * A gate program's --help (bench, demo, soak: a Command of spec/gate/command.ts) as its usage()
 * prints it, each flag's choices, range and default after its help, so the gate answers --help
 * without building (.ci/command.mjs checks the two texts are the same).
 */
export function commandUsage(command) {
	const flags = command.flags.map((flag) => {
		const choices = flag.choices ? ` (${flag.choices.join(" or ")})` : "";
		const range =
			flag.min !== undefined && flag.max !== undefined ? `, ${count(flag.min)} to ${count(flag.max)}` : "";
		const fallback =
			flag.fallback === undefined
				? ""
				: ` (default ${typeof flag.fallback === "number" ? count(flag.fallback) : flag.fallback})`;
		return { ...flag, help: `${flag.help}${choices}${range}${fallback}` };
	});
	return usage(`${command.invocation} [options]`, command.about, flags);
}
