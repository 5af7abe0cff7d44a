import { Bus } from "./Bus";
import { join } from "./cancellation";
import { Logger } from "./Logger";
import { Scheduler, SchedulerOptions } from "./Scheduler";

const log = Logger.scope("Kernel");

/**
 * A service (or plugin: a service other code composes). Each hook is optional
 * and called as a method, so plain Luau tables with `function Service.init(self,
 * kernel)` work as they are.
 */
export interface Service {
	readonly Name: string;
	/** Names of services whose init must run before this one's. */
	readonly Dependencies?: ReadonlyArray<string>;
	init?(kernel: Kernel): void;
	start?(): void;
	stop?(): void;
}

export interface KernelOptions {
	/** Seconds every stop() together may take when the server closes. Default 25. */
	closeBudget?: number;
	/** Run stop() from game:BindToClose once started. Default true. */
	bindToClose?: boolean;
	scheduler?: SchedulerOptions;
}

/** What stop() reports, frozen and shared by every caller. */
export interface StopResult {
	/** Every stop() returned within the budget without error. */
	readonly complete: boolean;
	/** Services whose stop() had not returned when the budget ran out. */
	readonly unfinished: ReadonlyArray<string>;
	/** Services whose stop() errored. */
	readonly failed: ReadonlyArray<string>;
}

/** The documented default close budget: inside the 30 s Roblox gives BindToClose. */
export const DEFAULT_CLOSE_BUDGET = 25;

// An error message with its "Script:line:" prefix moved to the end, so the
// reason reads first: "no config (at Game.Service:12)".
function describe(problem: unknown): string {
	const text = tostring(problem);
	const [where, reason] = string.match(text, "^(%S+:%d+): (.*)$");
	return typeIs(where, "string") && typeIs(reason, "string") ? `${reason} (at ${where})` : text;
}

type Phase = "registering" | "booting" | "running" | "stopping" | "stopped";

/**
 * The server kernel: services and plugins, their lifecycle, the Bus and the
 * Scheduler. It knows nothing of leaderboards.
 *
 * Boot: every init, in dependency order with ties broken by Name, then every
 * start in the same order, each on its own thread. A service registered during
 * boot (from another's init) joins the same boot; one registered while running
 * is initialised and started at once. Stop: every stop() in reverse start
 * order, each on its own thread, within one close budget.
 */
export class Kernel {
	readonly Bus = new Bus();
	readonly Scheduler: Scheduler;
	readonly closeBudget: number;
	/** start() binds stop() to game:BindToClose (KernelOptions.bindToClose). */
	readonly bindToClose: boolean;

	private readonly services = new Map<string, Service>();
	private readonly registered = new Array<Service>();
	private readonly started = new Array<Service>();
	private phase: Phase = "registering";
	private bootQueue?: Service[];
	private stopping?: Promise<StopResult>;

	constructor(options: KernelOptions = {}) {
		this.closeBudget = options.closeBudget ?? DEFAULT_CLOSE_BUDGET;
		this.bindToClose = options.bindToClose ?? true;
		this.Scheduler = new Scheduler(options.scheduler);
	}

	/** Registers a service table, a ModuleScript returning one, or a Folder of such ModuleScripts. */
	add(item: Service | ModuleScript | Folder): this {
		if (typeIs(item, "Instance") && item.IsA("Folder")) {
			const modules = item.GetChildren().filter((child): child is ModuleScript => child.IsA("ModuleScript"));
			modules.sort((a, b) => a.Name < b.Name);
			for (const module of modules) this.add(module);
			return this;
		}
		const service = typeIs(item, "Instance") ? (require(item as ModuleScript) as Service) : item;
		this.register(service);
		return this;
	}

	/** Puts a game's own service in place of the registered one with the same Name, before start(). */
	replace(service: Service): this {
		const name = this.nameOf(service);
		const current = this.services.get(name);
		if (!current) error(`kernel: no service named ${name} to replace`, 2);
		if (this.phase !== "registering") error(`kernel: ${name} can only be replaced before start()`, 2);
		this.services.set(name, service);
		this.registered[this.registered.indexOf(current)] = service;
		return this;
	}

	/** The service or plugin registered under name; errors when there is none. */
	get<T extends Service = Service>(name: string): T {
		const service = this.services.get(name);
		if (!service) error(`kernel: no service named ${name}`, 2);
		return service as T;
	}

	/** The service or plugin registered under name, or undefined. */
	find<T extends Service = Service>(name: string): T | undefined {
		return this.services.get(name) as T | undefined;
	}

	/** start() was called: the kernel is booting, running or stopped. Until then no service runs and nothing is bound to the server's close. */
	hasStarted(): boolean {
		return this.phase !== "registering";
	}

	/** Boots: every init, then every start. Errors naming the service and the phase. */
	start() {
		if (this.phase !== "registering") error("kernel: start() was already called", 2);
		this.phase = "booting";
		const queue = this.bootOrder();
		this.bootQueue = queue;
		// The queue grows when an init registers a service, so walk it by index.
		let index = 0;
		while (index < queue.size()) {
			this.runInit(queue[index]);
			index += 1;
		}
		this.bootQueue = undefined;
		for (const service of queue) this.runStart(service);
		this.phase = "running";
		if (this.bindToClose) game.BindToClose(() => this.stop());
	}

	/**
	 * Runs every stop() in reverse start order, each on its own thread, and
	 * returns when all returned or the close budget ran out. Yields. Repeated
	 * calls share one stop and one result.
	 */
	stop(): StopResult {
		if (!this.stopping) this.stopping = this.runStop();
		return this.stopping.expect();
	}

	private nameOf(service: Service): string {
		if (!typeIs(service, "table")) error(`kernel: a service must be a table, got ${typeOf(service)}`, 3);
		const name = service.Name;
		if (!typeIs(name, "string") || name === "") error("kernel: a service needs a Name", 3);
		return name;
	}

	private register(service: Service) {
		const name = this.nameOf(service);
		if (this.services.has(name)) error(`kernel: a service named ${name} is already registered`, 3);
		if (this.phase === "stopping" || this.phase === "stopped") error(`kernel: cannot add ${name} after stop()`, 3);
		this.services.set(name, service);
		this.registered.push(service);
		if (this.phase === "booting" && this.bootQueue) {
			this.bootQueue.push(service);
		} else if (this.phase === "running") {
			this.runInit(service);
			this.runStart(service);
		}
	}

	// Dependency order, ties by Name.
	private bootOrder(): Service[] {
		const remaining = [...this.registered];
		remaining.sort((a, b) => a.Name < b.Name);
		const done = new Set<string>();
		const order = new Array<Service>();
		for (const service of remaining) {
			for (const dependency of service.Dependencies ?? []) {
				if (!this.services.has(dependency))
					error(`kernel: ${service.Name} depends on ${dependency}, which is not registered`, 3);
			}
		}
		while (remaining.size() > 0) {
			const index = remaining.findIndex((service) =>
				(service.Dependencies ?? []).every((dependency) => done.has(dependency)),
			);
			if (index === -1) {
				const names = remaining.map((service) => service.Name).join(", ");
				error(`kernel: dependency cycle among ${names}`, 3);
			}
			const ready = remaining.remove(index)!;
			done.add(ready.Name);
			order.push(ready);
		}
		return order;
	}

	private runInit(service: Service) {
		if (!service.init) return;
		const [ok, problem] = pcall(() => service.init!(this));
		if (!ok) {
			this.phase = "stopped";
			error(`kernel: ${service.Name} init failed: ${describe(problem)}`, 0);
		}
	}

	private runStart(service: Service) {
		this.started.push(service);
		if (!service.start) return;
		let failure: unknown;
		let returned = false;
		task.spawn(() => {
			const [ok, problem] = pcall(() => service.start!());
			returned = true;
			if (ok) return;
			failure = problem;
			// Before its first yield the failure stops the boot; after, it can only be logged.
			if (this.phase !== "booting") log.error(`${service.Name} start failed: ${problem}`);
		});
		if (returned && failure !== undefined) {
			this.phase = "stopped";
			error(`kernel: ${service.Name} start failed: ${describe(failure)}`, 0);
		}
	}

	private runStop(): Promise<StopResult> {
		this.phase = "stopping";
		return new Promise<StopResult>((resolve) => {
			const pending = new Set<string>();
			const failed = new Array<string>();
			let finish: (() => void) | undefined;
			const allStopped = new Promise<void>((done) => (finish = done));
			const order = [...this.started];
			// Every stop is pending before the first runs: a stop that returns at once must not
			// empty the set (and end the wait) while a later-spawned, yielding stop has not begun.
			for (const service of order) if (service.stop !== undefined) pending.add(service.Name);
			for (let i = order.size() - 1; i >= 0; i--) {
				const service = order[i];
				if (!service.stop) continue;
				task.spawn(() => {
					const [ok, problem] = pcall(() => service.stop!());
					if (!ok) {
						failed.push(service.Name);
						log.error(`${service.Name} stop failed: ${problem}`);
					}
					pending.delete(service.Name);
					if (pending.isEmpty()) finish!();
				});
			}
			if (pending.isEmpty()) finish!();
			join(this.Scheduler, allStopped, this.closeBudget).await();
			const unfinished = new Array<string>();
			for (const service of order) if (pending.has(service.Name)) unfinished.push(service.Name);
			for (const name of unfinished)
				log.warn(`${name} did not stop within the ${this.closeBudget} s close budget`);
			this.phase = "stopped";
			resolve(
				table.freeze({
					complete: unfinished.isEmpty() && failed.isEmpty(),
					unfinished: table.freeze(unfinished),
					failed: table.freeze(failed),
				}),
			);
		});
	}
}
