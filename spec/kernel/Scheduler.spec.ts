import { describe, expect, it } from "@rbxts/jest-globals";
import { Priority, Scheduler } from "../../kernel";
import { captureLogs, manualClock, manualStep } from "./doubles";

function setup(stepBudget?: number) {
	const time = manualClock();
	const step = manualStep();
	const scheduler = new Scheduler({ clock: time.clock, step: step.signal, stepBudget });
	return { time, step, scheduler };
}

describe("Scheduler", () => {
	it("runs due work in deadline order", () => {
		const { time, step, scheduler } = setup();
		const order = new Array<string>();
		scheduler.after(3, Priority.Normal, () => order.push("3"));
		scheduler.after(1, Priority.Normal, () => order.push("1"));
		scheduler.after(2, Priority.Background, () => order.push("2"));
		time.advance(5);
		step.fire();
		expect(order).toEqual(["1", "2", "3"]);
	});

	it("runs higher priority first at equal deadlines", () => {
		const { time, step, scheduler } = setup();
		const order = new Array<string>();
		scheduler.after(1, Priority.Background, () => order.push("background"));
		scheduler.after(1, Priority.Normal, () => order.push("normal"));
		scheduler.after(1, Priority.High, () => order.push("high"));
		time.advance(1);
		step.fire();
		expect(order).toEqual(["high", "normal", "background"]);
	});

	it("leaves work that is not yet due", () => {
		const { time, step, scheduler } = setup();
		let fired = false;
		const deadline = scheduler.after(10, Priority.Normal, () => (fired = true));
		time.advance(9);
		step.fire();
		expect(fired).toBe(false);
		expect(deadline.state).toBe("pending");
		time.advance(1);
		step.fire();
		expect(fired).toBe(true);
		expect(deadline.state).toBe("fired");
	});

	it("cancel before firing: it never runs; cancel after firing: nothing happens", () => {
		const { time, step, scheduler } = setup();
		let calls = 0;
		const early = scheduler.after(1, Priority.Normal, () => calls++);
		early.cancel();
		expect(early.state).toBe("cancelled");
		const late = scheduler.after(1, Priority.Normal, () => calls++);
		time.advance(2);
		step.fire();
		late.cancel();
		expect(late.state).toBe("fired");
		expect(calls).toBe(1);
		expect(scheduler.pending()).toBe(0);
	});

	it("listens to the step signal only while a deadline is pending", () => {
		const { time, step, scheduler } = setup();
		expect(step.listeners()).toBe(0);
		const deadline = scheduler.after(1, Priority.Background, () => {});
		expect(step.listeners()).toBe(1);
		deadline.cancel();
		expect(step.listeners()).toBe(0);
		scheduler.after(1, Priority.Background, () => {});
		time.advance(1);
		step.fire();
		expect(step.listeners()).toBe(0);
	});

	it("work armed during a step waits for the next step", () => {
		const { time, step, scheduler } = setup();
		let rearmed = 0;
		const again = () => {
			rearmed++;
			scheduler.after(0, Priority.Normal, again);
		};
		scheduler.after(0, Priority.Normal, again);
		step.fire();
		expect(rearmed).toBe(1);
		step.fire();
		expect(rearmed).toBe(2);
		time.advance(0);
	});

	it("Background work yields the rest of an over-budget step; High and Normal still run", () => {
		const { time, step, scheduler } = setup(0.002);
		const order = new Array<string>();
		for (const name of ["b1", "b2", "b3"]) {
			scheduler.after(1, Priority.Background, () => {
				order.push(name);
				time.advance(0.0015); // each background job costs 1.5 ms of the 2 ms step budget
			});
		}
		scheduler.after(1.5, Priority.High, () => order.push("high"));
		time.advance(2);
		step.fire();
		expect(order).toEqual(["b1", "b2", "high"]);
		step.fire();
		expect(order).toEqual(["b1", "b2", "high", "b3"]);
	});

	it("a callback that errors is logged and the step goes on", () => {
		const logs = captureLogs();
		const { time, step, scheduler } = setup();
		let after = false;
		scheduler.after(1, Priority.Normal, () => error("deadline broke"));
		scheduler.after(1, Priority.Normal, () => (after = true));
		time.advance(1);
		step.fire();
		logs.restore();
		expect(after).toBe(true);
		expect(logs.messages("error")[0]).toMatch("deadline broke");
	});

	it("holds ten thousand pending deadlines and pops them in order", () => {
		const { time, step, scheduler } = setup(math.huge);
		const fired = new Array<number>();
		const deadlines = [];
		for (let i = 10_000; i >= 1; i--) deadlines.push(scheduler.after(i, Priority.Normal, () => fired.push(i)));
		for (let i = 0; i < deadlines.size(); i += 2) deadlines[i].cancel();
		expect(scheduler.pending()).toBe(5_000);
		time.advance(10_001);
		step.fire();
		expect(fired.size()).toBe(5_000);
		for (let i = 1; i < fired.size(); i++) expect(fired[i] > fired[i - 1]).toBe(true);
	});

	it("runs on Heartbeat by default, on the engine's clock", () => {
		const scheduler = new Scheduler();
		let firedAt = -1;
		const started = os.clock();
		scheduler.after(2, Priority.Background, () => (firedAt = os.clock() - started));
		task.wait(3);
		expect(firedAt).toBeGreaterThanOrEqual(2);
		expect(firedAt).toBeLessThan(2.1);
	});
});
