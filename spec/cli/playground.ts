import { headlessGate } from "../gate/control";
import { Command, runCommand } from "../gate/command";
import { playGame } from "./game";
import { KEY, READ_SCOPES, UNIVERSE, WRITE_SCOPES } from "./tool";

// A game to try the moderation tool on, with no Roblox account: the spec's game (spec/cli/game.ts)
// in the gate, its Open Cloud served on 127.0.0.1 at wall-clock speed for a while.
//
//   node spec/gate/run.mjs --main ServerScriptService.Leaderboards.spec.cli.playground -- --port 8931
//   LEADERBOARDS_BASE_URL=http://127.0.0.1:8931 LEADERBOARDS_API_KEY=gate-key-0123456789abcdef \
//     LEADERBOARDS_UNIVERSE_ID=4242 node cli/bin/leaderboards.mjs top Kills

const PLAYGROUND: Command = {
	program: "playground",
	invocation: "node spec/gate/run.mjs --main ServerScriptService.Leaderboards.spec.cli.playground --",
	about: [
		"Plays spec/cli/game.ts's game in the gate and serves its Open Cloud on 127.0.0.1 for the",
		"moderation tool (cli/) to try, the clock at wall speed, until the minutes are up.",
	],
	flags: [
		{
			name: "port",
			value: "N",
			kind: "integer",
			min: 0,
			max: 65535,
			help: "the port (0: any free one)",
			fallback: 8931,
		},
		{ name: "minutes", value: "N", kind: "integer", min: 1, max: 600, help: "how long to serve", fallback: 30 },
	],
};

export function main(args: string[]): number {
	const gate = headlessGate();
	if (!gate) error("the playground runs in the headless gate");
	return runCommand(gate, PLAYGROUND, args, (values) => {
		gate.reset();
		playGame(gate);
		const [served, port] = pcall(() =>
			gate.front.serve({
				universe: UNIVERSE,
				keys: { [KEY]: [...READ_SCOPES, ...WRITE_SCOPES], "read-only-key": READ_SCOPES },
				pace: "always",
				port: (values.get("port") as number | undefined) ?? 8931,
			}),
		);
		if (!served) {
			gate.writeError(`playground: ${port} (--port picks another)`);
			return 1;
		}
		const minutes = (values.get("minutes") as number | undefined) ?? 30;
		gate.write(
			`Open Cloud for universe ${UNIVERSE} on http://127.0.0.1:${port} for ${minutes} minutes. In a shell:`,
		);
		gate.write(`  export LEADERBOARDS_BASE_URL=http://127.0.0.1:${port} LEADERBOARDS_UNIVERSE_ID=${UNIVERSE}`);
		gate.write(`  export LEADERBOARDS_API_KEY=${KEY}   # read-only-key has the read scopes alone`);
		gate.write("  node cli/bin/leaderboards.mjs boards");
		task.wait(minutes * 60);
		gate.front.stop();
		return 0;
	});
}
