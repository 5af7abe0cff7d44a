import { describe, expect, it } from "@rbxts/jest-globals";
import { HttpService } from "@rbxts/services";
import { Counters, Frame, SimulationConfig, Summary, Totals, named, simulate } from "../../examples/demo/simulation";
import {
	COLUMNS,
	DEMO_HEAP,
	FULL_ROWS,
	Size,
	liveView,
	plainLines,
	redraw,
	summaryLines,
	title,
	wrap,
} from "../../examples/demo/view";
import { headlessGate } from "../gate/control";

const gate = headlessGate();
const SIMULATED = 30 * 60 * 1000;
const describeGate = gate ? describe : describe.skip;

const TERMINAL: Size = { columns: 80, rows: 24 };

function width(line: string): number {
	const [length] = utf8.len(line);
	return typeIs(length, "number") ? length : line.size();
}

// Every line within the columns, and no more rows than the terminal less the one the cursor waits on.
function expectFits(lines: ReadonlyArray<string>, size: Size) {
	expect(lines.size() <= size.rows - 1).toBe(true);
	for (const line of lines) {
		if (width(line) > size.columns) expect(line).toBe(`at most ${size.columns} columns`);
	}
}

function expectWithin80(lines: ReadonlyArray<string>) {
	for (const line of lines) if (width(line) > COLUMNS) expect(line).toBe("at most 80 columns");
}

// A run's frames: the last one, and its summary.
function run(config: SimulationConfig): { frame: Frame; summary: Summary } {
	let frame: Frame | undefined;
	const summary = simulate(gate!, config, (latest) => (frame = latest));
	gate!.reset();
	return { frame: frame!, summary };
}

// Counters of a big run (8 servers x 100 players for a day, many failures): every count has its separators.
const BIG: Counters = {
	minute: 1_440,
	submits: 12_345_678,
	writes: 9_876_543,
	failed: 1_234_567,
	dropped: 12_345,
	budgetUsed: 0.87,
	topCalls: 123_456_789,
	backendReads: 1_234_567,
	namesCalls: 123_456,
	namesResults: 1_234_567,
	online: 100_000,
};

const BIG_TOTALS: Totals = {
	servers: 1_000,
	lists: 1_234_567,
	reads: 12_345_678,
	memoryCalls: 123_456_789,
	memoryRefused: 1_234,
	pageRefreshes: 123_456,
	pages: 12,
	messages: { published: 123_456, delivered: 123_456_789, lost: 12_345, refused: 1_234 },
	queued: 12_345,
	droppedServer: 1_234,
	droppedExperience: 123,
	peakUse: { read: 0.5, write: 0.95, list: 1, memory: 0.1 },
	heapMegabytes: 1_234.5,
	records: {
		records: 12_345,
		seen: 10_000,
		superseded: 1_234,
		displaced: 1_000,
		neverSeen: 111,
		p50: 2.5,
		p99: 47.25,
		max: 119.5,
	},
};

describeGate("the demo's live view", () => {
	it(
		"at 80 x 24 shows the title, the progress and both boards in 23 rows of at most 80 columns",
		() => {
			const config: SimulationConfig = { servers: 2, players: 6, minutes: 2, failRate: 0, seed: 4 };
			const { frame } = run(config);
			const lines = liveView(config, frame, TERMINAL);
			expectFits(lines, TERMINAL);
			expect(lines[0]).toBe(title(config));
			expect(lines[1].match("^%[#+%] 2%.0/2 min")[0]).never.toBe(undefined);
			const header = lines.find((line) => line.find("Kills (top 10)", 1, true)[0] !== undefined)!;
			expect(header.find("BestTime (top 10)", 1, true)[0]).never.toBe(undefined);
			// Both boards' rows follow their header: rank, name, value on each side.
			const at = lines.indexOf(header);
			expect(lines[at + 1].match("^1 +P%d+ +%d+ +1 +P%d+ +[%d%.]+ s$")[0]).never.toBe(undefined);
			// Today's board and the counters are there too.
			expect(lines.some((line) => line.sub(1, 11) === "DailyKills ")).toBe(true);
			expect(lines[lines.size() - 1].sub(1, 14)).toBe("failed writes ");

			// A taller terminal gets the full view: the followed player's neighbours and friends too.
			const tall = liveView(config, frame, { columns: 80, rows: 40 });
			expect(tall.size()).toBe(FULL_ROWS);
			expectFits(tall, { columns: 80, rows: 40 });
			expect(tall.some((line) => line.find("Around them", 1, true)[0] !== undefined)).toBe(true);
			// A narrow, short one: nothing wider or taller than it.
			for (const size of [
				{ columns: 60, rows: 20 },
				{ columns: 100, rows: 24 },
				{ columns: 40, rows: 10 },
			])
				expectFits(liveView(config, frame, size), size);

			// Piped lines and the closing lines fit 80 columns too.
			expectWithin80(plainLines(config, frame));
		},
		SIMULATED,
	);

	it("names every leader: a row a read left unnamed gets the pool's display name, never its raw id", () => {
		const rows = named([
			{ Key: "10012", Value: 7, Rank: 1 },
			{ Key: "10001", Value: 5, Rank: 2, DisplayName: "P1" },
		]);
		expect(rows.map((row) => row.DisplayName)).toEqual(["P12", "P1"]);
		expect(rows[0].Key).toBe("10012");
		const config: SimulationConfig = { servers: 100, players: 30, minutes: 60, failRate: 0, seed: 1 };
		const frame: Frame = {
			counters: BIG,
			totals: BIG_TOTALS,
			kills: rows,
			bestTimes: [],
			dailyKills: [],
			day: "2026-12-06",
			secondsToNewDay: 60,
		};
		expect(plainLines(config, frame).join("\n")).toMatch("Kills leader P12 7;");
	});

	it(
		"the scale view shows the experience's totals and both boards within 80 x 24",
		() => {
			const config: SimulationConfig = { servers: 3, players: 3, minutes: 2, failRate: 0, seed: 2, scale: true };
			const { frame, summary } = run(config);
			expect(frame.totals).never.toBe(undefined);
			expect(frame.followed).toBe(undefined);
			const lines = liveView(config, frame, TERMINAL);
			expectFits(lines, TERMINAL);
			expect(lines[0]).toBe(title(config));
			expect(lines[3].sub(1, 22)).toBe("Experience: 3 servers,");
			for (const label of ["store requests:", "MemoryStore requests", "throttled:", "records on Kills:"])
				expect(lines.some((line) => line.sub(1, label.size()) === label)).toBe(true);
			expect(lines.some((line) => line.find("DailyKills ", 1, true)[0] !== undefined)).toBe(true);
			// Every server wrote its players' scores: the shared pages were read and refreshed.
			expect(summary.totals.pageRefreshes).toBeGreaterThan(0);
			expect(summary.totals.lists).toBeGreaterThan(0);
			// The scale view shows no server's boards, and so no client's.
			expect(summary.client).toBe(undefined);
			expectWithin80(plainLines(config, frame));
			expectWithin80(summaryLines(summary));
		},
		SIMULATED,
	);

	it("at 8 servers x 100 players (and far bigger counts) the counters, totals and closing lines fit 80 columns", () => {
		const config: SimulationConfig = { servers: 1_000, players: 100, minutes: 1_440, failRate: 0.9, seed: 2 ** 31 };
		const frame: Frame = {
			counters: BIG,
			totals: BIG_TOTALS,
			kills: [],
			bestTimes: [],
			dailyKills: [],
			day: "2026-12-07",
			secondsToNewDay: 86_399,
		};
		expectFits(liveView(config, frame, TERMINAL), TERMINAL);
		expectWithin80(plainLines(config, frame));
		const followed: Frame = { ...frame, totals: undefined, followed: { name: "P1" } };
		expectFits(liveView({ ...config, servers: 8 }, followed, TERMINAL), TERMINAL);
		expectWithin80(plainLines({ ...config, servers: 8 }, followed));
		expectWithin80(wrap(title(config)));
	});

	it("an hour of 1,000 servers prints each progress line whole within 80 columns (never wrapped)", () => {
		const config: SimulationConfig = { servers: 1_000, players: 30, minutes: 60, failRate: 0, seed: 1 };
		const counters: Counters = {
			...BIG,
			minute: 60,
			submits: 4_700_000,
			writes: 4_000_000,
			failed: 12_345,
			dropped: 1_234,
		};
		const totals: Totals = {
			...BIG_TOTALS,
			lists: 12_345,
			reads: 123_456,
			pageRefreshes: 12_345,
			memoryCalls: 1_234_567,
			memoryRefused: 12_345,
			messages: { published: 123_456, delivered: 12_345_678, lost: 12_345, refused: 1_234 },
		};
		const leaders = [{ Key: "1234567", Value: 12_345, Rank: 1, DisplayName: "P1234567" }];
		const frame: Frame = {
			counters,
			totals,
			kills: leaders,
			bestTimes: [],
			dailyKills: leaders,
			day: "2026-12-06",
			secondsToNewDay: 60,
		};
		const lines = plainLines(config, frame);
		expectWithin80(lines);
		// The counters, reads, throttle and MemoryStore, messages, records and leaders: one line each.
		expect(lines.size()).toBe(6);
		expect(lines[2]).toBe("  throttled 12,345, dropped 1,357; MemoryStore 1,234,567 (12,345 refused)");
	});

	it("names the heap npm run demo gives the gate", () => {
		const scripts = (HttpService.JSONDecode(gate!.readFile("package.json")!) as { scripts: Record<string, string> })
			.scripts;
		expect(scripts.demo.find(`--heap ${DEMO_HEAP} `, 1, true)[0]).never.toBe(undefined);
	});

	it("redraws in place: back to the view's first row, each row erased, never the whole screen", () => {
		const first = redraw(["a", "b", "c"], 0);
		expect(first).toBe("\x1b[2Ka\n\x1b[2Kb\n\x1b[2Kc");
		// The next view starts three rows up; a shorter one erases the row left over and comes back.
		expect(redraw(["d", "e"], 3)).toBe("\x1b[3F\x1b[2Kd\n\x1b[2Ke\n\x1b[2K\x1b[1A");
		expect(redraw(["d", "e"], 3).find("\x1b[J", 1, true)[0]).toBe(undefined);
		expect(redraw(["d", "e"], 3).find("\x1b[2J", 1, true)[0]).toBe(undefined);
	});
});

describe("the demo's closing lines", () => {
	const summaryOf = (overrides: Partial<Summary>): Summary => ({
		config: { servers: 8, players: 100, minutes: 1_440, failRate: 0.9, seed: 2 ** 31 },
		counters: BIG,
		totals: BIG_TOTALS,
		servers: [],
		checked: 1_234_567,
		days: ["2026-12-06", "2026-12-07"],
		mismatches: [],
		losses: [],
		ok: true,
		explained: true,
		...overrides,
	});

	it("fit 80 columns, with every server's drain and a long loss reason wrapped", () => {
		const lines = summaryLines(
			summaryOf({
				servers: [
					{
						complete: false,
						drain: {
							Complete: false,
							Remaining: 123_456,
							InFlight: 12,
							Failed: 12_345,
							Error: "leaderboard shutdown flush made no progress",
						},
					},
					{ complete: true, drain: { Complete: true, Remaining: 0, InFlight: 0, Failed: 0 } },
				],
				mismatches: [
					{
						board: "DailyKills@2026-12-06",
						user: 10_022,
						expected: 123_456,
						stored: 123_000,
						reason: "shutdown drain incomplete on server 1: leaderboard shutdown flush made no progress",
						kind: "no progress",
						explained: true,
					},
				],
				losses: [{ kind: "no progress", count: 1 }],
				ok: false,
			}),
		);
		expectWithin80(lines);
		expect(lines.some((line) => line.sub(1, 13) === "model check: ")).toBe(true);
		expect(
			lines.some((line) => line === "  (best scores, and daily kill counts for 2026-12-06 and 2026-12-07)"),
		).toBe(true);
	});

	it("show one client's board within 80 columns: long names and values wrap, a stale page is named", () => {
		const name = "AVeryLongDisplayName";
		const lines = summaryLines(
			summaryOf({
				client: {
					rows: [1, 2, 3].map((rank) => ({ Rank: rank, Key: `${rank}`, Value: 1e12, DisplayName: name })),
					same: false,
					received: 123_456_789,
					events: 1_234_567,
				},
			}),
		);
		expectWithin80(lines);
		const start = lines.findIndex((line) => line.sub(1, 21) === "a client on server 1:");
		// A row is never broken: each that does not fit goes under the first.
		expect(lines.filter((_, index) => index >= start && index <= start + 4)).toEqual([
			"a client on server 1: 123,456,789 bytes in 1,234,567 events, NOT server 1's last",
			"  page:",
			`  Kills   1. ${name} 1,000,000,000,000`,
			`          2. ${name} 1,000,000,000,000`,
			`          3. ${name} 1,000,000,000,000`,
		]);
		// Before anyone scores, the client holds no rows, and says so.
		const empty = summaryLines(summaryOf({ client: { rows: [], same: true, received: 60, events: 1 } }));
		expect(empty).toContain("  Kills: no rows yet");
		// A run without a client (the scale view) shows none.
		expect(summaryLines(summaryOf({})).some((line) => line.find("a client", 1, true)[0] !== undefined)).toBe(false);
	});

	it("name no day when nobody scored (no empty date)", () => {
		const lines = summaryLines(summaryOf({ days: [], checked: 0 }));
		expectWithin80(lines);
		expect(lines.some((line) => line.find("for )", 1, true)[0] !== undefined)).toBe(false);
		expect(lines).toContain("  (best scores; no kills yet, so no daily kill counts)");
	});

	it("sum up many servers in one line, naming the ones whose drain did not finish", () => {
		const servers = new Array<Summary["servers"][number]>();
		for (let i = 1; i <= 1_000; i++)
			servers.push({
				complete: true,
				drain: { Complete: i !== 7, Remaining: i === 7 ? 3 : 0, InFlight: 0, Failed: 0, Error: undefined },
			});
		const lines = summaryLines(summaryOf({ config: { ...summaryOf({}).config, servers: 1_000 }, servers }));
		expectWithin80(lines);
		expect(lines).toContain("1,000 servers: 999 closed within the close budget with their drain complete");
		expect(lines.some((line) => line.sub(1, 11) === "  server 7:")).toBe(true);
	});
});
