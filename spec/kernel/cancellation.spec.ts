import { describe, expect, it } from "@rbxts/jest-globals";
import { Priority, Scheduler, join, sleep, within } from "../../kernel";

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

	it("within returns what work returned when it finishes in time", () => {
		const scheduler = new Scheduler();
		const result = within(scheduler, 5, () => {
			task.wait(1);
			return "read";
		});
		expect(result).toEqual({ settled: true, ok: true, value: "read" });
		expect(scheduler.pending()).toBe(0);
	});

	it("within reports an error work raised as settled and not ok", () => {
		const scheduler = new Scheduler();
		const result = within(scheduler, 5, () => error("store exploded", 0));
		expect(result.settled).toBe(true);
		expect(result.ok).toBe(false);
		expect(result.problem).toBe("store exploded");
	});

	it("within gives up on work that never returns at the deadline", () => {
		const scheduler = new Scheduler();
		const started = os.clock();
		const result = within(scheduler, 3, () => coroutine.yield());
		expect(result.settled).toBe(false);
		expect(os.clock() - started).toBeCloseTo(3, 1);
		expect(scheduler.pending()).toBe(0);
	});
});
