import { Kernel } from "../../kernel";
import {
	Backend,
	BoardConfig,
	LeaderboardOptions,
	Leaderboards,
	OrderedStores,
	attach,
} from "../../plugins/leaderboards";
import { GateServer, HeadlessGate } from "../gate/control";
export { backendOn } from "../leaderboards/stores";

// Servers for the durable work's specs (erase(), onPeriodEnd()): boards on a server's own services
// (its DataStoreService for the ordered stores and the manifest, its MemoryStoreService, Players and
// MessagingService), so several servers share one experience; and a real server running the library
// in its own environment, for a server that dies with its threads.

const opened = new Array<GateServer>();
const attached = new Array<Leaderboards>();

/** A new server of the experience, closed by closeServers(). */
export function newServer(gate: HeadlessGate, projectFile?: string): GateServer {
	const server = gate.newServer(projectFile);
	opened.push(server);
	return server;
}

/**
 * Closes every server newServer() started (an open one counts toward the experience's servers) and
 * destroys every attach boardsAt() made (their timers run on this server's threads).
 */
export function closeServers() {
	for (const boards of attached) task.spawn(() => boards.destroy());
	attached.clear();
	for (const server of opened) pcall(() => server.close());
	opened.clear();
}

/** The attach options naming a server's services. */
export function servicesOf(server?: GateServer): Partial<LeaderboardOptions> {
	const services = server?.game ?? game;
	return {
		DataStoreService: services.GetService("DataStoreService"),
		MemoryStoreService: services.GetService("MemoryStoreService"),
		MessagingService: services.GetService("MessagingService"),
		Players: services.GetService("Players") as never,
	};
}

/** Boards on `server`'s services, its kernel started (so it polls erasures and watches period ends). */
export function boardsAt(
	server: GateServer | undefined,
	boards: Record<string, BoardConfig>,
	options: Partial<LeaderboardOptions> = {},
): { boards: Leaderboards; kernel: Kernel } {
	const kernel = new Kernel({ bindToClose: false });
	const made = attach(kernel, { Boards: boards, ...servicesOf(server), ...options } as LeaderboardOptions);
	kernel.start();
	attached.push(made);
	return { boards: made, kernel };
}

/** The plugin as a real server requires it (its own module state and threads). */
export interface PluginModule {
	readonly attach: (kernel: Kernel, options: LeaderboardOptions) => Leaderboards;
	readonly orderedDataStoreBackend: (storePrefix: string, stores: OrderedStores) => Backend;
}

/** A real server running the library: closed, it ends with every thread it ran (no BindToClose: a crash). */
export function liveServer(
	gate: HeadlessGate,
	boards: (plugin: PluginModule, handle: GateServer) => Record<string, BoardConfig>,
	options: Partial<LeaderboardOptions> = {},
): { handle: GateServer; boards: Leaderboards; kernel: Kernel } {
	const handle = newServer(gate, "spec/model/server.project.json");
	const root = handle.game.GetService("ServerScriptService").WaitForChild("Leaderboards");
	const { Kernel: KernelClass } = handle.require(root.WaitForChild("kernel") as ModuleScript) as {
		Kernel: new (options?: object) => Kernel;
	};
	const plugin = handle.require(
		root.WaitForChild("plugins").WaitForChild("leaderboards") as ModuleScript,
	) as PluginModule;
	const kernel = new KernelClass({ bindToClose: false });
	const made = plugin.attach(kernel, { Boards: boards(plugin, handle), ...options } as LeaderboardOptions);
	kernel.start();
	return { handle, boards: made, kernel };
}

/** Waits (virtual time) until `done()` or `seconds` passed; whether it was done. */
export function waitFor(done: () => boolean, seconds: number, step = 1): boolean {
	for (let waited = 0; waited < seconds; waited += step) {
		if (done()) return true;
		task.wait(step);
	}
	return done();
}

/** The daily period id of a Unix time. */
export const dayOf = (unix: number) => os.date("!%Y-%m-%d", unix);
