// Headless Chromium driven over the DevTools protocol on a pipe (--remote-debugging-pipe: requests on
// fd 3, answers on fd 4, each a JSON text ended by a NUL), so a page lays out at exactly the viewport
// asked for (Emulation.setDeviceMetricsOverride): a window alone cannot go below about 500 px, so a
// phone's 390 px needs the emulation. Used by .ci/screenshots.mjs (npm run docs:shots).
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";

export const browserPath = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((path) => existsSync(path));

/** Starts Chromium; resolves to a page `{ open, width, shoot, close }`. */
export async function launch(profile) {
	const child = spawn(
		browserPath,
		[
			"--headless",
			"--no-sandbox",
			"--disable-gpu",
			"--disable-background-networking",
			"--disable-component-update",
			"--no-first-run",
			"--hide-scrollbars",
			`--user-data-dir=${profile}`,
			"--remote-debugging-pipe",
			"about:blank",
		],
		{ stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] },
	);
	let errors = "";
	child.stderr.on("data", (chunk) => (errors += chunk));
	const waiting = new Map();
	const events = [];
	let nextId = 1;
	let buffer = "";
	child.stdio[4].on("data", (chunk) => {
		buffer += chunk;
		for (let end = buffer.indexOf("\0"); end >= 0; end = buffer.indexOf("\0")) {
			const message = JSON.parse(buffer.slice(0, end));
			buffer = buffer.slice(end + 1);
			if (message.id === undefined) events.forEach((hear) => hear(message));
			else waiting.get(message.id)?.(message);
		}
	});
	const exited = new Promise((done) => child.on("close", done));
	const send = (method, params = {}, sessionId) =>
		new Promise((done, fail) => {
			const id = nextId++;
			const timer = setTimeout(() => fail(new Error(`${method}: no answer in 60 s\n${errors}`)), 60_000);
			waiting.set(id, (message) => {
				clearTimeout(timer);
				waiting.delete(id);
				if (message.error) fail(new Error(`${method}: ${message.error.message}`));
				else done(message.result);
			});
			child.stdio[3].write(`${JSON.stringify({ id, method, params, sessionId })}\0`);
		});

	const { targetId } = await send("Target.createTarget", { url: "about:blank" });
	const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true });
	const call = (method, params) => send(method, params, sessionId);
	await call("Page.enable");
	const evaluate = async (expression) =>
		(await call("Runtime.evaluate", { expression, returnByValue: true, awaitPromise: true })).result.value;

	const load = async (url) => {
		let heard;
		let timer;
		const loaded = new Promise((done, fail) => {
			timer = setTimeout(() => fail(new Error(`${url}: not loaded in 60 s`)), 60_000);
			heard = (message) => {
				if (message.sessionId === sessionId && message.method === "Page.loadEventFired") done();
			};
			events.push(heard);
		});
		try {
			await call("Page.navigate", { url });
			await loaded;
		} finally {
			clearTimeout(timer);
			events.splice(events.indexOf(heard), 1);
		}
	};

	return {
		/** Lays the page out at width x height CSS px (mobile, scale 1) and loads url. */
		async open(url, [width, height]) {
			await call("Emulation.setDeviceMetricsOverride", {
				width,
				height,
				deviceScaleFactor: 1,
				mobile: width < 640,
			});
			// From a blank page, so a URL that differs only in its #hash loads afresh (no same-page
			// navigation, which fires no load event) with no transition of the last layout running.
			await load("about:blank");
			await load(url);
			await evaluate("document.fonts.ready.then(() => true)");
		},
		/** The page's laid-out width, the viewport's, the elements that stick out past the viewport, and
		 * how many tables scroll inside their own box. */
		width: () =>
			evaluate(`(() => {
				const view = document.documentElement.clientWidth;
				const wide = [...document.querySelectorAll(".vp-doc *, .VPContent *")]
					.filter((e) => e.getBoundingClientRect().right > view + 0.5 && e.parentElement?.getBoundingClientRect().right <= view + 0.5)
					.slice(0, 5)
					.map((e) => e.tagName.toLowerCase() + ' "' + e.textContent.trim().slice(0, 40) + '" ' + Math.round(e.getBoundingClientRect().right) + " px");
				const scrolling = [...document.querySelectorAll(".vp-doc table")].filter((t) => t.scrollWidth > t.clientWidth + 1).length;
				return { page: document.documentElement.scrollWidth, view, wide, scrolling };
			})()`),
		/** A PNG of the viewport. */
		async shoot() {
			const { data } = await call("Page.captureScreenshot", { format: "png" });
			return Buffer.from(data, "base64");
		},
		async close() {
			await send("Browser.close").catch(() => undefined);
			await exited;
		},
	};
}
