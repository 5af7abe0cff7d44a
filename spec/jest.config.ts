// jest-lua reads this ModuleScript from the spec root, in Studio and in the gate.
export = {
	testMatch: ["**/*.spec"],
	// Time in the headless gate is virtual, so generous timeouts cost nothing there.
	testTimeout: 120_000,
	setupFiles: [script.Parent!.FindFirstChild("setup")!],
};
