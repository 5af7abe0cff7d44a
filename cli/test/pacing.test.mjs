// The leaky bucket never lets a window of a minute hold more than the share, whatever the callers do.
import assert from "node:assert/strict";
import { test } from "node:test";
import { LeakyBucket, Pacer, shareOf } from "../src/pacing.mjs";

/**
 * A bucket on a fake clock: waits move the clock instead of sleeping.
 * @param {number} perMinute
 */
function fakeBucket(perMinute) {
	let now = 0;
	const bucket = new LeakyBucket(perMinute, {
		clock: () => now,
		wait: async (ms) => {
			now += ms;
		},
	});
	return { bucket, now: () => now };
}

test("the share of a budget: share x (base + per-user x players)", () => {
	assert.equal(shareOf("OrderedList", 0.1, 0), 30);
	assert.equal(shareOf("OrderedRead", 0.5, 10), 350);
	assert.equal(shareOf("MemoryStore", 0.1, 100), 1300);
});

for (const perMinute of [30, 150, 300, 1300]) {
	test(`${perMinute} a minute: no window of 60 s holds more; a burst of a sixth of a minute (10 at most) first`, async () => {
		const { bucket, now } = fakeBucket(perMinute);
		/** @type {number[]} */
		const sent = [];
		for (let i = 0; i < perMinute * 3; i++) {
			await bucket.acquire(1);
			sent.push(now());
		}
		const burst = Math.max(1, Math.min(10, Math.floor(perMinute / 6)));
		assert.equal(sent.filter((t) => t === 0).length, burst);
		for (let i = 0; i < sent.length; i++) {
			const within = sent.filter((t) => t >= sent[i] && t < sent[i] + 60_000).length;
			assert.ok(within <= perMinute, `${within} in the minute from ${sent[i]} ms`);
		}
		// And it does not starve: past the burst, the rest of the share a minute.
		const minutes = (3 * perMinute - burst) / (perMinute - burst);
		const last = sent[sent.length - 1];
		assert.ok(last <= minutes * 60_000 + 1000, `${last} ms`);
	});
}

test("a request dearer than the bucket waits for it to empty and leaves it in debt", async () => {
	const { bucket, now } = fakeBucket(100); // capacity 10, 90 a minute
	await bucket.acquire(1);
	bucket.charge(59); // a range read that returned 60 rows
	await bucket.acquire(1);
	// 60 units, draining at 1.5 a second until one more fits in the 10 it holds: 34 s.
	assert.ok(Math.abs(now() - 34_000) <= 1000, `${now()} ms`);
});

test("a 429 halves the pace; successes bring it back", async () => {
	const pacer = new Pacer({ share: 0.1, players: 0 });
	const bucket = pacer.bucket("OrderedList");
	const full = bucket.rate;
	pacer.slowDown("OrderedList");
	assert.equal(bucket.rate, full / 2);
	for (let i = 0; i < 20; i++) pacer.recover("OrderedList");
	assert.equal(bucket.rate, full);
});
