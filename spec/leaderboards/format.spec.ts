import { describe, expect, it } from "@rbxts/jest-globals";
import { SHORT_SUFFIXES, format } from "../../plugins/leaderboards";

// The display formatter (issue 28): offered, not imposed; the game picks the suffixes.

describe("format()", () => {
	it("shows 1.23e45 as the game chooses: short-scale suffixes, or an exponent", () => {
		expect(format(1.23e45, { Suffixes: SHORT_SUFFIXES })).toBe("1.23 QaDe");
		expect(format(1.23e45)).toBe("1.23e45");
		expect(format(1.23e45, { Suffixes: ["K", "M", "B"] })).toBe("1.23e45");
		expect(format(-4.5e12, { Suffixes: SHORT_SUFFIXES })).toBe("-4.5 T");
		expect(format(1234, { Suffixes: SHORT_SUFFIXES })).toBe("1.23 K");
		expect(format(12_345_678, { Suffixes: SHORT_SUFFIXES })).toBe("12.3 M");
		expect(format(1e308)).toBe("1e308");
		expect(format(1.5e100, { Suffixes: SHORT_SUFFIXES })).toBe("15 DTg");
		expect(format(1.5e102, { Suffixes: SHORT_SUFFIXES })).toBe("1.5e102");
		expect(format(1e99, { Suffixes: SHORT_SUFFIXES })).toBe("1 DTg");
	});

	it("rounds to Digits significant digits, carrying into the next power", () => {
		expect(format(999_999, { Suffixes: SHORT_SUFFIXES })).toBe("1 M");
		expect(format(999.96)).toBe("1e3");
		expect(format(123_456, { Suffixes: SHORT_SUFFIXES, Digits: 5 })).toBe("123.46 K");
		expect(format(9.9999e20, { Digits: 2 })).toBe("1e21");
	});

	it("shows values below 1,000 as they are, fractions to Digits; never errors", () => {
		expect(format(0)).toBe("0");
		expect(format(-0)).toBe("0");
		expect(format(999)).toBe("999");
		expect(format(-42)).toBe("-42");
		expect(format(12.345)).toBe("12.3");
		expect(format(0.000123456)).toBe("0.000123");
		expect(format(0 / 0)).toBe(tostring(0 / 0));
		expect(format(math.huge)).toBe("inf");
	});

	// Issue 47: a bad option is the caller's slip, and format() promised never to error: its default is used.
	it("falls back to the defaults for options of the wrong kind", () => {
		const loose = format as (value: unknown, options?: unknown) => string;
		expect(loose(12345, { Digits: "x" })).toBe("1.23e4");
		expect(loose(12345, { Digits: 0 / 0 })).toBe("1.23e4");
		expect(loose(12345, { Digits: math.huge })).toBe("1.2345e4"); // a number, clamped to 15
		expect(loose(12345, { Suffixes: 5 })).toBe("1.23e4");
		expect(loose(12345, { Suffixes: [{}] })).toBe("1.23e4");
		expect(loose(12345, 7)).toBe("1.23e4");
		expect(loose(12345, "x")).toBe("1.23e4");
		expect(loose("12345")).toBe("12345");
	});
});
