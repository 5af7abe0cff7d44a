import { describe, expect, it } from "@rbxts/jest-globals";
import { Priority, Scheduler, Timers } from "../../kernel";

// On the engine's clock and Heartbeat, as a stage's timers run.
function setup() {
	const scheduler = new Scheduler();
	return { scheduler, timers: new Timers(scheduler) };
}

describe("Timers", () => {
	it("arm runs work once on its own thread, which may yield", () => {
		const { scheduler, timers } = setup();
		const seen = new Array<string>();
		timers.arm("once", 2, () => {
			seen.push("began");
			task.wait(1);
			seen.push("ended");
		});
		task.wait(2.5);
		expect(seen).toEqual(["began"]);
		task.wait(1);
		expect(seen).toEqual(["began", "ended"]);
		expect(scheduler.pending()).toBe(0);
	});

	it("arming a name again replaces its timer", () => {
		const { scheduler, timers } = setup();
		const seen = new Array<number>();
		timers.arm("check", 5, () => seen.push(5));
		timers.arm("check", 1, () => seen.push(1));
		timers.arm("other", 3, () => seen.push(3));
		expect(scheduler.pending()).toBe(2);
		task.wait(6);
		expect(seen).toEqual([1, 3]);
	});

	it("every repeats, each next turn `seconds` after the last returned", () => {
		const { timers } = setup();
		const started = os.clock();
		const turns = new Array<number>();
		timers.every("poll", 2, () => {
			turns.push(os.clock() - started);
			task.wait(1);
		});
		task.wait(9.5);
		timers.destroy();
		expect(turns).toEqual([2, 5, 8]);
	});

	it("an error in a repetition's work is reported as its thread's error and the repetition goes on", () => {
		const { timers } = setup();
		const errors = new Array<string>();
		const output = game
			.GetService("LogService")
			.MessageOut.Connect((text, kind) => kind === Enum.MessageType.MessageError && errors.push(text));
		let turns = 0;
		timers.every("flaky", 1, () => {
			turns += 1;
			if (turns === 1) error("flaky work", 0);
		});
		task.wait(3.5);
		timers.destroy();
		output.Disconnect();
		expect(turns).toBe(3);
		expect(errors.size()).toBe(1);
		expect(errors[0]).toMatch("^flaky work");
	});

	it("cancel while a repetition's work runs: no next turn", () => {
		const { scheduler, timers } = setup();
		let turns = 0;
		timers.every("poll", 1, () => {
			turns += 1;
			task.wait(1);
		});
		task.wait(1.5);
		timers.cancel("poll");
		task.wait(5);
		expect(turns).toBe(1);
		expect(scheduler.pending()).toBe(0);
	});

	it("destroy cancels every timer, ends repetitions under way and refuses later arms", () => {
		const { scheduler, timers } = setup();
		let runs = 0;
		timers.arm("a", 10, () => runs++);
		timers.every("b", 1, () => {
			runs++;
			task.wait(2);
		});
		task.wait(1.5);
		expect(runs).toBe(1);
		timers.destroy();
		expect(scheduler.pending()).toBe(0);
		timers.arm("c", 1, () => runs++);
		timers.every("d", 1, () => runs++);
		expect(scheduler.pending()).toBe(0);
		task.wait(12);
		expect(runs).toBe(1);
	});

	it("sleep waits on the Scheduler; destroy cancels a sleep under way and every later one at once", () => {
		const { scheduler, timers } = setup();
		const started = os.clock();
		expect(timers.sleep(2).await()[0]).toBe(true);
		expect(os.clock() - started).toBe(2);
		const woke = new Array<boolean>();
		task.spawn(() => woke.push(timers.sleep(30).await()[0]));
		task.wait(1);
		expect(scheduler.pending()).toBe(1);
		timers.destroy();
		// The waiter goes on at the close, told its wait was cancelled; no deadline stays armed.
		expect(woke).toEqual([false]);
		expect(scheduler.pending()).toBe(0);
		const later = os.clock();
		expect(timers.sleep(5).await()[0]).toBe(false);
		expect(os.clock()).toBe(later);
		expect(scheduler.pending()).toBe(0);
	});

	it("arms at the priority it was made with", () => {
		const scheduler = new Scheduler();
		const order = new Array<string>();
		new Timers(scheduler, Priority.Background).arm("late", 1, () => order.push("background"));
		new Timers(scheduler, Priority.High).arm("first", 1, () => order.push("high"));
		task.wait(2);
		expect(order).toEqual(["high", "background"]);
	});
});
