import { describe, expect, it } from "@rbxts/jest-globals";
import { Kernel } from "../../kernel";
import { Backend, BoardConfig, LeaderboardOptions, attach } from "../../plugins/leaderboards";
import { MemoryBackend, boardsWith } from "./doubles";

// A bad option or argument is the game's bug: every error the library raises for one names the
// game's own line (this file), never a line inside the package (settings.luau, attach.luau).

// This file's chunk name, as error positions print it ("ServerScriptService....errorsAtCaller.spec").
const HERE = debug.info(1, "s")[0];

// The message of what `call` raised: its position must be this file's.
function raised(call: () => unknown): string {
	const [ok, problem] = pcall(call);
	expect(ok).toBe(false);
	return tostring(problem);
}

function expectHere(call: () => unknown, text: string) {
	const message = raised(call);
	expect(message.sub(1, HERE.size() + 1)).toBe(`${HERE}:`);
	expect(message.find(text, 1, true)[0]).toBeDefined();
}

const kernel = () => new Kernel({ bindToClose: false });
const attachWith = (options: Partial<LeaderboardOptions>) =>
	attach(kernel(), { Boards: { Kills: {} }, SkipLoop: true, ...options } as LeaderboardOptions);

describe("errors point at the game's line", () => {
	const ATTACH: [name: string, options: Partial<LeaderboardOptions> | undefined, text: string][] = [
		["options that are not a table", undefined, "options must be a table"],
		["an unknown option", { Flush: 5 } as never, "options.Flush is not an option"],
		["a bad top-level value", { FlushSeconds: 0 }, "options.FlushSeconds must be a positive number"],
		["no boards", { Boards: {} }, "options.Boards has no boards"],
		[
			"a bad board option",
			{ Boards: { Kills: { Ascending: "yes" } as unknown as BoardConfig } },
			"options.Boards.Kills.Ascending must be a boolean",
		],
		[
			"an unknown board option",
			{ Boards: { Kills: { Reste: "Daily" } as unknown as BoardConfig } },
			"options.Boards.Kills.Reste is not an option",
		],
		["a bad Reset", { Boards: { Kills: { Reset: "Daly" as never } } }, "options.Boards.Kills.Reset must be one of"],
		[
			"a backend with no sorted()",
			{ Backend: { set: () => true } as unknown as Backend },
			"options.Backend needs sorted()",
		],
		[
			"a backend with neither submit() nor set()",
			{ Backend: { sorted: () => [] } as unknown as Backend },
			"options.Backend needs submit() or set()",
		],
		[
			"a board's own bad Backend",
			{ Boards: { Kills: { Backend: 5 as unknown as Backend } } },
			"options.Boards.Kills.Backend must be a table of functions",
		],
		[
			"a board name the store cannot hold",
			{ Boards: { [string.rep("K", 60)]: {} } },
			"makes a store name over 50 characters",
		],
		["bad Stages", { Stages: { Queue: 5 as never } }, "options.Stages.Queue must be a function"],
	];
	for (const [name, options, text] of ATTACH) {
		it(`attach: ${name}`, () => {
			if (options === undefined) expectHere(() => attach(kernel(), undefined as never), text);
			else expectHere(() => attachWith(options), text);
		});
	}

	it("attach: a second attach on one kernel", () => {
		const k = kernel();
		attach(k, { Boards: { Kills: {} }, SkipLoop: true });
		expectHere(() => attach(k, { Boards: { Kills: {} }, SkipLoop: true }), "this kernel already has boards");
	});

	const bare = (): Backend => ({ set: () => true, sorted: () => [] });

	it("a call the backend cannot serve: scores, rank, around, friends, remove", () => {
		const { boards } = boardsWith({ Backend: bare() });
		expectHere(() => boards.scores("Kills", ["a"]), "scores() needs a backend with scores()");
		expectHere(() => boards.rank("Kills", "a"), "rank() and around() need a backend with scores()");
		expectHere(() => boards.around("Kills", "a"), "rank() and around() need a backend with scores()");
		expectHere(() => boards.friends("Kills", 1), "friends() needs a backend with scores()");
		expectHere(() => boards.remove("Kills", "a"), "remove() needs a backend with remove()");
		expectHere(() => boards.erase("a"), "erase() needs a backend with remove()");
	});

	it("around() past the page on a backend with no around()", () => {
		const memory = new MemoryBackend();
		memory.storeOf("Kills").set("a", 5);
		const backend = { ...memory.asSetBackend(), around: undefined, sorted: () => [] };
		const { boards } = boardsWith({ Backend: backend });
		expectHere(() => boards.around("Kills", "a"), "around() needs a backend with around()");
	});

	it("call arguments: a subject, a count, a period, subjects, entries", () => {
		const { boards } = boardsWith({ Boards: { Kills: {}, Daily: { Reset: "Daily" } } });
		expectHere(() => boards.rank("Kills", true as never), "rank() subject is a boolean");
		expectHere(() => boards.around("Kills", "a", "3" as never), "around() count must be a number or nil");
		expectHere(() => boards.friends("Kills", "x"), "friends() player must be a Player");
		expectHere(() => boards.top("Daily", 10, "2027-02-29"), 'Daily has no period "2027-02-29"');
		expectHere(() => boards.top("Kills", 10, "previous"), "Kills is an all-time board");
		expectHere(() => boards.top("Daily", 10, 5 as never), "a period is");
		expectHere(() => boards.scores("Kills", "a" as never), "scores() takes an array of subjects");
		expectHere(() => boards.scores("Daily", ["a"], "x"), 'Daily has no period "x"');
		expectHere(() => boards.period("Daily", 5 as never), "a period is");
		expectHere(() => boards.names("x" as never), "names() takes an array of entries");
		expectHere(() => boards.erase(undefined as never), "erase() subject is nil");
		expectHere(() => boards.erasure(false as never), "erasure() subject is a boolean");
	});

	it("onPeriodEnd(): the board, the handler, the options, the manifest", () => {
		const { boards } = boardsWith({ Boards: { Kills: {}, Daily: { Reset: "Daily" } } });
		const handler = () => {};
		expectHere(() => boards.onPeriodEnd("Dialy" as never, handler), 'board "Dialy" is not one of the boards');
		expectHere(() => boards.onPeriodEnd("Kills", handler), "needs a Reset board");
		expectHere(() => boards.onPeriodEnd("Daily", 5 as never), "handler must be a function");
		expectHere(
			() => boards.onPeriodEnd("Daily", handler, { Count: 0 }),
			"options.Count must be a positive integer",
		);
		expectHere(
			() => boards.onPeriodEnd("Daily", handler, { SettleSeconds: -1 }),
			"options.SettleSeconds must be a number of seconds",
		);
		boards.onPeriodEnd("Daily", handler);
		expectHere(() => boards.onPeriodEnd("Daily", handler), "already has a handler for Daily");
		const off = boardsWith({ Boards: { Daily: { Reset: "Daily" } }, Manifest: false }).boards;
		expectHere(() => off.onPeriodEnd("Daily", handler), "needs the manifest");
		expectHere(() => off.erase("a"), "erase() needs the manifest");
	});
});
