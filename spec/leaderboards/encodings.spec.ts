import { describe, expect, it } from "@rbxts/jest-globals";
import {
	BIG_TOP,
	MAX_DOUBLE,
	MAX_EXACT_INTEGER,
	TIE_SPANS,
	decodeBig,
	earliest,
	encodeBig,
} from "../../plugins/leaderboards/internal";

// The encodings as properties (issue 28, "Measured"): 100,000 random doubles
// over the whole range, and the edges, through the Big code; the tie-break
// fold over values and times. Seeded, so a failure replays.

const SAMPLES = 100_000;
/** The bound on decode(encode(x)); the code's own is 2^-42 (about 2.27e-13). */
const RELATIVE = 5e-13;

const EDGES = [
	0,
	-0,
	2 ** -1074, // the smallest subnormal
	2 ** -1022 - 2 ** -1074, // the largest subnormal
	2 ** -1022, // the smallest normal
	3 * 2 ** -1074,
	1e-310,
	0.5,
	1 - 2 ** -53, // rounds up into the next exponent
	1,
	1 + 2 ** -52,
	2 ** 42 - 1,
	2 ** 42,
	2 ** 42 + 1,
	1e15,
	MAX_EXACT_INTEGER - 1,
	MAX_EXACT_INTEGER,
	MAX_EXACT_INTEGER + 2,
	1e100,
	1.23e45,
	1e308,
	MAX_DOUBLE,
];

// Doubles over every exponent (subnormals included: a mantissa scaled below 2^-1022 loses bits as a double would),
// half of them a log-uniform decimal magnitude; either sign.
function samples(seed: number): number[] {
	const random = new Random(seed);
	const values = new Array<number>(SAMPLES + EDGES.size() * 2);
	for (const edge of EDGES) {
		values.push(edge);
		values.push(-edge);
	}
	while (values.size() < SAMPLES + EDGES.size() * 2) {
		const magnitude =
			random.NextNumber() < 0.5
				? math.ldexp(random.NextNumber(1, 2), random.NextInteger(-1074, 1023))
				: 10 ** random.NextNumber(-323, 308);
		if (magnitude === math.huge) continue;
		values.push(random.NextNumber() < 0.5 ? -magnitude : magnitude);
	}
	return values;
}

describe('the Big code (Values = "Big" on OrderedDataStores)', () => {
	const values = samples(28);

	it("round-trips 100,000 random doubles and the edges within 5e-13 relative, as integers within ±2^53", () => {
		let worst = 0;
		let misses = 0;
		let outside = 0;
		for (const value of values) {
			const code = encodeBig(value);
			if (code % 1 !== 0 || math.abs(code) > MAX_EXACT_INTEGER) outside += 1;
			const back = decodeBig(code);
			const relative = value === 0 ? math.abs(back) : math.abs(back - value) / math.abs(value);
			if (!(relative <= RELATIVE)) misses += 1;
			worst = math.max(worst, relative);
		}
		expect(values.size()).toBe(SAMPLES + EDGES.size() * 2);
		expect(misses).toBe(0);
		expect(outside).toBe(0);
		// 42 significant bits: never worse than 2^-42.
		expect(worst <= 2 ** -42).toBe(true);
		expect(BIG_TOP <= MAX_EXACT_INTEGER).toBe(true);
	});

	it("keeps order for every sorted pair: a > b never stores a below b", () => {
		const sorted = [...values];
		sorted.sort((a, b) => a < b);
		let inverted = 0;
		let previous = encodeBig(sorted[0]);
		for (let i = 1; i < sorted.size(); i++) {
			const code = encodeBig(sorted[i]);
			if (code < previous) inverted += 1;
			previous = code;
		}
		expect(inverted).toBe(0);
	});

	it("the edges: 0 and -0 store 0; integers to 2^42 come back exactly; the largest double stays finite", () => {
		expect(encodeBig(0)).toBe(0);
		expect(encodeBig(-0)).toBe(0);
		expect(encodeBig(2 ** -1074)).toBe(1);
		expect(decodeBig(encodeBig(2 ** -1074))).toBe(2 ** -1074);
		for (const whole of [1, 7, 1000, 123_456_789, 2 ** 42 - 1, 2 ** 42, 4_000_000_000_000])
			expect(decodeBig(encodeBig(whole))).toBe(whole);
		expect(decodeBig(encodeBig(MAX_DOUBLE)) < MAX_DOUBLE).toBe(true);
		expect(decodeBig(encodeBig(-MAX_DOUBLE)) > -MAX_DOUBLE).toBe(true);
		expect(encodeBig(MAX_DOUBLE)).toBe(BIG_TOP);
		// A code no encode made (a game's own tool wrote the store) still reads as a finite number.
		expect(decodeBig(MAX_EXACT_INTEGER)).toBe(decodeBig(BIG_TOP));
		expect(decodeBig(0.5) < 2 ** -1000).toBe(true);
	});
});

describe('the tie-break fold (TieBreak = "Earliest")', () => {
	it("of two equal values the earlier ranks first in both directions; a better value always ranks first", () => {
		for (const [name, span] of pairs(TIE_SPANS)) {
			const limit = math.floor(MAX_EXACT_INTEGER / span) - 1;
			const down = earliest(false, span);
			const up = earliest(true, span);
			expect(`${name} ${down.Limit}`).toBe(`${name} ${limit}`);
			for (const value of [-limit, -1, 0, 1, 12_345, limit]) {
				// Descending: the earlier stores higher; ascending: lower.
				expect(down.encode(value, 10) > down.encode(value, 11)).toBe(true);
				expect(up.encode(value, 10) < up.encode(value, 11)).toBe(true);
				for (const since of [0, 1, span / 2, span - 1, span + 500, -5]) {
					for (const encoding of [down, up]) {
						const stored = encoding.encode(value, since);
						expect(math.abs(stored) <= MAX_EXACT_INTEGER).toBe(true);
						expect(encoding.decode(stored)).toBe(value);
					}
				}
				if (value < limit) {
					// The better value wins whatever the times: the worst second of it against the best of the other.
					expect(down.encode(value + 1, span - 1) > down.encode(value, 0)).toBe(true);
					expect(up.encode(value, span - 1) < up.encode(value + 1, 0)).toBe(true);
				}
			}
		}
	});
});
