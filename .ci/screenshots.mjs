// A look at the built docs site as a reader sees it: builds it (vitepress), serves the build on
// loopback and has headless Chromium (Debian's package: apt-get install chromium) lay out every docs
// page at a phone's 390 px and a desktop's 1280 px and fail naming each page wider than that (the
// page itself would scroll sideways; a table may scroll inside its own box, which is counted), then take screenshots of the home page, the API reference and its Bus topics table into
// docs/screenshots/ (not in git), each at a desktop's 1280 px and a phone's 390 px (name-1280.png,
// name-390.png).
// The viewport is emulated (.ci/chromium.mjs), so 390 px is a true phone layout. `npm run docs:shots`.
import { spawnSync } from "node:child_process";
import { createReadStream, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, resolve } from "node:path";
import { browserPath, launch } from "./chromium.mjs";

const root = resolve(new URL("..", import.meta.url).pathname);
const site = join(root, "docs/.vitepress/dist");
const out = join(root, "docs/screenshots");
const PHONE = [390, 844];
const DESKTOP = [1280, 900];
if (!browserPath) {
	console.error("docs:shots: no Chromium (apt-get install chromium), so no screenshots were taken");
	process.exit(2);
}
const build = spawnSync("npx", ["vitepress", "build", "docs"], { cwd: root, stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml" };
// cleanUrls: /reference is reference.html.
const fileOf = (url) => {
	const path = join(site, decodeURIComponent(url.split("?")[0]));
	for (const candidate of [path, `${path}.html`, join(path, "index.html")])
		if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
	return undefined;
};
const server = createServer((request, response) => {
	const file = fileOf(request.url ?? "/");
	if (!file) return response.writeHead(404).end();
	response.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
	createReadStream(file).pipe(response);
});
const pages = readdirSync(join(root, "docs"))
	.filter((name) => name.endsWith(".md"))
	.map((name) => (name === "index.md" ? "/" : `/${name.slice(0, -3)}`));

server.listen(0, "127.0.0.1", async () => {
	const site = `http://127.0.0.1:${server.address().port}`;
	mkdirSync(out, { recursive: true });
	const page = await launch(join(out, ".profile"));
	try {
		let wide = 0;
		for (const size of [PHONE, DESKTOP]) {
			for (const path of pages) {
				await page.open(site + path, size);
				const width = await page.width();
				if (width.scrolling > 0)
					console.log(
						`docs:shots: ${path} at ${size[0]} px: ${width.scrolling} table(s) scroll inside their box`,
					);
				if (width.page <= width.view) continue;
				wide++;
				console.error(`docs:shots: ${path} lays out ${width.page} px wide at ${width.view} px; sticking out:`);
				for (const line of width.wide) console.error(`  ${line}`);
			}
		}
		console.log(`docs:shots: ${2 * pages.length - wide} of ${2 * pages.length} page layouts fit their width`);
		if (wide > 0) process.exitCode = 1;
		for (const [name, path] of [
			["home", "/"],
			["reference", "/reference"],
			["topics", "/reference#bus-topics"],
		])
			for (const size of [DESKTOP, PHONE]) {
				const file = `${name}-${size[0]}.png`;
				await page.open(site + path, size);
				writeFileSync(join(out, file), await page.shoot());
				console.log(`docs:shots: ${path} at ${size[0]} px -> docs/screenshots/${file}`);
			}
	} catch (problem) {
		console.error(`docs:shots: Chromium failed: ${problem.message}`);
		process.exitCode = 1;
	} finally {
		await page.close();
		server.close();
	}
});
