import { describe, expect, it } from "@rbxts/jest-globals";
import { Bus } from "../../kernel";
import { captureLogs } from "./doubles";

describe("Bus", () => {
	it("delivers the topic first, then the published values", () => {
		const bus = new Bus();
		const heard = new Array<unknown[]>();
		bus.subscribe("Combat.Kill", (...args) => heard.push(args));
		bus.publish("Combat.Kill", "killer", 3);
		expect(heard).toEqual([["Combat.Kill", "killer", 3]]);
	});

	it("publish with no subscribers does nothing", () => {
		const bus = new Bus();
		expect(() => bus.publish("Nobody")).never.toThrow();
	});

	it("disconnect is idempotent and stops delivery", () => {
		const bus = new Bus();
		let calls = 0;
		const connection = bus.subscribe("T", () => calls++);
		connection.disconnect();
		connection.disconnect();
		bus.publish("T");
		expect(calls).toBe(0);
		expect(connection.connected).toBe(false);
	});

	it("once hears only the next publish", () => {
		const bus = new Bus();
		let calls = 0;
		bus.once("T", () => calls++);
		bus.publish("T");
		bus.publish("T");
		expect(calls).toBe(1);
	});

	it("snapshot rule: a handler disconnected during a publish, before its turn, does not hear it", () => {
		const bus = new Bus();
		const heard = new Array<string>();
		let second: { disconnect(): void } | undefined;
		bus.subscribe("T", () => {
			heard.push("first");
			second!.disconnect();
		});
		second = bus.subscribe("T", () => heard.push("second"));
		bus.publish("T");
		expect(heard).toEqual(["first"]);
	});

	it("snapshot rule: a handler subscribed during a publish first hears the next one", () => {
		const bus = new Bus();
		const heard = new Array<string>();
		let added = false;
		bus.subscribe("T", (_, n) => {
			heard.push(`old ${n}`);
			if (!added) {
				added = true;
				bus.subscribe("T", (__, m) => heard.push(`new ${m}`));
			}
		});
		bus.publish("T", 1);
		bus.publish("T", 2);
		expect(heard).toEqual(["old 1", "old 2", "new 2"]);
	});

	it("an erroring handler is logged with the topic and the others still run", () => {
		const logs = captureLogs();
		const bus = new Bus();
		const heard = new Array<string>();
		bus.subscribe("Run.Finished", () => error("handler broke"));
		bus.subscribe("Run.Finished", () => heard.push("second"));
		bus.publish("Run.Finished");
		logs.restore();
		expect(heard).toEqual(["second"]);
		expect(logs.messages("error")[0]).toMatch("handler for Run.Finished errored: .*handler broke");
	});

	it("a yielding handler holds no one: publish returns at once", () => {
		const bus = new Bus();
		const heard = new Array<string>();
		bus.subscribe("T", () => {
			task.wait(10);
			heard.push("slow");
		});
		bus.subscribe("T", () => heard.push("fast"));
		const started = os.clock();
		bus.publish("T");
		expect(os.clock()).toBe(started);
		expect(heard).toEqual(["fast"]);
		task.wait(11);
		expect(heard).toEqual(["fast", "slow"]);
	});

	it("wait resolves with the next publish's values", () => {
		const bus = new Bus();
		task.delay(1, () => bus.publish("Game.Scored", "Kills", 5));
		const [ok, args] = bus.wait("Game.Scored").await();
		expect(ok).toBe(true);
		expect(args).toEqual(["Kills", 5]);
	});

	it("wait with a timeout rejects when nothing comes, and disconnects", () => {
		const bus = new Bus();
		const started = os.clock();
		const [ok, problem] = bus.wait("Never", 2).await();
		expect(ok).toBe(false);
		expect(problem).toBe("Bus.wait timed out on Never");
		expect(os.clock() - started).toBeCloseTo(2, 1);
		let heard = 0;
		bus.subscribe("Never", () => heard++);
		bus.publish("Never");
		expect(heard).toBe(1);
	});

	it("cancelling a wait disconnects it", () => {
		const bus = new Bus();
		const waiting = bus.wait("T");
		waiting.cancel();
		bus.publish("T");
		expect(waiting.getStatus()).toBe(Promise.Status.Cancelled);
	});
});
