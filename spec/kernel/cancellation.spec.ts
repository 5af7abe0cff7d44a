import { describe, expect, it } from "@rbxts/jest-globals";
import { Priority, Scheduler, join, sleep } from "../../kernel";

describe("cancellation helpers", () => {
	it("sleep resolves after the seconds on the Scheduler", () => {
		const scheduler = new Scheduler();
		const started = os.clock();
		sleep(scheduler, 2, Priority.Background).await();
		expect(os.clock() - started).toBeCloseTo(2, 5);
		expect(scheduler.pending()).toBe(0);
	});

	it("cancelling a sleep cancels its deadline", () => {
		const scheduler = new Scheduler();
		const waiting = sleep(scheduler, 5);
		expect(scheduler.pending()).toBe(1);
		waiting.cancel();
		expect(scheduler.pending()).toBe(0);
	});

	it("join reports a Promise that settles in time, with its value", () => {
		const scheduler = new Scheduler();
		const write = Promise.delay(1).andThen(() => "written");
		const joined = join(scheduler, write, 5).expect();
		expect(joined).toEqual({ settled: true, ok: true, value: "written" });
		expect(scheduler.pending()).toBe(0);
	});

	it("join reports a rejection as settled and not ok", () => {
		const scheduler = new Scheduler();
		const joined = join(scheduler, Promise.reject("write failed"), 5).expect();
		expect(joined).toEqual({ settled: true, ok: false, problem: "write failed" });
	});

	it("join gives up at the deadline without cancelling what it joined", () => {
		const scheduler = new Scheduler();
		const write = Promise.delay(10).andThen(() => "late commit");
		const started = os.clock();
		const joined = join(scheduler, write, 2).expect();
		expect(joined.settled).toBe(false);
		expect(os.clock() - started).toBeCloseTo(2, 1);
		expect(write.expect()).toBe("late commit");
	});

	it("join of a cancelled Promise settles at once, not ok", () => {
		const scheduler = new Scheduler();
		const write = Promise.delay(10);
		task.delay(1, () => write.cancel());
		const joined = join(scheduler, write, 5).expect();
		expect(joined.settled).toBe(true);
		expect(joined.ok).toBe(false);
	});
});
