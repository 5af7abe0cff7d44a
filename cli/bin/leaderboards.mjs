#!/usr/bin/env node
// npx @rbxts/leaderboards <command> ...: the moderation tool (cli/src/main.mjs).
import { main } from "../src/main.mjs";

// `leaderboards export ... | head`: a reader that stops early is not a failure.
process.stdout.on("error", (error) => {
	if (error.code === "EPIPE") process.exit(0);
	throw error;
});
process.exitCode = await main(process.argv.slice(2));
