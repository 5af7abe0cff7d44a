// jest-lua reads this ModuleScript from the spec root: npm run scale runs spec/scale, the specs too
// long for npm test (many servers for minutes; spec/jest.config.ts leaves them out).
export = {
	testMatch: ["**/*.spec"],
	testTimeout: 3_600_000,
	setupFiles: [script.Parent!.Parent!.FindFirstChild("setup")!],
};
