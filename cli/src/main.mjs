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

const RUN = { top, rank, show, remove, erase, export: exportBoard, boards };
const DEFAULT_BASE_URL = "https://apis.roblox.com";
const DEFAULT_SHARE = 0.1;

/**
 * Runs the tool on `argv` (without node and the script); returns the exit code:
 * 0 done, 1 failed or declined, 2 usage error.
 */
export async function main(
	argv,
	{ env = process.env, stdout = process.stdout, stderr = process.stderr, stdin = process.stdin } = {},
) {
	const parsed = parse(argv);
	const usageError = (problem) => {
		stderr.write(`${NAME}: ${problem}\n${NAME} --help lists the commands and options\n`);
		return 2;
	};
	if (parsed.help) {
		stdout.write(`${usage(parsed.command)}\n`);
		return 0;
	}
	// No command at all: the usage, as a usage error.
	if (parsed.usage) stderr.write(`${usage()}\n\n`);
	if (parsed.problem) return usageError(parsed.problem);
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
	const note = (text) => stderr.write(`${text}\n`);
	const cloud = new Cloud({
		baseUrl: values["base-url"] ?? env.LEADERBOARDS_BASE_URL ?? DEFAULT_BASE_URL,
		apiKey,
		universe,
		pacer: new Pacer({ share: values.share ?? DEFAULT_SHARE, players: values.players ?? 0 }),
		note: (text) => note(cloud.redact(text)),
	});
	const print = {
		json: (value) => json && stdout.write(`${JSON.stringify(value, null, 2)}\n`),
		text: (text) => !json && stdout.write(`${text}\n`),
	};
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
				: String(error?.stack ?? error);
		stderr.write(`${NAME}: ${cloud.redact(message)}\n`);
		return 1;
	}
}
