// The template's shared module, specified where it sits (ReplicatedStorage.TS: a second spec root).
import { describe, expect, it } from "@rbxts/jest-globals";
import { makeHello } from "./module";

describe("makeHello", () => {
	it("greets by name", () => {
		expect(makeHello("ada")).toBe("Hello from ada!");
	});
});
