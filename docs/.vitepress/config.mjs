// The docs site: `npm run docs` builds docs/ into docs/.vitepress/dist, `npm run docs:dev` serves it.
// Links and anchors are also checked without a build by .ci/docs.mjs (npm test).
import { defineConfig } from "vitepress";

// Inline code may break after a dot that a name follows (`Leaderboard.<wbr>PeriodEndFailed`), so a long
// name in a narrow table column breaks at its dots, not anywhere, and never widens the page.
function breakAtDots(md) {
	const render = md.renderer.rules.code_inline;
	md.renderer.rules.code_inline = (...args) => {
		const html = render(...args);
		const open = html.indexOf(">") + 1;
		const close = html.lastIndexOf("<");
		return html.slice(0, open) + html.slice(open, close).replace(/\.(?=[A-Za-z_])/g, ".<wbr>") + html.slice(close);
	};
}

export default defineConfig({
	title: "Leaderboards",
	description: "Game-wide top-N boards for Roblox, within the request budgets, drained on shutdown.",
	cleanUrls: true,
	markdown: { config: breakAtDots },
	themeConfig: {
		nav: [
			{ text: "Guide", link: "/getting-started-luau" },
			{ text: "Reference", link: "/reference" },
		],
		sidebar: [
			{
				text: "Start",
				items: [
					{ text: "Getting started in Luau", link: "/getting-started-luau" },
					{ text: "Getting started in roblox-ts", link: "/getting-started-roblox-ts" },
				],
			},
			{
				text: "Guide",
				items: [
					{ text: "Boards", link: "/boards" },
					{ text: "Where do I stand", link: "/standing" },
					{ text: "Moderation", link: "/moderation" },
					{ text: "Moderating from outside the game", link: "/moderation-cli" },
					{ text: "Erasure", link: "/erasure" },
					{ text: "Period rewards", link: "/rewards" },
					{ text: "Backends and scale", link: "/backends" },
					{ text: "Shutdown, and what can be lost", link: "/shutdown" },
					{ text: "Testing your game with the gate", link: "/testing" },
				],
			},
			{
				text: "Reference",
				items: [
					{ text: "API reference", link: "/reference" },
					{ text: "How it works", link: "/how-it-works" },
					{ text: "Writing your own stage", link: "/extending" },
					{ text: "The manifest", link: "/manifest" },
					{ text: "The demo", link: "/demo" },
					{ text: "Benchmarks", link: "/benchmarks" },
					{ text: "The design document", link: "/design" },
				],
			},
		],
		outline: { level: [2, 3] },
		search: { provider: "local" },
	},
});
