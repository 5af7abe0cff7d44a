// A look at the built docs site as a reader sees it: builds it (vitepress), serves the build on
// loopback and has headless Chromium (Debian's package: apt-get install chromium) take screenshots of
// the home page and the API reference into docs/screenshots/ (not in git), each at a desktop's 1280 px
// and a phone's 390 px (name-1280.png, name-390.png). `npm run docs:shots`.
import { spawn, spawnSync } from "node:child_process";
import { createReadStream, existsSync, mkdirSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, resolve } from "node:path";

const root = resolve(new URL("..", import.meta.url).pathname);
const site = join(root, "docs/.vitepress/dist");
const out = join(root, "docs/screenshots");
const browser = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((path) => existsSync(path));
if (!browser) {
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
// Chromium runs as a child while this process serves it (a synchronous spawn would block the server).
function screenshot(url, file, [width, height]) {
	return new Promise((done) => {
		const child = spawn(browser, [
			"--headless",
			"--no-sandbox",
			"--disable-gpu",
			"--disable-background-networking",
			"--disable-component-update",
			"--no-first-run",
			`--user-data-dir=${join(out, ".profile")}`,
			`--window-size=${width},${height}`,
			`--screenshot=${file}`,
			url,
		]);
		let errors = "";
		child.stderr.on("data", (chunk) => (errors += chunk));
		const timer = setTimeout(() => child.kill(), 60_000);
		child.on("close", (code) => {
			clearTimeout(timer);
			done(code === 0 && existsSync(file) ? undefined : errors);
		});
	});
}

server.listen(0, "127.0.0.1", async () => {
	const { port } = server.address();
	mkdirSync(out, { recursive: true });
	for (const [name, path] of [
		["home", "/"],
		["reference", "/reference"],
	])
		for (const size of [
			[1280, 900],
			[390, 844],
		]) {
			const file = `${name}-${size[0]}.png`;
			const problem = await screenshot(`http://127.0.0.1:${port}${path}`, join(out, file), size);
			if (problem === undefined) console.log(`docs:shots: ${path} at ${size[0]} px -> docs/screenshots/${file}`);
			else {
				console.error(`docs:shots: Chromium failed on ${path} at ${size[0]} px:\n${problem}`);
				process.exitCode = 1;
			}
		}
	server.close();
});
