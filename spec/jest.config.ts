// jest-lua reads this ModuleScript from the spec root, in Studio and in the gate.
export = {
	testMatch: ["**/*.spec"],
	// Fixtures are loaded by specs, never run as specs (the failing one is the gate's self-check);
	// spec/scale is npm run scale's (too long for npm test).
	testPathIgnorePatterns: ["fixtures", "scale"],
	// Time in the headless gate is virtual, so generous timeouts cost nothing there.
	testTimeout: 120_000,
	setupFiles: [script.Parent!.FindFirstChild("setup")!],
};
