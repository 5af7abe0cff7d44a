// Period ids at the edges of each schedule (spec/cli/encodings.spec.ts checks them against the library's).
import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeBig, decodeEarliest } from "../src/encodings.mjs";
import { periodAt, periodNamed, previousPeriod } from "../src/periods.mjs";

/** @typedef {import("../src/periods.mjs").Rule} Rule */

/** @param {string} text */
const at = (text) => Date.parse(text) / 1000;

test("each schedule's id, with offsets both ways and a week's first day", () => {
	assert.equal(periodAt({ Reset: "Hourly", ResetOffset: 1800 }, at("2026-12-06T00:10:00Z")).id, "2026-12-05T23");
	assert.equal(periodAt({ Reset: "Daily", ResetOffset: 4 * 3600 }, at("2026-12-06T03:59:59Z")).id, "2026-12-05");
	assert.equal(periodAt({ Reset: "Daily", ResetOffset: -3600 }, at("2026-12-31T23:30:00Z")).id, "2027-01-01");
	assert.equal(
		periodAt({ Reset: "Weekly", ResetOffset: 0, WeekStart: 1 }, at("2026-12-06T12:00:00Z")).id,
		"2026-11-30",
	);
	assert.equal(
		periodAt({ Reset: "Weekly", ResetOffset: 0, WeekStart: 0 }, at("2026-12-06T12:00:00Z")).id,
		"2026-12-06",
	);
	assert.equal(periodAt({ Reset: "Monthly", ResetOffset: 0 }, at("2028-02-29T23:00:00Z")).id, "2028-02");
	assert.equal(previousPeriod({ Reset: "Monthly", ResetOffset: 0 }, at("2028-03-01T00:00:00Z")).id, "2028-02");
	assert.equal(periodAt({ Reset: "Yearly", ResetOffset: 0 }, at("2026-12-31T23:59:59Z")).id, "2026");
});

test("an id names a period of the board, or none", () => {
	/** @type {Rule} */
	const weekly = { Reset: "Weekly", ResetOffset: 0, WeekStart: 1 };
	assert.equal(periodNamed(weekly, "2026-11-30")?.start, at("2026-11-30T00:00:00Z"));
	assert.equal(periodNamed(weekly, "2026-12-01"), undefined); // a Tuesday
	assert.equal(periodNamed({ Reset: "Daily" }, "2027-02-29"), undefined);
});

test("decodings: Big codes keep order and sign; a tie-break fold drops its time", () => {
	let previous = -Infinity;
	for (let code = -(2 ** 52); code <= 2 ** 52; code += 2 ** 46 + 12345) {
		const value = decodeBig(code);
		assert.ok(value > previous);
		previous = value;
	}
	assert.equal(decodeBig(0), 0);
	assert.equal(decodeEarliest(42 * 1e5 + 99_999, 1e5), 42);
	assert.equal(decodeEarliest(-42 * 1e5 + 7, 1e5), -42);
});
