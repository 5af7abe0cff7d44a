// The command line: `leaderboards <command> <arguments> [options]`, read with
// Node's util.parseArgs, by the conventions of the project's programs
// (docs/testing.md, "Command lines"): --help and -h print the usage on stdout and
// exit 0; --flag value and --flag=value; whole numbers are decimal digits only;
// an unknown option or a bad value is a usage error: exit 2, the message on stderr.

import { parseArgs } from "node:util";
import { CONTRACT } from "./contract.mjs";

export const NAME = "leaderboards";

/**
 * A flag: boolean without `value`, else a string read as its `kind` says.
 * @typedef {{ name: string, value?: string, kind?: "string" | "integer" | "number" | "choice",
 *   min?: number, max?: number, choices?: string[], help: string }} Flag
 */
/**
 * A command: its one-line summary, synopsis, text, positional arguments and own flags.
 * @typedef {{ short: string, synopsis: string, about: string, args: string[], options: Flag[] }} Command
 */
/**
 * Every flag's value, as read.
 * @typedef {{ universe?: string, "api-key"?: string, prefix?: string, share?: number, players?: number,
 *   json?: boolean, "base-url"?: string, period?: string, count?: number, limit?: number, yes?: boolean,
 *   "dry-run"?: boolean, "all-periods"?: boolean, format?: "csv" | "json", output?: string,
 *   periods?: boolean }} Values
 */
/**
 * What `parse` read: a command to run, a request for help, or a usage problem (`usage`: print it too).
 * @typedef {{ command: CommandName, values: Values, args: Record<string, string> }
 *   | { help: true, command?: CommandName } | { problem: string, usage?: boolean }} Parsed
 */
/** @typedef {keyof typeof COMMANDS} CommandName */

/** @type {Flag} */
const PERIOD = {
	name: "period",
	value: "P",
	help: 'current (default), previous or an id ("2026-12-06")',
};
/** @type {Flag[]} */
const CONFIRM = [
	{ name: "yes", help: "do it without asking" },
	{ name: "dry-run", help: "only show what would be done" },
];

/** Options every command takes. @type {Flag[]} */
export const COMMON = [
	{ name: "universe", value: "ID", help: "the experience's universe id (or LEADERBOARDS_UNIVERSE_ID)" },
	{
		name: "api-key",
		value: "KEY",
		help: "the key; prefer LEADERBOARDS_API_KEY",
	},
	{ name: "prefix", value: "P", help: `the game's StorePrefix (default "${CONTRACT.Names.StorePrefix}")` },
	{
		name: "share",
		value: "F",
		kind: "number",
		min: 0.01,
		max: 1,
		help: "the share of the budgets the tool may spend (default 0.1)",
	},
	{
		name: "players",
		value: "N",
		kind: "integer",
		min: 0,
		max: 10_000_000,
		help: "concurrent players the budgets count (default 0)",
	},
	{ name: "json", help: "print JSON for scripts" },
	{ name: "base-url", value: "URL", help: "Open Cloud's address (default https://apis.roblox.com)" },
];

// Which id <user> is (players/users.md: a player new to a game since 2026-06 has an id scoped to it).
const USER_ID = [
	"<user> is the key the game stored: the id the user has in this game",
	"(player.UserId, player.User.Id), not one from another game or an OAuth app.",
].join("\n");

/** @satisfies {Record<string, Command>} */
export const COMMANDS = {
	top: {
		short: "the best rows of a board",
		synopsis: "top <board> [--period P] [--count N]",
		about: "The best rows of a board: rank, user, value (decoded as the game shows it).",
		args: ["board"],
		options: [
			PERIOD,
			{ name: "count", value: "N", kind: "integer", min: 1, max: 10_000, help: "rows to show (default 10)" },
		],
	},
	rank: {
		short: "a user's rank and value on a board",
		synopsis: "rank <board> <user> [--period P] [--limit N]",
		about: `A user's value and rank on a board: 1 + the rows strictly better.\n${USER_ID}`,
		args: ["board", "user"],
		options: [
			PERIOD,
			{
				name: "limit",
				value: "N",
				kind: "integer",
				min: 1,
				max: 1_000_000,
				help: "count at most N better rows (default 10,000)",
			},
		],
	},
	show: {
		short: "every board and period that holds a user",
		synopsis: "show <user>",
		about: `Every board and period that holds a user, and the value there.\n${USER_ID}`,
		args: ["user"],
		options: [],
	},
	remove: {
		short: "removes a user from a board (asks first)",
		synopsis: "remove <board> <user> [--period P | --all-periods] [--yes] [--dry-run]",
		about: `Removes a user from a board: the current period, the one named, or every period.\n${USER_ID}`,
		args: ["board", "user"],
		options: [PERIOD, { name: "all-periods", help: "every period the manifest lists" }, ...CONFIRM],
	},
	erase: {
		short: "erases a user from every board, resumable (asks first)",
		synopsis: "erase <user> [--yes] [--dry-run]",
		about: [
			"Erases a user from every board and period as the game's own erasure does:",
			"the manifest's erasure:<user> record first, then each store, the record",
			"kept up to date. Run it again to resume an erasure that stopped.",
			USER_ID,
		].join("\n"),
		args: ["user"],
		options: CONFIRM,
	},
	export: {
		short: "every row of a board as CSV or JSON",
		synopsis: "export <board> --format csv|json [--period P] [--output FILE]",
		about: "Every row of a board, best first; a progress bar on a terminal.",
		args: ["board"],
		options: [
			{ name: "format", value: "F", kind: "choice", choices: ["csv", "json"], help: "csv or json (required)" },
			PERIOD,
			{ name: "output", value: "FILE", help: "write to FILE instead of stdout" },
		],
	},
	boards: {
		short: "the boards the manifest lists",
		synopsis: "boards [--periods]",
		about: "The boards the manifest lists: backend, encoding, reset, today's store.",
		args: [],
		options: [{ name: "periods", help: "list every period of each Reset board (a read each)" }],
	},
};

/** @param {Flag[]} flags */
function flagLines(flags) {
	return flags.map((flag) => {
		const left = `  --${flag.name}${flag.value ? ` ${flag.value}` : ""}`;
		return `${left}${" ".repeat(Math.max(1, 22 - left.length))}${flag.help}`;
	});
}

const ENVIRONMENT = [
	"Environment: LEADERBOARDS_API_KEY (the key, never printed),",
	"LEADERBOARDS_UNIVERSE_ID, LEADERBOARDS_BASE_URL.",
	"Exit codes: 0 done, 1 failed, declined or not found, 2 usage error.",
];

/**
 * The usage of the tool, or of one command.
 * @param {CommandName} [command]
 */
export function usage(command) {
	if (!command) {
		return [
			`usage: ${NAME} <command> [arguments] [options]`,
			"",
			"Moderates a game's Leaderboards from outside the game, through Open Cloud.",
			"",
			"Commands:",
			...Object.values(COMMANDS).flatMap((c) => [`  ${c.synopsis}`, `      ${c.short}`]),
			"",
			"Options every command takes:",
			...flagLines(COMMON),
			`${"  --help, -h".padEnd(22)}this text (${NAME} <command> --help: the command's)`,
			"",
			...ENVIRONMENT,
		].join("\n");
	}
	/** @type {Command} */
	const spec = COMMANDS[command];
	const line = `usage: ${NAME} ${command} ${spec.args.map((arg) => `<${arg}> `).join("")}[options]`;
	const lines = [line, "", ...spec.about.split("\n"), ""];
	if (spec.options.length > 0) lines.push(...flagLines(spec.options), "");
	lines.push("Options every command takes:", ...flagLines(COMMON), `${"  --help, -h".padEnd(22)}this text`, "");
	lines.push(...ENVIRONMENT);
	return lines.join("\n");
}

/**
 * @param {Flag} flag
 * @param {string} text
 * @returns {{ value: string | number } | { problem: string }}
 */
function readValue(flag, text) {
	const kind = flag.kind ?? "string";
	if (kind === "string") return { value: text };
	if (kind === "choice") {
		const choices = flag.choices ?? [];
		const choice = choices.find((candidate) => candidate === text.toLowerCase());
		return choice ? { value: choice } : { problem: `--${flag.name} must be ${choices.join(" or ")}, not ${text}` };
	}
	const pattern = kind === "integer" ? /^\d+$/ : /^(\d+|\d*\.\d+)$/;
	const value = pattern.test(text) ? Number(text) : undefined;
	const [min, max] = [flag.min ?? 0, flag.max ?? Infinity];
	if (value === undefined || value < min || value > max)
		return {
			problem: `--${flag.name} must be ${kind === "integer" ? "a whole number" : "a number"} from ${min.toLocaleString("en-US")} to ${max.toLocaleString("en-US")}, not ${text}`,
		};
	return { value };
}

/**
 * Reads a command's arguments: { command, values, args } or { help, command? } or
 * { problem } (a usage error).
 * @param {string[]} argv
 * @returns {Parsed}
 */
export function parse(argv) {
	const [command, ...rest] = argv;
	const commands = Object.keys(COMMANDS);
	if (command === "--help" || command === "-h") return { help: true };
	if (command === undefined) return { problem: `no command: give one of ${commands.join(", ")}`, usage: true };
	if (command.startsWith("-")) return { problem: `a command comes first (${commands.join(", ")})` };
	if (!isCommand(command))
		return { problem: `unknown command ${command}${guess(command, commands, "")} (${commands.join(", ")})` };
	/** @type {Command} */
	const spec = COMMANDS[command];
	const flags = [...spec.options, ...COMMON];
	/** @type {import("node:util").ParseArgsConfig["options"] & {}} */
	const options = { help: { type: "boolean", short: "h" } };
	for (const flag of flags) options[flag.name] = { type: flag.value ? "string" : "boolean" };
	let parsed;
	try {
		parsed = parseArgs({ args: rest, options, allowPositionals: true, strict: true });
	} catch (error) {
		return { problem: problemOf(error, flags) };
	}
	if (parsed.values.help) return { help: true, command };
	/** @type {Record<string, string | number | boolean>} */
	const values = {};
	for (const flag of flags) {
		const given = parsed.values[flag.name];
		if (given === undefined) continue;
		if (!flag.value) {
			values[flag.name] = given === true;
			continue;
		}
		const read = readValue(flag, String(given));
		if ("problem" in read) return read;
		values[flag.name] = read.value;
	}
	const args = parsed.positionals;
	if (args.length !== spec.args.length)
		return {
			problem:
				args.length < spec.args.length
					? `${command} needs ${spec.args.map((arg) => `<${arg}>`).join(" ")}`
					: `${command} takes ${spec.args.length} argument${spec.args.length === 1 ? "" : "s"}, not ${args.join(" ")}`,
		};
	return {
		command,
		values: /** @type {Values} */ (values),
		args: Object.fromEntries(spec.args.map((name, i) => [name, args[i]])),
	};
}

/**
 * @param {string} name
 * @returns {name is CommandName}
 */
function isCommand(name) {
	return Object.hasOwn(COMMANDS, name);
}

/**
 * util.parseArgs's errors in the words of the project's programs; a near miss names the flag meant.
 * @param {any} error util.parseArgs's (a TypeError with a code)
 * @param {Flag[]} flags
 * @returns {string}
 */
function problemOf(error, flags) {
	const option = /'(-{1,2}[^' ]+)/.exec(error.message)?.[1];
	switch (error.code) {
		case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
			return option
				? `unknown option ${option}${guess(option.replace(/^-+/, ""), [...flags.map((flag) => flag.name), "help"], "--")}`
				: `unknown option ${error.message}`;
		case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE":
			return /does not take an argument/.test(error.message)
				? `${option} takes no value`
				: `${option ?? "an option"} needs a value`;
		default:
			return error.message;
	}
}

/**
 * Edits (insertions, deletions, substitutions, a swap of neighbours) from one word to another.
 * @param {string} a
 * @param {string} b
 */
function distance(a, b) {
	const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
	for (let j = 1; j <= b.length; j++) rows[0][j] = j;
	for (let i = 1; i <= a.length; i++)
		for (let j = 1; j <= b.length; j++) {
			const cost = a[i - 1] === b[j - 1] ? 0 : 1;
			rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
				rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
		}
	return rows[a.length][b.length];
}

/**
 * ": did you mean <prefix><name>?" for the closest name a typo's length allows (a third of it, 1 at least), else "".
 * @param {string} word
 * @param {string[]} names
 * @param {string} prefix
 */
function guess(word, names, prefix) {
	const allowed = Math.max(1, Math.floor(word.length / 3));
	/** @type {{ name: string, edits: number } | undefined} */
	let best;
	for (const name of names) {
		const edits = distance(word.toLowerCase(), name);
		if (edits <= allowed && (!best || edits < best.edits)) best = { name, edits };
	}
	return best ? `: did you mean ${prefix}${best.name}?` : "";
}
