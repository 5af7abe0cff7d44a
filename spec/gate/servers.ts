// Many servers in one experience: lean servers (spec/gate/fixtures/lean, the
// library and the services it touches) started with newServer(), each with its
// players and, unless idle, its own copy of the kernel and the plugin with a few
// boards its players submit to. Measures the Luau heap a server holds and the
// wall time a simulated minute takes (spec/gate/README.md, "Many servers").
//
//   node spec/gate/run.mjs --no-build --main ServerScriptService.Leaderboards.spec.gate.servers -- --servers 1000

import { HttpService } from "@rbxts/services";
import type { Kernel } from "../../kernel";
import type { LeaderboardOptions, Leaderboards } from "../../plugins/leaderboards";
import { Command, runCommand } from "./command";
import { GateServer, HeadlessGate, headlessGate } from "./control";
import { count, counted } from "./format";

export const LEAN = "spec/gate/fixtures/lean/server.project.json";

/** What one run sets up. */
export interface Experience {
	readonly servers: number;
	readonly players: number;
	/** Boards a server runs the plugin with; 0 leaves the servers idle (no kernel, no plugin). */
	readonly boards: number;
	/** Simulated minutes the run lasts after every server has started. */
	readonly minutes: number;
}

/** What a run measured. */
export interface Figures {
	readonly servers: number;
	readonly boards: number;
	/** The Luau heap the servers hold, after full collections, a server: once started, and after the run. */
	readonly kilobytesPerServer: number;
	readonly kilobytesPerServerAfter: number;
	/** The whole heap after the run, in megabytes. */
	readonly heapMegabytes: number;
	/** Wall seconds to start every server, and a simulated minute's wall seconds. */
	readonly startSeconds: number;
	readonly wallPerMinute: number;
	/** Values submitted and written by every server's boards during the run. */
	readonly submitted: number;
	readonly written: number;
	/** Servers whose boards each wrote at least once. */
	readonly serversWriting: number;
}

type Plugin = { attach: (kernel: Kernel, options: LeaderboardOptions<string>) => Leaderboards<string> };
interface Running {
	readonly server: GateServer;
	readonly players: Player[];
	readonly boards?: Leaderboards<string>;
	readonly names: string[];
}

function moduleOf(server: GateServer, ...path: string[]): ModuleScript {
	let at: Instance = server.game.GetService("ServerScriptService").WaitForChild("Leaderboards");
	for (const name of path) at = at.WaitForChild(name);
	return at as ModuleScript;
}

/** A lean server with `players` players (UserIds index x 1000 + 1..), and its own kernel and plugin attached with `options`. */
export function leanBoards(
	gate: HeadlessGate,
	index: number,
	players: number,
	options: LeaderboardOptions<string>,
): { server: GateServer; kernel: Kernel; boards: Leaderboards<string>; players: Player[] } {
	const server = gate.newServer(LEAN);
	const joined = new Array<Player>();
	for (let p = 1; p <= players; p++) joined.push(server.join({ UserId: index * 1000 + p }));
	const { Kernel: KernelClass } = server.require(moduleOf(server, "kernel")) as {
		Kernel: new (options?: object) => Kernel;
	};
	const plugin = server.require(moduleOf(server, "plugins", "leaderboards")) as Plugin;
	const kernel = new KernelClass({ bindToClose: false });
	const boards = plugin.attach(kernel, options);
	kernel.start();
	return { server, kernel, boards, players: joined };
}

// One server: its players, and its own kernel and plugin unless idle.
function start(gate: HeadlessGate, index: number, experience: Experience): Running {
	const server = gate.newServer(LEAN);
	const players = new Array<Player>();
	for (let p = 1; p <= experience.players; p++) players.push(server.join({ UserId: index * 1000 + p }));
	if (experience.boards === 0) return { server, players, names: [] };
	const { Kernel: KernelClass } = server.require(moduleOf(server, "kernel")) as {
		Kernel: new (options?: object) => Kernel;
	};
	const plugin = server.require(moduleOf(server, "plugins", "leaderboards")) as Plugin;
	const kernel = new KernelClass();
	const config: Record<string, object> = {};
	const names = new Array<string>();
	for (let b = 1; b <= experience.boards; b++) {
		names.push(`Board${b}`);
		config[`Board${b}`] = b % 2 === 0 ? { Reset: "Daily" } : {};
	}
	const boards = plugin.attach(kernel, { Boards: config });
	kernel.start();
	return { server, players, boards, names };
}

/** Starts the servers, runs them `minutes`, measures, closes them. */
export function runExperience(gate: HeadlessGate, experience: Experience): Figures {
	gate.reset();
	const baseline = gate.collect();
	const startedAt = gate.wallClock();
	const running = new Array<Running>();
	for (let i = 1; i <= experience.servers; i++) running.push(start(gate, i, experience));
	const startSeconds = gate.wallClock() - startedAt;
	const started = gate.collect();
	let submitted = 0;
	let done = false;
	// Every player scores on every board every 10 s, spread over the 10 s.
	task.spawn(() => {
		for (let tick = 0; !done; tick++) {
			for (let i = tick % 10; i < running.size(); i += 10) {
				const { boards, players, names } = running[i];
				if (!boards) continue;
				for (const player of players)
					for (const board of names) {
						boards.submit(board, player, tick);
						submitted += 1;
					}
			}
			task.wait(1);
		}
	});
	const wall = gate.wallClock();
	task.wait(experience.minutes * 60);
	const wallPerMinute = (gate.wallClock() - wall) / experience.minutes;
	done = true;
	const after = gate.collect();
	let written = 0;
	let serversWriting = 0;
	for (const { boards, names } of running) {
		written += boards?.Stats.Written ?? 0;
		if (boards && boards.Stats.Written >= names.size()) serversWriting += 1;
	}
	for (const { server } of running) server.close();
	gate.reset();
	return {
		servers: experience.servers,
		boards: experience.boards,
		kilobytesPerServer: (started - baseline) / experience.servers,
		kilobytesPerServerAfter: (after - baseline) / experience.servers,
		heapMegabytes: after / 1024,
		startSeconds,
		wallPerMinute,
		submitted,
		written,
		serversWriting,
	};
}

/** What a run of days found: every day's board as the servers flushed it, and what it cost. */
export interface Days {
	readonly days: number;
	/** Days whose daily board holds every server's player at that day's last score. */
	readonly daysComplete: number;
	/** The all-time board holds every player at the last score. */
	readonly allTimeComplete: boolean;
	readonly flushes: number;
	readonly wallSeconds: number;
	readonly heapMegabytes: number;
}

const DAY = 86_400;

/**
 * Runs `days` virtual days (longer than a week, cheaply): lean servers running their own plugin
 * with a Daily and an all-time board and no flush loop (SkipLoop, so no Heartbeat: frames with
 * nothing due are skipped), each player scoring and each server flushing every `tick` seconds
 * (600 unless told; a divisor of a day).
 */
export function runDays(gate: HeadlessGate, size: { servers: number; days: number; tick?: number }): Days {
	const tick = size.tick ?? 600;
	gate.reset();
	const wall = gate.wallClock();
	const running = new Array<{ server: GateServer; boards: Leaderboards<string>; player: Player }>();
	for (let i = 1; i <= size.servers; i++) {
		const server = gate.newServer(LEAN);
		const { Kernel: KernelClass } = server.require(moduleOf(server, "kernel")) as {
			Kernel: new (options?: object) => Kernel;
		};
		const plugin = server.require(moduleOf(server, "plugins", "leaderboards")) as Plugin;
		const boards = plugin.attach(new KernelClass({ bindToClose: false }), {
			Boards: { Daily: { Reset: "Daily" }, AllTime: {} },
			SkipLoop: true,
		});
		running.push({ server, boards, player: server.join({ UserId: i }) });
	}
	// The calendar's midnight is virtual time's: each day's last tick is known.
	const start = os.time() - (os.time() % DAY) + DAY;
	gate.calendar.set(start);
	const ticks = (size.days * DAY) / tick;
	let flushes = 0;
	for (let score = 1; score <= ticks; score++) {
		for (const { boards, player } of running) {
			boards.submit("Daily", player, score);
			boards.submit("AllTime", player, score);
			task.spawn(() => {
				boards.flushNow();
				flushes += 1;
			});
		}
		task.wait(tick);
	}
	let daysComplete = 0;
	for (let day = 0; day < size.days; day++) {
		const id = os.date("!%Y-%m-%d", start + day * DAY);
		const last = ((day + 1) * DAY) / tick; // the day's last score
		const stored = gate.dataStore.snapshot(`CKBoard_Daily@${id}`);
		if (running.every(({ player }) => stored.get(tostring(player.UserId)) === last)) daysComplete += 1;
	}
	const allTime = gate.dataStore.snapshot("CKBoard_AllTime");
	const allTimeComplete = running.every(({ player }) => allTime.get(tostring(player.UserId)) === ticks);
	const heapMegabytes = gate.collect() / 1024;
	for (const { server } of running) server.close();
	gate.reset();
	return {
		days: size.days,
		daysComplete,
		allTimeComplete,
		flushes,
		wallSeconds: gate.wallClock() - wall,
		heapMegabytes,
	};
}

/** One line of figures. */
export function describeFigures(figures: Figures): string {
	const kind = figures.boards === 0 ? "idle" : `the plugin with ${counted(figures.boards, "board")}`;
	return (
		`${counted(figures.servers, "server")}, ${kind}: ${string.format("%.0f", figures.kilobytesPerServer)} KB a server ` +
		`(${string.format("%.0f", figures.kilobytesPerServerAfter)} KB after the run, heap ${string.format("%.0f", figures.heapMegabytes)} MB), ` +
		`started in ${string.format("%.1f", figures.startSeconds)} s, ${string.format("%.2f", figures.wallPerMinute)} s wall a simulated minute` +
		(figures.boards === 0 ? "" : `, ${count(figures.submitted)} submitted, ${count(figures.written)} written`)
	);
}

export const SERVERS: Command = {
	program: "servers",
	invocation: "node spec/gate/run.mjs --main ServerScriptService.Leaderboards.spec.gate.servers --",
	about: [
		"Many lean servers (spec/gate/fixtures/lean) in one experience: the Luau heap a",
		"server holds and the wall time a simulated minute takes, idle or running the",
		"plugin with a few boards every player submits to every 10 s.",
	],
	flags: [
		{ name: "servers", value: "N", min: 1, max: 5_000, fallback: 100, help: "servers in the experience" },
		{ name: "players", value: "N", min: 0, max: 100, fallback: 1, help: "players a server" },
		{ name: "boards", value: "N", min: 0, max: 20, fallback: 3, help: "boards a server runs (0: idle)" },
		{ name: "minutes", value: "N", min: 1, max: 60, fallback: 1, help: "simulated minutes to run" },
		{
			name: "days",
			value: "N",
			min: 1,
			max: 60,
			help: "instead: run N days, a Daily board flushed every 10 minutes, no flush loop",
		},
		{ name: "json", help: "print only JSON" },
	],
};

function describeDays(days: Days, servers: number): string {
	return (
		`${counted(servers, "server")}, ${counted(days.days, "day")}: ${days.daysComplete} of ${days.days} daily boards ` +
		`and ${days.allTimeComplete ? "the" : "not the"} all-time board complete, ${count(days.flushes)} flushes, ` +
		`${string.format("%.1f", days.wallSeconds)} s wall, heap ${string.format("%.0f", days.heapMegabytes)} MB`
	);
}

/** The program: one run, its figures. */
export function main(args: string[]): number {
	const gate = headlessGate();
	if (!gate) error("servers runs in the headless gate");
	return runCommand(gate, SERVERS, args, (values) => {
		const json = values.get("json") === true;
		const servers = (values.get("servers") as number | undefined) ?? 100;
		const days = values.get("days") as number | undefined;
		if (days !== undefined) {
			const result = runDays(gate, { servers, days });
			gate.write(json ? HttpService.JSONEncode(result) : describeDays(result, servers));
			return result.daysComplete === days && result.allTimeComplete ? 0 : 1;
		}
		const figures = runExperience(gate, {
			servers,
			players: (values.get("players") as number | undefined) ?? 1,
			boards: (values.get("boards") as number | undefined) ?? 3,
			minutes: (values.get("minutes") as number | undefined) ?? 1,
		});
		gate.write(json ? HttpService.JSONEncode(figures) : describeFigures(figures));
		return 0;
	});
}
