import { describe, expect, it } from "@rbxts/jest-globals";
import { Priority, Scheduler, sleep } from "../../kernel";
import { manualClock, manualStep, manualWake } from "./doubles";

function setup(stepBudget?: number) {
	const time = manualClock();
	const step = manualStep();
	const wake = manualWake(time.clock);
	const scheduler = new Scheduler({ clock: time.clock, step: step.signal, wake: wake.wake, stepBudget });
	return { time, step, wake, scheduler };
}

describe("Scheduler's wake", () => {
	it("nothing pending: no step connection and no wake armed", () => {
		const { step, wake, scheduler } = setup();
		expect(step.listeners()).toBe(0);
		expect(wake.arms()).toBe(0);
		scheduler.after(5, Priority.Normal, () => {}).cancel();
		expect(step.listeners()).toBe(0);
		expect(wake.armed()).toEqual([]);
	});

	it("a far deadline arms one wake and leaves the step signal off until it", () => {
		const { time, step, wake, scheduler } = setup();
		let fired = false;
		scheduler.after(10, Priority.Background, () => (fired = true));
		expect(step.listeners()).toBe(0);
		expect(wake.armed()).toEqual([10]);
		time.advance(9);
		wake.fire();
		expect(step.listeners()).toBe(0);
		time.advance(1);
		wake.fire();
		expect(step.listeners()).toBe(1);
		expect(fired).toBe(false);
		step.fire();
		expect(fired).toBe(true);
		expect(step.listeners()).toBe(0);
		expect(wake.armed()).toEqual([]);
	});

	it("a deadline added earlier than the armed one re-arms the wake; a later one does not", () => {
		const { time, step, wake, scheduler } = setup();
		const order = new Array<number>();
		scheduler.after(10, Priority.Normal, () => order.push(10));
		scheduler.after(3, Priority.Background, () => order.push(3));
		expect(wake.armed()).toEqual([3]);
		scheduler.after(5, Priority.High, () => order.push(5));
		expect(wake.armed()).toEqual([3]);
		expect(wake.arms()).toBe(2);
		time.advance(3);
		wake.fire();
		step.fire();
		expect(order).toEqual([3]);
		expect(step.listeners()).toBe(0);
		expect(wake.armed()).toEqual([5]);
	});

	it("cancelling the earliest re-arms the wake for the next; cancelling the last disarms it", () => {
		const { wake, scheduler } = setup();
		const late = scheduler.after(8, Priority.Normal, () => {});
		const early = scheduler.after(2, Priority.Normal, () => {});
		expect(wake.armed()).toEqual([2]);
		early.cancel();
		expect(wake.armed()).toEqual([8]);
		late.cancel();
		expect(wake.armed()).toEqual([]);
	});

	it("cancelling everything while the wake is armed (a stage's destroy()) leaves nothing to wake or step", () => {
		const { time, step, wake, scheduler } = setup();
		const sleeping = [sleep(scheduler, 30), sleep(scheduler, 60, Priority.Background)];
		const deadline = scheduler.after(45, Priority.High, () => {});
		expect(wake.armed()).toEqual([30]);
		for (const promise of sleeping) promise.cancel();
		deadline.cancel();
		expect(scheduler.pending()).toBe(0);
		expect(wake.armed()).toEqual([]);
		time.advance(60);
		wake.fire();
		expect(step.listeners()).toBe(0);
	});

	it("cancelling everything between the wake and its step lets the step signal go", () => {
		const { time, step, wake, scheduler } = setup();
		const deadline = scheduler.after(1, Priority.Normal, () => {});
		time.advance(1);
		wake.fire();
		expect(step.listeners()).toBe(1);
		deadline.cancel();
		expect(step.listeners()).toBe(0);
	});

	it("work still due after a step keeps the step signal on until it has run", () => {
		const { time, step, wake, scheduler } = setup(0.002);
		const order = new Array<string>();
		for (const name of ["b1", "b2", "b3"])
			scheduler.after(1, Priority.Background, () => {
				order.push(name);
				time.advance(0.0015);
			});
		scheduler.after(20, Priority.Normal, () => order.push("later"));
		time.advance(1);
		wake.fire();
		step.fire();
		expect(order).toEqual(["b1", "b2"]);
		expect(step.listeners()).toBe(1);
		step.fire();
		expect(order).toEqual(["b1", "b2", "b3"]);
		expect(step.listeners()).toBe(0);
		expect(wake.armed()).toEqual([20]);
	});

	it("work armed during a step for now runs on the next step, without a wake", () => {
		const { step, wake, scheduler } = setup();
		let runs = 0;
		scheduler.after(0, Priority.Normal, () => {
			runs += 1;
			scheduler.after(0, Priority.Normal, () => (runs += 1));
		});
		wake.fire();
		step.fire();
		expect(runs).toBe(1);
		expect(step.listeners()).toBe(1);
		const arms = wake.arms();
		step.fire();
		expect(runs).toBe(2);
		expect(wake.arms()).toBe(arms);
		expect(step.listeners()).toBe(0);
	});

	it("a wake that comes early by the Scheduler's clock is armed again for what is left", () => {
		const { time, step, wake, scheduler } = setup();
		let fired = false;
		scheduler.after(4, Priority.Normal, () => (fired = true));
		time.advance(4);
		wake.fire();
		time.advance(-0.5); // the engine's timer and the Scheduler's clock disagree by half a second
		step.fire();
		expect(fired).toBe(false);
		expect(step.listeners()).toBe(0);
		expect(wake.armed()).toEqual([4]);
	});
});
