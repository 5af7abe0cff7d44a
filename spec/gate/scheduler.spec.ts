import { describe, expect, it } from "@rbxts/jest-globals";
import { LogService, RunService } from "@rbxts/services";
import { headlessGate } from "./control";

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

describeGate("the task library on the virtual clock", () => {
	it("runs spawn at once, defer after the current thread, delays by deadline", () => {
		const order: string[] = [];
		task.delay(0.5, () => order.push("delay 0.5"));
		task.delay(0.1, () => order.push("delay 0.1"));
		task.defer(() => order.push("defer"));
		task.spawn(() => order.push("spawn"));
		order.push("caller");
		task.wait(1);
		expect(order).toEqual(["spawn", "caller", "defer", "delay 0.1", "delay 0.5"]);
	});

	it("resumes delays due at the same time in the order they were armed", () => {
		const order: number[] = [];
		for (const i of [1, 2, 3]) task.delay(1, () => order.push(i));
		task.wait(2);
		expect(order).toEqual([1, 2, 3]);
	});

	it("a 60 s wait moves the virtual clock 60 s, untied to the wall clock", () => {
		const virtualStart = os.clock();
		const wallStart = gate!.wallClock();
		const elapsed = task.wait(60);
		expect(elapsed).toBe(60);
		expect(os.clock() - virtualStart).toBe(60);
		// Nothing sleeps: virtual time outruns real time instead of following it.
		expect(gate!.wallClock() - wallStart < os.clock() - virtualStart).toBe(true);
	});

	it("task.cancel before the deadline means the callback never runs", () => {
		let ran = false;
		const thread = task.delay(1, () => (ran = true));
		task.cancel(thread);
		task.wait(2);
		expect(ran).toBe(false);
	});

	it("reports an erroring spawned thread with its stack and keeps running", () => {
		const errors: string[] = [];
		const connection = LogService.MessageOut.Connect((message, kind) => {
			if (kind === Enum.MessageType.MessageError) errors.push(message);
		});
		task.spawn(() => error("boom from a thread"));
		let after = false;
		task.defer(() => (after = true));
		task.wait();
		connection.Disconnect();
		expect(after).toBe(true);
		expect(errors.size()).toBe(1);
		expect(errors[0]).toMatch("boom from a thread");
		expect(errors[0]).toMatch("Stack Begin");
	});

	it("a deferred thread that defers again runs, to a depth of 10 re-deferrals", () => {
		task.wait(); // from a timer's resumption point, not from inside another deferred thread
		let depth = 0;
		const redefer = () => {
			depth += 1;
			if (depth < 10) task.defer(redefer);
		};
		task.defer(redefer);
		task.wait();
		expect(depth).toBe(10);
	});

	it("two threads deferred from one deferred thread both run, and one deferred before them too", () => {
		task.wait();
		const order: string[] = [];
		task.defer(() => {
			order.push("first");
			task.defer(() => order.push("a"));
			task.defer(() => order.push("b"));
		});
		task.defer(() => order.push("unrelated"));
		task.wait();
		expect(order).toEqual(["first", "unrelated", "a", "b"]);
	});

	// create.roblox.com/docs/scripting/events/deferred: "Re-entrancy ... The current limit for
	// this is 10"; the engine reports "Maximum re-entrancy depth (10) exceeded".
	it("past Roblox's re-entrancy limit of 10, a re-deferring chain stops with the engine's error", () => {
		const errors: string[] = [];
		const connection = LogService.MessageOut.Connect((message, kind) => {
			if (kind === Enum.MessageType.MessageError) errors.push(message);
		});
		task.wait();
		let depth = 0;
		const redefer = () => {
			depth += 1;
			task.defer(redefer);
		};
		task.defer(redefer);
		task.wait();
		task.wait();
		connection.Disconnect();
		expect(depth).toBe(10);
		expect(errors).toEqual(["Maximum re-entrancy depth (10) exceeded"]);
	});

	it("task.cancel on a deferred thread means it never runs", () => {
		let ran = false;
		const thread = task.defer(() => (ran = true));
		task.cancel(thread);
		task.wait();
		expect(ran).toBe(false);
	});

	it("fires Heartbeat once a frame (1/64 s, exact) with the frame's delta", () => {
		const deltas: number[] = [];
		const connection = RunService.Heartbeat.Connect((dt) => deltas.push(dt));
		task.wait(0.1);
		connection.Disconnect();
		expect(deltas.size()).toBeGreaterThanOrEqual(5);
		expect(deltas[0]).toBe(1 / 64);
	});

	it("os.clock, time and tick follow the virtual clock", () => {
		const [clock, now, ticked] = [os.clock(), time(), tick()];
		task.wait(10);
		expect(os.clock() - clock).toBeCloseTo(10, 1);
		expect(time() - now).toBeCloseTo(10, 1);
		expect(tick() - ticked).toBeCloseTo(10, 1);
	});

	it("the calendar starts on Sunday 2026-12-06 00:00 UTC; calendar.set moves it at once and reset() puts it back", () => {
		const sunday = 1796515200;
		expect(os.time()).toBe(sunday + math.floor(gate!.now()));
		gate!.calendar.set(sunday + 86400 - 5); // 5 s before Monday
		expect(os.time()).toBe(sunday + 86400 - 5);
		expect(math.floor(DateTime.now().UnixTimestamp)).toBe(sunday + 86400 - 5);
		task.wait(6);
		expect(os.date("!*t").wday).toBe(2);
		expect(os.date("!*t").hour).toBe(0);
		gate!.reset();
		expect(os.time()).toBe(sunday + math.floor(gate!.now()));
	});
});
