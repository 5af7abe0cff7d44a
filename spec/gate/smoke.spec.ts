import { describe, expect, it } from "@rbxts/jest-globals";

describe("smoke", () => {
	it("adds", () => {
		expect(1 + 1).toBe(2);
	});
	it("waits a minute of virtual time", () => {
		const started = os.clock();
		task.wait(60);
		expect(os.clock() - started).toBeCloseTo(60, 1);
	});
});
