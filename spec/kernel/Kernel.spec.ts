import { describe, expect, it } from "@rbxts/jest-globals";
import { Kernel, Service } from "../../kernel";
import { headlessGate } from "../gate/control";
import { captureLogs } from "./doubles";

function recorder() {
	const events = new Array<string>();
	const service = (name: string, extra: Partial<Service> = {}): Service => ({
		Name: name,
		init() {
			events.push(`init ${name}`);
		},
		start() {
			events.push(`start ${name}`);
		},
		stop() {
			events.push(`stop ${name}`);
		},
		...extra,
	});
	return { events, service };
}

const quiet = () => new Kernel({ bindToClose: false });

describe("Kernel boot", () => {
	it("runs every init, then every start, ordered by Name", () => {
		const { events, service } = recorder();
		const kernel = quiet();
		kernel.add(service("Charlie")).add(service("Alpha")).add(service("Bravo"));
		kernel.start();
		expect(events).toEqual([
			"init Alpha",
			"init Bravo",
			"init Charlie",
			"start Alpha",
			"start Bravo",
			"start Charlie",
		]);
	});

	it("hasStarted() answers whether start() was called: what a plugin checks before relying on BindToClose", () => {
		const kernel = quiet();
		expect(kernel.hasStarted()).toBe(false);
		expect(kernel.bindToClose).toBe(false);
		kernel.start();
		expect(kernel.hasStarted()).toBe(true);
		expect(new Kernel().bindToClose).toBe(true);
	});

	it("orders by declared Dependencies before Name", () => {
		const { events, service } = recorder();
		const kernel = quiet();
		kernel.add(service("Alpha", { Dependencies: ["Zulu"] })).add(service("Zulu"));
		kernel.start();
		expect(events.filter((e) => e.sub(1, 4) === "init")).toEqual(["init Zulu", "init Alpha"]);
	});

	it("refuses unknown dependencies and cycles with a clear message", () => {
		const { service } = recorder();
		const unknown = quiet().add(service("A", { Dependencies: ["Missing"] }));
		expect(() => unknown.start()).toThrow("kernel: A depends on Missing, which is not registered");
		const cyclic = quiet()
			.add(service("A", { Dependencies: ["B"] }))
			.add(service("B", { Dependencies: ["A"] }));
		expect(() => cyclic.start()).toThrow("kernel: dependency cycle among A, B");
	});

	it("runs each start on its own thread: one that yields holds no other", () => {
		const { events, service } = recorder();
		const kernel = quiet();
		kernel.add(
			service("Alpha", {
				start() {
					task.wait(5);
					events.push("Alpha started late");
				},
			}),
		);
		kernel.add(service("Bravo"));
		kernel.start();
		expect(events).toEqual(["init Alpha", "init Bravo", "start Bravo"]);
		task.wait(6);
		expect(events[3]).toBe("Alpha started late");
	});

	it("an init error names the service and the phase and stops the boot", () => {
		const { events, service } = recorder();
		const kernel = quiet();
		kernel
			.add(
				service("Alpha", {
					init() {
						error("no config");
					},
				}),
			)
			.add(service("Bravo"));
		expect(() => kernel.start()).toThrow("kernel: Alpha init failed: ");
		expect(events).toEqual([]);
	});

	it("a start error names the service and the phase and stops the boot", () => {
		const { events, service } = recorder();
		const kernel = quiet();
		kernel
			.add(
				service("Alpha", {
					start() {
						error("bad start");
					},
				}),
			)
			.add(service("Bravo"));
		expect(() => kernel.start()).toThrow("kernel: Alpha start failed: ");
		expect(events).toEqual(["init Alpha", "init Bravo"]);
	});

	it("refuses a duplicate Name and a missing Name at registration", () => {
		const { service } = recorder();
		const kernel = quiet().add(service("Alpha"));
		expect(() => kernel.add(service("Alpha"))).toThrow("kernel: a service named Alpha is already registered");
		expect(() => kernel.add({} as Service)).toThrow("kernel: a service needs a Name");
	});

	it("a service registered from another's init joins the same boot", () => {
		const { events, service } = recorder();
		const kernel = quiet();
		kernel.add(
			service("Game", {
				init(k: Kernel) {
					events.push("init Game");
					k.add(service("Plugin"));
				},
			}),
		);
		kernel.start();
		expect(events).toEqual(["init Game", "init Plugin", "start Game", "start Plugin"]);
	});

	it("looks services up by name, and replaces one before start", () => {
		const { events, service } = recorder();
		const kernel = quiet().add(service("Reader"));
		expect(kernel.get("Reader").Name).toBe("Reader");
		expect(kernel.find("Missing")).toBeUndefined();
		expect(() => kernel.get("Missing")).toThrow("kernel: no service named Missing");
		const own = service("Reader", {
			start() {
				events.push("own reader");
			},
		});
		kernel.replace(own);
		expect(kernel.get("Reader")).toBe(own);
		kernel.start();
		expect(events).toContain("own reader");
	});
});

describe("Kernel stop", () => {
	it("runs every stop in reverse start order", () => {
		const { events, service } = recorder();
		const kernel = quiet().add(service("Alpha")).add(service("Bravo")).add(service("Charlie"));
		kernel.start();
		const result = kernel.stop();
		expect(events.filter((e) => e.sub(1, 4) === "stop")).toEqual(["stop Charlie", "stop Bravo", "stop Alpha"]);
		expect(result).toEqual({ complete: true, unfinished: [], failed: [] });
	});

	it("a stop that yields forever does not hold the others past the 25 s close budget", () => {
		const logs = captureLogs();
		const { events, service } = recorder();
		const kernel = quiet();
		kernel.add(
			service("Stuck", {
				stop() {
					coroutine.yield();
				},
			}),
		);
		kernel.add(
			service("Slow", {
				stop() {
					task.wait(3);
					events.push("Slow stopped");
				},
			}),
		);
		kernel.start();
		const started = os.clock();
		const result = kernel.stop();
		logs.restore();
		expect(os.clock() - started).toBeCloseTo(25, 0);
		expect(events).toContain("Slow stopped");
		expect(result.complete).toBe(false);
		expect(result.unfinished).toEqual(["Stuck"]);
		expect(logs.messages("warn")).toEqual(["[Kernel] Stuck did not stop within the 25 s close budget"]);
	});

	it("waits for a yielding stop that runs after one returning at once (the last started stops first)", () => {
		const { events, service } = recorder();
		const kernel = quiet();
		kernel.add(
			service("Alpha", {
				stop() {
					task.wait(2);
					events.push("Alpha stopped");
				},
			}),
		);
		kernel.add(service("Bravo"));
		kernel.start();
		const started = os.clock();
		const result = kernel.stop();
		expect(events.filter((e) => e.sub(1, 4) === "stop" || e === "Alpha stopped")).toEqual([
			"stop Bravo",
			"Alpha stopped",
		]);
		expect(os.clock() - started).toBeCloseTo(2, 1);
		expect(result.complete).toBe(true);
		expect(result.unfinished).toEqual([]);
	});

	it("a stop that errors is logged with its name; the others still run", () => {
		const logs = captureLogs();
		const { events, service } = recorder();
		const kernel = quiet()
			.add(service("Alpha"))
			.add(
				service("Broken", {
					stop() {
						error("stop broke");
					},
				}),
			);
		kernel.start();
		const result = kernel.stop();
		logs.restore();
		expect(events).toContain("stop Alpha");
		expect(result.failed).toEqual(["Broken"]);
		expect(logs.messages("error")[0]).toMatch("Broken stop failed: .*stop broke");
	});

	it("repeated and concurrent stop calls share one stop and one frozen result", () => {
		const { service } = recorder();
		let stops = 0;
		const kernel = quiet().add(
			service("Alpha", {
				stop() {
					stops++;
					task.wait(1);
				},
			}),
		);
		kernel.start();
		let other: unknown;
		task.spawn(() => (other = kernel.stop()));
		const result = kernel.stop();
		expect(other).toBe(result);
		expect(kernel.stop()).toBe(result);
		expect(stops).toBe(1);
		expect(table.isfrozen(result)).toBe(true);
	});

	it("registers with BindToClose: closing the server runs the stops", () => {
		const gate = headlessGate();
		if (!gate) return;
		gate.resetClose();
		const { events, service } = recorder();
		const kernel = new Kernel().add(service("Alpha"));
		kernel.start();
		const [complete] = gate.closeServer();
		gate.resetClose();
		expect(complete).toBe(true);
		expect(events).toContain("stop Alpha");
	});
});
