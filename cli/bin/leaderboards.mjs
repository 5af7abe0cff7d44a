#!/usr/bin/env node
// npx @rbxts/leaderboards <command> ...: the moderation tool (cli/src/main.mjs).
import { main } from "../src/main.mjs";

process.exitCode = await main(process.argv.slice(2));
