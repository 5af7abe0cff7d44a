import tsParser from "@typescript-eslint/parser";
import tsPlugin from "@typescript-eslint/eslint-plugin";
import robloxTs from "eslint-plugin-roblox-ts";

export default [
	{
		ignores: [
			"out/**",
			"include/**",
			"dist/**",
			"node_modules/**",
			"**/*.mjs",
			"spec/packaging/fixtures/**",
			"examples/game/**",
			"examples/clients/**",
			"examples/games/**",
			"examples/stages/**",
			"spec/gate/tool/games/fixtures/**",
			"docs/.vitepress/cache/**",
			"docs/.vitepress/dist/**",
		],
	},
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
		// Every stage is a folder of stages/: its files import each other, the declarations in ../../contracts,
		// the shared runtime in ../../core and the kernel, never another stage, attach, settings or a backend
		// (attach alone wires them together).
		files: ["plugins/leaderboards/stages/**/*.ts"],
		rules: {
			"no-restricted-imports": [
				"error",
				{
					patterns: [
						{
							regex: "^\\.\\./(?!\\.\\./contracts$|\\.\\./core$|\\.\\./\\.\\./\\.\\./kernel$)",
							message: "A stage imports only ../../contracts, ../../core, the kernel and its own folder's files.",
						},
					],
				},
			],
		},
	},
];
