import tsParser from "@typescript-eslint/parser";
import tsPlugin from "@typescript-eslint/eslint-plugin";
import robloxTs from "eslint-plugin-roblox-ts";

export default [
	{ ignores: ["out/**", "include/**", "dist/**", "node_modules/**", "**/*.mjs", "spec/packaging/fixtures/**", "examples/game/**", "docs/.vitepress/cache/**", "docs/.vitepress/dist/**"] },
	{
		files: ["**/*.ts"],
		languageOptions: {
			parser: tsParser,
			parserOptions: { project: "./tsconfig.json", sourceType: "module", ecmaVersion: 2018 },
		},
		plugins: { "@typescript-eslint": tsPlugin, "roblox-ts": robloxTs },
		rules: {
			...robloxTs.configs.recommended.rules,
			// destroy() returns (complete, result) to Luau callers, as the design document specifies.
			"roblox-ts/no-user-defined-lua-tuple": "off",
			"@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
			"@typescript-eslint/no-explicit-any": "error",
			"no-restricted-imports": ["error", { patterns: ["../../plugins/*", "**/plugins/**"] }],
		},
	},
	{
		// kernel/ knows nothing of plugins/.
		files: ["kernel/**/*.ts"],
		rules: { "no-restricted-imports": ["error", { patterns: ["**/plugins/**", "../plugins/*"] }] },
	},
	{
		files: ["plugins/**/*.ts", "spec/**/*.ts", "examples/**/*.ts", "bench/**/*.ts"],
		rules: { "no-restricted-imports": "off" },
	},
	{
		// A stage imports only the contracts in ./types (and the kernel); attach alone wires stages together.
		files: ["plugins/leaderboards/{Queue,Flusher,Reader,NameResolver,Drainer}.ts"],
		rules: {
			"no-restricted-imports": [
				"error",
				{ patterns: ["./Queue", "./Flusher", "./Reader", "./NameResolver", "./Drainer", "./attach", "./settings", "./backends/*"] },
			],
		},
	},
];
