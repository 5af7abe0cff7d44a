// leaderboards: moderates a game's Leaderboards from outside the game through
// Open Cloud v2, knowing the game's layout from the manifest the library writes
// (docs/manifest.md). docs/moderation-cli.md is its manual.

import { BoardError } from "./boards.mjs";
import { Cloud, CloudError } from "./cloud.mjs";
import { boards } from "./commands/boards.mjs";
import { erase } from "./commands/erase.mjs";
import { exportBoard } from "./commands/export.mjs";
import { rank } from "./commands/rank.mjs";
import { remove } from "./commands/remove.mjs";
import { show } from "./commands/show.mjs";
import { top } from "./commands/top.mjs";
import { DEFAULT_PREFIX, Manifest, ManifestError } from "./manifest.mjs";
import { NAME, parse, usage } from "./options.mjs";
import { Pacer } from "./pacing.mjs";

/**
 * What a command runs with: the clients, its arguments and flags, and where it prints.
 * @typedef {{
 *   cloud: Cloud, manifest: Manifest, args: Record<string, string>, values: import("./options.mjs").Values,
 *   print: { json: (value: unknown) => void, text: (text: string) => void },
 *   say: (text: string) => void, note: (text: string) => void, warn: (text: string) => void,
 *   stdout: NodeJS.WritableStream & { isTTY?: boolean }, stderr: NodeJS.WritableStream & { isTTY?: boolean },
 *   stdin: NodeJS.ReadableStream & { isTTY?: boolean },
 * }} Context
 */
/** @typedef {{ env?: NodeJS.ProcessEnv, stdout?: Context["stdout"], stderr?: Context["stderr"], stdin?: Context["stdin"] }} Streams */

/** @type {Record<import("./options.mjs").CommandName, (context: Context) => Promise<number>>} */
const RUN = { top, rank, show, remove, erase, export: exportBoard, boards };
const DEFAULT_BASE_URL = "https://apis.roblox.com";
const DEFAULT_SHARE = 0.1;

/**
 * Runs the tool on `argv` (without node and the script); returns the exit code:
 * 0 done, 1 failed or declined, 2 usage error.
 * @param {string[]} argv
 * @param {Streams} [streams]
 * @returns {Promise<number>}
 */
export async function main(
	argv,
	{ env = process.env, stdout = process.stdout, stderr = process.stderr, stdin = process.stdin } = {},
) {
	const parsed = parse(argv);
	/** @param {string} problem */
	const usageError = (problem) => {
		stderr.write(`${NAME}: ${problem}\n${NAME} --help lists the commands and options\n`);
		return 2;
	};
	if ("help" in parsed) {
		stdout.write(`${usage(parsed.command)}\n`);
		return 0;
	}
	if ("problem" in parsed) {
		// No command at all: the usage, as a usage error.
		if (parsed.usage) stderr.write(`${usage()}\n\n`);
		return usageError(parsed.problem);
	}
	const { command, values, args } = parsed;

	const apiKey = values["api-key"] ?? env.LEADERBOARDS_API_KEY;
	if (values["api-key"] !== undefined)
		stderr.write(
			`${NAME}: warning: --api-key leaves the key in your shell history and the process list; set LEADERBOARDS_API_KEY instead\n`,
		);
	if (!apiKey)
		return usageError(
			"no API key: set LEADERBOARDS_API_KEY (docs/moderation-cli.md says which permissions it needs)",
		);
	const universe = values.universe ?? env.LEADERBOARDS_UNIVERSE_ID;
	if (!universe) return usageError("no universe: give --universe ID or set LEADERBOARDS_UNIVERSE_ID");
	if (!/^\d+$/.test(universe)) return usageError(`the universe id is a whole number, not ${universe}`);

	const json = values.json === true;
	/** @param {string} text */
	const note = (text) => stderr.write(`${text}\n`);
	const cloud = new Cloud({
		baseUrl: values["base-url"] ?? env.LEADERBOARDS_BASE_URL ?? DEFAULT_BASE_URL,
		apiKey,
		universe,
		pacer: new Pacer({ share: values.share ?? DEFAULT_SHARE, players: values.players ?? 0 }),
		note: (text) => note(cloud.redact(text)),
	});
	/** @type {Context["print"]} */
	const print = {
		json: (value) => json && stdout.write(`${JSON.stringify(value, null, 2)}\n`),
		text: (text) => !json && stdout.write(`${text}\n`),
	};
	/** @type {Context} */
	const context = {
		cloud,
		manifest: new Manifest(cloud, values.prefix ?? DEFAULT_PREFIX),
		args,
		values,
		print,
		// Narration: stdout for a person, stderr when stdout carries JSON.
		say: (text) => (json ? note(text) : stdout.write(`${text}\n`)),
		note,
		warn: (text) => note(`${NAME}: ${text}`),
		stdout,
		stderr,
		stdin,
	};
	try {
		return await RUN[command](context);
	} catch (error) {
		if (error instanceof BoardError) return usageError(cloud.redact(error.message));
		const message =
			error instanceof CloudError || error instanceof ManifestError
				? error.message
				: String(/** @type {Error} */ (error)?.stack ?? error);
		stderr.write(`${NAME}: ${cloud.redact(message)}\n`);
		return 1;
	}
}
