import { afterEach, describe, expect, it } from "@rbxts/jest-globals";
import { DEMO, configOf } from "../../examples/demo/main";
import { parse, usage } from "../gate/command";
import { Frame, LossKind, Mismatch, Summary, simulate } from "../../examples/demo/simulation";
import { summaryLines, verdictLines } from "../../examples/demo/view";
import { headlessGate } from "../gate/control";

const gate = headlessGate();
// Virtual time: simulated minutes of play cost seconds of wall time.
const SIMULATED = 30 * 60 * 1000;
const describeGate = gate ? describe : describe.skip;

describeGate("the demo's simulation", () => {
	afterEach(() => gate!.reset());

	it(
		"a few simulated minutes on two servers: every best score is on the boards",
		() => {
			let last: Frame | undefined;
			const summary = simulate(gate!, { servers: 2, players: 8, minutes: 4, failRate: 0, seed: 3 }, (frame) => {
				last = frame;
			});
			expect(summary.mismatches).toEqual([]);
			// The live view follows one player: their standing, their neighbours, their friends board.
			const followed = last!.followed!;
			expect(followed.me?.Key).toBe("10001");
			if (followed.me?.Value !== undefined) {
				expect(followed.around!.find((row) => row.Key === "10001")?.Value).toBe(followed.me.Value);
				expect(followed.friends!.find((row) => row.Key === "10001")?.Value).toBe(followed.me.Value);
			} else expect(followed.around).toEqual([]);
			expect(followed.friends!.every((row) => tonumber(row.Key)! >= 10_001 && tonumber(row.Key)! <= 10_005)).toBe(
				true,
			);
			expect(summary.ok).toBe(true);
			expect(summary.checked).toBeGreaterThan(10);
			// The verdict, the summary's last line: OK, because nothing was lost.
			const lines = summaryLines(summary);
			expect(lines[lines.size() - 1]).toBe(
				`OK: every expected value is stored (${summary.checked} of ${summary.checked})`,
			);
			expect(summary.losses).toEqual([]);
			// One client's board: a spectator's client on server 1 holds the top 3 of Kills, the page server 1
			// published last, and the summary shows them.
			const client = summary.client!;
			expect(client.same).toBe(true);
			expect(client.rows.map((row) => row.Rank)).toEqual([1, 2, 3]);
			expect(client.rows.every((row) => row.DisplayName === `P${tonumber(row.Key)! - 10_000}`)).toBe(true);
			expect(client.received).toBeGreaterThan(0);
			const shown = `${client.rows.map((row) => `${row.Rank}. ${row.DisplayName} ${row.Value}`).join("   ")}`;
			expect(lines).toContain(
				`a client on server 1: ${client.received} bytes in ${client.events} events, server 1's last page:`,
			);
			expect(lines).toContain(`  Kills   ${shown}`);
			// The run crosses a midnight UTC: the daily board rolled, and both days' kill counts are exact.
			expect(summary.days).toEqual(["2026-12-06", "2026-12-07"]);
			// At a published game's request latency, with requests overlapping.
			expect(gate!.latency.profile().name).toBe("realistic");
			expect(gate!.latency.peakInFlight("DataStore")).toBeGreaterThan(1);
			expect(summary.servers.every((server) => server.complete && server.drain?.Complete === true)).toBe(true);
			// Shared reads: far fewer backend reads than top() calls.
			expect(summary.counters.backendReads * 10).toBeLessThan(summary.counters.topCalls);
		},
		SIMULATED,
	);

	it(
		"with a third of backend calls failing, retries still store every best score",
		() => {
			const summary = simulate(gate!, { servers: 1, players: 10, minutes: 4, failRate: 0.3, seed: 5 });
			expect(summary.counters.failed).toBeGreaterThan(0);
			expect(summary.counters.dropped).toBe(0);
			expect(summary.days.size()).toBe(2);
			expect(summary.mismatches).toEqual([]);
			expect(summary.ok).toBe(true);
		},
		SIMULATED,
	);

	it(
		"with heavy faults each loss is named with its reason: the dropped value itself, or its server's incomplete drain",
		() => {
			const summary = simulate(gate!, { servers: 2, players: 10, minutes: 4, failRate: 0.9, seed: 1 });
			const dropped = summary.mismatches.filter(
				(mismatch) => mismatch.reason.find("dropped after")[0] !== undefined,
			);
			const drained = summary.mismatches.filter(
				(mismatch) => mismatch.reason.find("shutdown drain incomplete on server")[0] !== undefined,
			);
			expect(dropped.size()).toBeGreaterThan(0);
			expect(drained.size()).toBeGreaterThan(0);
			expect(dropped.size() + drained.size()).toBe(summary.mismatches.size());
			// The value named is the one the model expected on the board, not an older drop of the same key
			// (on the daily sum board: the part of the day's count that is missing).
			for (const mismatch of dropped) {
				const missing =
					mismatch.board.find("DailyKills@")[0] === 1
						? mismatch.expected - (mismatch.stored ?? 0)
						: mismatch.expected;
				expect(mismatch.reason).toMatch(`%(value ${missing}%)$`);
			}
			expect(summary.mismatches.every((mismatch) => mismatch.explained)).toBe(true);
			// Every loss has its reason (the exit code stays 0), but the verdict says plainly that values were lost.
			expect(summary.explained).toBe(true);
			expect(summary.ok).toBe(false);
			// A drain at 90% failures ends at its deadline, or gives up after windows in which every write failed.
			expect(summary.losses[0]).toEqual({ kind: "dropped", count: dropped.size() });
			let drainLosses = 0;
			for (const loss of summary.losses) {
				if (loss.kind === "dropped") continue;
				expect(["deadline", "no progress"]).toContain(loss.kind);
				drainLosses += loss.count;
			}
			expect(drainLosses).toBe(drained.size());
			// The verdict, its reasons wrapped onto an indented line when they do not fit 80 columns.
			const lines = summaryLines(summary);
			const verdict = lines.find((line) => line.sub(1, 7) === "LOSSES:")!;
			const head = `LOSSES: ${summary.mismatches.size()} of ${summary.checked} lost: ${dropped.size()} dropped (MaxWriteAttempts)`;
			expect(verdict.sub(1, head.size())).toBe(head);
			expect(lines[lines.size() - 1].find("^OK")[0]).toBe(undefined);
		},
		SIMULATED,
	);

	it("the verdict names every kind of loss, fits 80 columns, and wraps when the reasons do not", () => {
		const lossesOf = (counts: Partial<Record<LossKind, number>>): Summary => {
			const mismatches = new Array<Mismatch>();
			const losses = new Array<{ kind: LossKind; count: number }>();
			for (const kind of ["dropped", "deadline", "no progress", "drain error", "unexplained"] as LossKind[]) {
				const n = counts[kind] ?? 0;
				if (n > 0) losses.push({ kind, count: n });
				for (let i = 0; i < n; i++)
					mismatches.push({
						board: "Kills",
						user: 10_001 + i,
						expected: 1,
						reason: kind,
						kind,
						explained: kind !== "unexplained",
					});
			}
			return {
				config: { servers: 1, players: 1, minutes: 1, failRate: 0, seed: 1 },
				counters: undefined as never,
				totals: undefined as never,
				servers: [],
				checked: 2_000,
				days: [],
				mismatches,
				losses,
				ok: mismatches.isEmpty(),
				explained: mismatches.every((mismatch) => mismatch.explained),
			};
		};
		expect(verdictLines(lossesOf({}))).toEqual(["OK: every expected value is stored (2,000 of 2,000)"]);
		expect(verdictLines(lossesOf({ "no progress": 1, unexplained: 2 }))).toEqual([
			"LOSSES: 3 of 2,000 lost: 1 drain gave up, 2 unexplained",
		]);
		const every = verdictLines(
			lossesOf({ dropped: 1_200, deadline: 300, "no progress": 40, "drain error": 5, unexplained: 1 }),
		);
		expect(every).toEqual([
			"LOSSES: 1,546 of 2,000 lost: 1,200 dropped (MaxWriteAttempts),",
			"  300 drain deadline, 40 drain gave up, 5 drain error, 1 unexplained",
		]);
		for (const line of every) expect(line.size() <= 80).toBe(true);
	});

	it(
		"the same game on the MemoryStore backend: every best score is in the sorted maps",
		() => {
			const summary = simulate(gate!, {
				servers: 2,
				players: 8,
				minutes: 4,
				failRate: 0.2,
				seed: 3,
				backend: "memorystore",
			});
			expect(summary.mismatches).toEqual([]);
			expect(summary.ok).toBe(true);
			expect(summary.checked).toBeGreaterThan(10);
			expect(summary.counters.failed).toBeGreaterThan(0);
			expect(gate!.memoryStore.calls("UpdateAsync")).toBeGreaterThan(0);
			expect(gate!.dataStore.calls("UpdateAsync")).toBe(0);
			expect(summary.counters.backendReads * 10).toBeLessThan(summary.counters.topCalls);
		},
		SIMULATED,
	);

	it(
		"is deterministic for a seed",
		() => {
			const config = { servers: 1, players: 5, minutes: 2, failRate: 0.1, seed: 11 };
			const first = simulate(gate!, config).counters;
			const second = simulate(gate!, config).counters;
			expect(second).toEqual(first);
		},
		SIMULATED,
	);
});

// The demo's flags as the demo reads them: its run, or what parse() says instead.
function parseFlags(args: string[]) {
	const parsed = parse(DEMO, args);
	return "values" in parsed ? { config: configOf(parsed.values), json: parsed.values.get("json") === true } : parsed;
}

describe("the demo's flags", () => {
	it("has defaults: 2 servers of 30 players for 60 minutes", () => {
		expect(parseFlags([])).toEqual({
			config: { servers: 2, players: 30, minutes: 60, failRate: 0, seed: 1 },
			json: false,
		});
	});

	it("reads every flag", () => {
		const parsed = parseFlags([
			"--servers",
			"3",
			"--players",
			"10",
			"--minutes",
			"5",
			"--fail-rate",
			"0.3",
			"--seed",
			"9",
			"--json",
		]);
		expect(parsed).toEqual({ config: { servers: 3, players: 10, minutes: 5, failRate: 0.3, seed: 9 }, json: true });
	});

	it("--help prints the ranges the flags enforce (the fail rate's cap is 0.9)", () => {
		const text = usage(DEMO);
		expect(text).toContain("--fail-rate R     share of writes and reads that fail, 0 to 0.9 (default 0)");
		// Every line fits 80 columns.
		for (const line of text.split("\n")) expect(line.size() <= 80).toBe(true);
		let flags = 0;
		for (const line of text.split("\n")) {
			const [flag, low, high] = line.match(
				"^  (%-%-[%w%-]+) %a +.-, ([%d%.,]+) to ([%d%.,]+) %(default",
			) as LuaTuple<[string?, string?, string?]>;
			if (flag === undefined) continue;
			// The usage groups thousands (1,440); a flag's value is digits only.
			const [min, max] = [low!.gsub(",", "")[0], high!.gsub(",", "")[0]];
			flags += 1;
			for (const value of [min, max]) expect(parseFlags([flag, value])).toHaveProperty("config");
			expect(parseFlags([flag, tostring(tonumber(max)! + 0.01)])).toHaveProperty("problem");
			expect(parseFlags([flag, tostring(tonumber(min)! - 0.01)])).toHaveProperty("problem");
		}
		expect(flags).toBe(5);
	});

	it("names what is wrong with a bad flag", () => {
		expect(parseFlags(["--bogus"])).toEqual({ problem: "unknown option --bogus" });
		expect(parseFlags(["--servers"])).toEqual({ problem: "--servers needs a value" });
		expect(parseFlags(["--servers", "0"])).toEqual({
			problem: "--servers must be a whole number from 1 to 1,000, not 0",
		});
		expect(parseFlags(["--fail-rate", "2"])).toEqual({
			problem: "--fail-rate must be a number from 0 to 0.9, not 2",
		});
		expect(parseFlags(["--backend", "redis"])).toEqual({
			problem: "--backend must be ordered or memorystore, not redis",
		});
		expect(parseFlags(["--backend", "memorystore"])).toEqual({
			config: { servers: 2, players: 30, minutes: 60, failRate: 0, seed: 1, backend: "memorystore" },
			json: false,
		});
		expect(parseFlags(["--help"])).toEqual({ help: true });
	});
});
