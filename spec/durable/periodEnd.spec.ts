import { afterEach, describe, expect, it } from "@rbxts/jest-globals";
import { Entry, PeriodEndInfo, Topics } from "../../plugins/leaderboards";
import { headlessGate } from "../gate/control";
import { backendOn, boardsAt, closeServers, newServer, liveServer, waitFor } from "./servers";

// boards:onPeriodEnd(board, handler) (issue 29): one server of the experience at a time runs the
// handler for each finished period, with the final standings, an idempotency key, retries and
// catch-up. Runs start 60 s before the UTC midnight that ends 2026-12-06.
const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

const MIDNIGHT = 1_796_601_600; // 2026-12-07 00:00 UTC
const MINUTES = 60_000;
// The default settle delay: FlushSeconds (15) + 2 x RequestSeconds (10) + 5.
const SETTLE = 40;

interface Call {
	readonly standings: Entry[];
	readonly info: PeriodEndInfo;
}

describeGate("boards:onPeriodEnd(board, handler)", () => {
	afterEach(() => {
		closeServers();
		gate!.reset();
	});

	it(
		"10 servers across a daily roll run the handler once, with the final standings",
		() => {
			gate!.calendar.set(MIDNIGHT - 60);
			const calls = new Array<Call>();
			const servers = new Array<ReturnType<typeof boardsAt>>();
			for (let i = 1; i <= 10; i++) {
				const server = newServer(gate!);
				const attached = boardsAt(
					server,
					{ Daily: { Reset: "Daily" } },
					{ Backend: backendOn("OrderedDataStore", server) },
				);
				attached.boards.onPeriodEnd("Daily", (standings, info) => calls.push({ standings, info }), {
					Count: 3,
				});
				attached.boards.submit("Daily", `p${i}`, i * 10);
				servers.push(attached);
			}
			task.wait(60 + SETTLE + 30);
			expect(calls.size()).toBe(1);
			expect(calls[0].standings).toEqual([
				{ Key: "p10", Value: 100, Rank: 1 },
				{ Key: "p9", Value: 90, Rank: 2 },
				{ Key: "p8", Value: 80, Rank: 3 },
			]);
			expect(calls[0].info.Period).toBe("2026-12-06");
			expect(calls[0].info.IdempotencyKey).toBe("CKBoard_Daily@2026-12-06");
			expect(calls[0].info.Attempt).toBe(1);
			const record = gate!.dataStore.standard.snapshot("CKBoard_Manifest").get("rewards:Daily@2026-12-06") as {
				State: string;
			};
			expect(record.State).toBe("done");
			for (const server of servers) server.boards.destroy();
		},
		30 * MINUTES,
	);

	it(
		"a late write that lands within the settle delay is in the standings",
		() => {
			gate!.calendar.set(MIDNIGHT - 5);
			const calls = new Array<Call>();
			const { boards } = boardsAt(
				undefined,
				{ Daily: { Reset: "Daily" } },
				{ Backend: backendOn("OrderedDataStore") },
			);
			boards.onPeriodEnd("Daily", (standings, info) => calls.push({ standings, info }));
			boards.submit("Daily", "early", 5);
			task.wait(4);
			boards.submit("Daily", "late", 9); // one second before the roll; written up to FlushSeconds after it
			expect(waitFor(() => calls.size() > 0, 120)).toBe(true);
			expect(calls[0].standings.map((entry) => entry.Key)).toEqual(["late", "early"]);
			boards.destroy();
		},
		10 * MINUTES,
	);

	it(
		"the runner killed mid-handler is replaced once its lease runs out; both saw the same idempotency key",
		() => {
			gate!.calendar.set(MIDNIGHT - 30);
			const calls = new Array<{ server: number; info: PeriodEndInfo; at: number }>();
			const servers = [1, 2, 3].map(() =>
				liveServer(gate!, (plugin, handle) => ({
					Daily: {
						Reset: "Daily",
						Backend: plugin.orderedDataStoreBackend("CKBoard_", handle.game.GetService("DataStoreService")),
					},
				})),
			);
			servers.forEach((server, i) => {
				server.boards.onPeriodEnd("Daily", (_, info) => {
					calls.push({ server: i, info, at: gate!.now() });
					task.wait(calls.size() === 1 ? 1e6 : 1); // the first runner never returns
				});
				server.boards.submit("Daily", `p${i}`, i + 1);
			});
			expect(waitFor(() => calls.size() === 1, 30 + SETTLE + 30)).toBe(true);
			const first = calls[0];
			servers[first.server].handle.close(); // no BindToClose: its threads end with it, the lease unrenewed
			expect(waitFor(() => calls.size() === 2, 120)).toBe(true);
			const second = calls[1];
			expect(second.server).never.toBe(first.server);
			expect(second.info.IdempotencyKey).toBe(first.info.IdempotencyKey);
			expect(second.info.Attempt).toBe(2);
			// Replaced only after the lease (60 s, renewed every 20 s) ran out: it was taken a request
			// before the first handler began, so the second may begin a little under 60 s after it.
			expect(second.at - first.at).toBeGreaterThan(55);
			expect(
				waitFor(() => {
					const record = gate!.dataStore.standard
						.snapshot("CKBoard_Manifest")
						.get("rewards:Daily@2026-12-06");
					return (record as { State?: string } | undefined)?.State === "done";
				}, 30),
			).toBe(true);
			task.wait(120);
			expect(calls.size()).toBe(2);
		},
		10 * MINUTES,
	);

	it(
		"a game empty at the roll runs the handler when its next server starts",
		() => {
			gate!.calendar.set(MIDNIGHT - 600);
			const config = { Daily: { Reset: "Daily" as const } };
			const first = boardsAt(undefined, config, { Backend: backendOn("OrderedDataStore") });
			first.boards.submit("Daily", "a", 3);
			first.boards.destroy(); // the last server closes before midnight
			first.kernel.stop();
			gate!.calendar.set(MIDNIGHT + 3 * 3600);
			const calls = new Array<Call>();
			const later = boardsAt(undefined, config, { Backend: backendOn("OrderedDataStore") });
			later.boards.onPeriodEnd("Daily", (standings, info) => calls.push({ standings, info }));
			expect(waitFor(() => calls.size() > 0, 30)).toBe(true);
			expect(calls[0].info.Period).toBe("2026-12-06");
			expect(calls[0].standings).toEqual([{ Key: "a", Value: 3, Rank: 1 }]);
			later.boards.destroy();
		},
		10 * MINUTES,
	);

	it(
		"handler errors are reported and retried with backoff until it returns",
		() => {
			gate!.calendar.set(MIDNIGHT - 20);
			const { boards, kernel } = boardsAt(
				undefined,
				{ Daily: { Reset: "Daily" } },
				{ Backend: backendOn("OrderedDataStore") },
			);
			const failures = new Array<[string, number]>();
			kernel.Bus.subscribe(Topics.PeriodEndFailed, (_, _board, _period, problem, attempts) =>
				failures.push([problem, attempts]),
			);
			let runs = 0;
			let ended = false;
			kernel.Bus.subscribe(Topics.PeriodEnded, () => (ended = true));
			const times = new Array<number>();
			boards.onPeriodEnd("Daily", () => {
				runs += 1;
				times.push(gate!.now());
				if (runs <= 2) error("the profile service is down");
			});
			boards.submit("Daily", "a", 1);
			expect(waitFor(() => ended, 20 + SETTLE + 120)).toBe(true);
			expect(runs).toBe(3);
			expect(failures.size()).toBe(2);
			expect(failures[0][0]).toContain("the profile service is down");
			expect(failures.map(([, attempts]) => attempts)).toEqual([1, 2]);
			// Backoff: 10 s after the first error, 20 s after the second (plus up to 5 s of jitter).
			expect(times[1] - times[0]).toBeGreaterThanOrEqual(10);
			expect(times[2] - times[1]).toBeGreaterThanOrEqual(20);
			boards.destroy();
		},
		10 * MINUTES,
	);
});
