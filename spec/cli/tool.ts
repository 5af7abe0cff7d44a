import { HttpService } from "@rbxts/services";
import { LayoutBoard } from "../../plugins/leaderboards/contracts/outside";
import { FrontExit, HeadlessGate } from "../gate/control";

export type { LayoutBoard };

// The moderation tool (cli/) run as a user runs it, a process outside the gate, against the gate's
// Open Cloud through the loopback HTTP front; and the manifest (docs/manifest.md) seeded as the
// library lays it out, for specs to give the tool a game's layout.

export const CLI = "cli/bin/leaderboards.mjs";
export const MAIN = "cli/src/main.mjs";
export const UNIVERSE = 4242;
/** A key the front accepts with every scope the tool uses; never to appear in the tool's output. */
export const KEY = "gate-key-0123456789abcdef";

/** The scopes the docs give for each use (docs/moderation-cli.md, "The API key"). */
export const READ_SCOPES = [
	"universe-datastores.objects:read",
	"universe.ordered-data-store.scope.entry:read",
	"memory-store.sorted-map:read",
];
export const WRITE_SCOPES = [
	"universe-datastores.objects:create",
	"universe-datastores.objects:update",
	"universe.ordered-data-store.scope.entry:write",
	"memory-store.sorted-map:write",
];

export interface ToolRun extends FrontExit {
	/** stdout as JSON, when it is. */
	json?: unknown;
}

/** Serves Open Cloud for universe UNIVERSE with KEY holding every scope the tool needs, and `extra` keys. */
export function serveTool(gate: HeadlessGate, extra: Record<string, string[]> = {}) {
	const keys: Record<string, string[]> = { [KEY]: [...READ_SCOPES, ...WRITE_SCOPES] };
	for (const [key, scopes] of pairs(extra)) keys[key as string] = scopes;
	return gate.front.serve({ universe: UNIVERSE, keys });
}

/**
 * Runs `leaderboards args...` with KEY and UNIVERSE in its environment unless told otherwise: its
 * main() called in the front's worker, or with `process`, the bin as a process of its own (what
 * npx starts; a third of a second of CPU on this machine, so specs keep those few).
 */
export function tool(
	gate: HeadlessGate,
	args: string[],
	options: { key?: string; universe?: string; input?: string; env?: Record<string, string>; process?: boolean } = {},
): ToolRun {
	const env: Record<string, string> = {
		LEADERBOARDS_API_KEY: options.key ?? KEY,
		LEADERBOARDS_UNIVERSE_ID: options.universe ?? tostring(UNIVERSE),
		...(options.env ?? {}),
	};
	const exit = options.process
		? gate.front.run([CLI, ...args], { env, input: options.input })
		: gate.front.invoke(MAIN, args, { env, input: options.input });
	const run: ToolRun = { ...exit };
	const [ok, decoded] = pcall(() => HttpService.JSONDecode(exit.stdout));
	if (ok) run.json = decoded;
	return run;
}

/** Runs several at once (each a process of its own, as several moderators would): their runs, in order. */
export function toolsAtOnce(gate: HeadlessGate, runs: string[][]): ToolRun[] {
	const results = new Map<number, ToolRun>();
	runs.forEach((args, i) => task.spawn(() => results.set(i, tool(gate, args))));
	while (results.size() < runs.size()) task.wait();
	return runs.map((_, i) => results.get(i)!);
}

/** Seeds CKBoard_Manifest (scope global) as the library writes it: layout and periods:<Storage> of Reset boards. */
export function seedManifest(
	gate: HeadlessGate,
	boards: Record<string, LayoutBoard>,
	periods: Record<string, string[]> = {},
	extra: Record<string, unknown> = {},
) {
	const entries: Record<string, unknown> = {
		layout: { Version: 1, StorePrefix: "CKBoard_", Updated: os.time(), Boards: boards },
		...extra,
	};
	for (const [storage, ids] of pairs(periods)) entries[`periods:${storage}`] = { Version: 1, Ids: ids };
	gate.dataStore.standard.seed("CKBoard_Manifest", entries as unknown as Map<string, unknown>);
}
