// The client's answers to each failure, on a fake fetch: what it retries, what it names, never the key.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Cloud, CloudError } from "../src/cloud.mjs";
import { Pacer } from "../src/pacing.mjs";

const KEY = "secret-key-123";

/** @typedef {[number, unknown, Record<string, string>?]} Answer an answer: status, body, headers */

/**
 * A client whose fetch answers from `answers` in turn.
 * @param {Answer[]} answers
 */
function client(answers) {
	/** @type {number[]} */
	const waits = [];
	/** @type {string[]} */
	const notes = [];
	/** @type {{ url: string, init: { headers: Record<string, string> } }[]} */
	const seen = [];
	const cloud = new Cloud({
		baseUrl: "http://open.cloud/",
		apiKey: KEY,
		universe: 42,
		pacer: new Pacer({ share: 1, players: 0 }),
		note: (text) => notes.push(text),
		wait: async (ms) => {
			waits.push(ms);
		},
		fetch: async (url, init) => {
			seen.push({ url: String(url), init: /** @type {{ headers: Record<string, string> }} */ (init) });
			const [status, body, headers = {}] = answers.shift() ?? [500, {}];
			return new Response(JSON.stringify(body), {
				status,
				headers: { date: "Sun, 06 Dec 2026 12:00:00 GMT", ...headers },
			});
		},
	});
	return { cloud, waits, notes, seen };
}

/** @param {Cloud} cloud */
const entry = (cloud) => `${cloud.orderedEntries("CKBoard_Kills")}/105`;

test("sends the key in x-api-key only, and takes Open Cloud's clock from its Date header", async () => {
	const { cloud, seen } = client([[200, { value: 5 }]]);
	const { body } = await cloud.request("GetOrderedDataStoreEntry", "GET", entry(cloud));
	assert.equal(body.value, 5);
	assert.equal(
		seen[0].url,
		"http://open.cloud/cloud/v2/universes/42/ordered-data-stores/CKBoard_Kills/scopes/global/entries/105",
	);
	assert.equal(seen[0].init.headers["x-api-key"], KEY);
	assert.ok(Math.abs(cloud.now() - Date.UTC(2026, 11, 6, 12) / 1000) < 5);
});

test("429: backs off 1, 2, 4 ... s (or Retry-After), then answers", async () => {
	const busy = { code: "RESOURCE_EXHAUSTED", message: "OrderedRead request was throttled by experience limits." };
	const { cloud, waits, notes } = client([
		[429, busy],
		[429, busy, { "retry-after": "7" }],
		[200, { value: 1 }],
	]);
	assert.equal((await cloud.request("GetOrderedDataStoreEntry", "GET", entry(cloud))).status, 200);
	assert.ok(waits[0] >= 1000 && waits[0] <= 1250);
	assert.equal(waits[1], 7000);
	assert.match(notes[0], /the experience's OrderedRead budget is spent for now \(429 RESOURCE_EXHAUSTED/);
});

test("429 seven times: an error naming the budget and what to do", async () => {
	/** @type {Answer} */
	const busy = [429, { code: "RESOURCE_EXHAUSTED", message: "busy" }];
	const { cloud, waits } = client(Array.from({ length: 7 }, () => busy));
	await assert.rejects(cloud.request("ListOrderedDataStoreEntries", "GET", cloud.orderedEntries("K")), (error) => {
		assert.ok(error instanceof CloudError);
		assert.match(error.message, /the experience's OrderedList budget stayed spent after 7 tries .* lower --share/);
		return true;
	});
	assert.equal(waits.length, 6);
});

test("500: three retries, then the failure named", async () => {
	/** @type {Answer} */
	const down = [500, { code: "INTERNAL", message: "down" }];
	const { cloud, waits } = client([down, down, down, down]);
	await assert.rejects(
		cloud.request("GetDataStoreEntry", "GET", cloud.standardEntries("M") + "/layout"),
		/Open Cloud failed: 500 INTERNAL: down/,
	);
	assert.equal(waits.length, 3);
});

test("401, 403 and 404 fail at once, naming the cause; the key never appears", async () => {
	/** @type {[number, unknown, RegExp][]} */
	const cases = [
		[
			401,
			{ errors: [{ code: 0, message: `Invalid API Key ${KEY}` }] },
			/refused the API key \(401: Invalid API Key <api key>\)/,
		],
		[
			403,
			{ code: "PERMISSION_DENIED", message: "no" },
			/lacks the permission universe\.ordered-data-store\.scope\.entry:write for universe 42/,
		],
		[
			404,
			{ code: "NOT_FOUND", message: "no universe" },
			/no such universe or store \(404 NOT_FOUND: no universe\)/,
		],
	];
	for (const [status, body, pattern] of cases) {
		const { cloud, waits } = client([[status, body]]);
		await assert.rejects(cloud.request("DeleteOrderedDataStoreEntry", "DELETE", entry(cloud)), (error) => {
			const message = cloud.redact(/** @type {Error} */ (error).message);
			assert.match(message, pattern);
			assert.ok(!message.includes(KEY));
			return true;
		});
		assert.equal(waits.length, 0);
	}
});
