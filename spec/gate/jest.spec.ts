import { afterEach, beforeEach, describe, expect, it, jest } from "@rbxts/jest-globals";

// What game teams lean on in jest-roblox works in the headless gate too.
describe("jest in the gate", () => {
	let calls = new Array<string>();
	beforeEach(() => calls.push("before"));
	afterEach(() => (calls = []));

	it("runs beforeEach before each test", () => {
		expect(calls).toEqual(["before"]);
	});

	it("records calls with jest.fn", () => {
		const handler = jest.fn((score: number) => score * 2);
		expect(handler(21)).toBe(42);
		expect(handler).toHaveBeenCalledTimes(1);
		expect(handler).toHaveBeenCalledWith(21);
	});

	it("fake timers drive task.delay without waiting", () => {
		jest.useFakeTimers();
		let fired = false;
		task.delay(30, () => (fired = true));
		jest.advanceTimersByTime(29_000);
		expect(fired).toBe(false);
		jest.advanceTimersByTime(1_000);
		expect(fired).toBe(true);
		jest.useRealTimers();
	});
});
