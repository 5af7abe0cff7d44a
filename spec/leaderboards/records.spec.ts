import { describe, expect, it } from "@rbxts/jest-globals";
import { HttpService } from "@rbxts/services";
import { MESSAGE_BYTES, messageOf, recordsOf } from "../../plugins/leaderboards/stages/Herald/message";
import {
	ANNOUNCEMENTS,
	ANNOUNCEMENT_BURST,
	ASK_MARGIN,
	ASK_SOONEST,
	PENDING_KEPT,
	PENDING_SECONDS,
	PendingItem,
	TOPICS,
	TOPIC_ANNOUNCEMENTS,
	announcement,
	asking,
	pendingOf,
	withRecord,
} from "../../plugins/leaderboards/stages/Herald/pending";

// The experience's pending records (one MemoryStore hash map item) and the announcements it hands
// out: what joins, what an announcement carries, what is dropped.

const fresh = (): PendingItem => pendingOf(undefined, 0);
const keysOf = (item: PendingItem) => item.records.map(([[, , key, value]]) => `${key}=${value}`);

describe("pending records", () => {
	it("a key's newer record replaces its older one on the same board and period, not on another", () => {
		let item = fresh();
		item = withRecord(item, ["Kills", "", "a", 5], 0);
		item = withRecord(item, ["Kills", "d1", "a", 6], 0);
		item = withRecord(item, ["Kills", "", "b", 7], 0);
		item = withRecord(item, ["Kills", "", "a", 9], 1);
		expect(keysOf(item)).toEqual(["a=6", "b=7", "a=9"]);
		expect(item.next).toBe(5);
	});

	it("records past PENDING_SECONDS or PENDING_KEPT are dropped, oldest first", () => {
		let item = withRecord(fresh(), ["Kills", "", "old", 1], 0);
		item = withRecord(item, ["Kills", "", "new", 2], PENDING_SECONDS + 1);
		expect(keysOf(item)).toEqual(["new=2"]);
		for (let i = 1; i <= PENDING_KEPT + 5; i++) item = withRecord(item, ["Kills", "", `k${i}`, i], 20);
		expect(item.records.size()).toBe(PENDING_KEPT);
		expect(keysOf(item)[0]).toBe("k6=6");
	});

	it("an announcement carries the oldest waiting records that fit in one message, and spends a token", () => {
		let item = fresh();
		for (let i = 1; i <= 60; i++) item = withRecord(item, ["Kills", "", `${4_000_000_000 + i}`, 1_000_000 + i], 0);
		const [after, records] = announcement(item, 0);
		const carriedCount = records!.size();
		expect(carriedCount > 16).toBe(true);
		expect(carriedCount < 60).toBe(true);
		expect(records![0][2]).toBe("4000000001");
		expect(HttpService.JSONEncode(messageOf(records!)).size() <= MESSAGE_BYTES).toBe(true);
		expect(recordsOf(messageOf(records!))).toEqual(records);
		expect(after.tokens).toBe(ANNOUNCEMENT_BURST - 1);
		expect(after.announced).toBe(carriedCount);
		// The next announcement carries on from there.
		const [, rest] = announcement(after, 0);
		expect(rest![0][2]).toBe(`${4_000_000_000 + carriedCount + 1}`);
	});

	it("no token, no announcement; the bucket refills at ANNOUNCEMENTS a minute", () => {
		let item = withRecord(fresh(), ["Kills", "", "a", 1], 0);
		item = { ...item, tokens: 0, tokensAt: 0 };
		const [same, none] = announcement(item, (0.9 * 60) / ANNOUNCEMENTS);
		expect(none).toBeUndefined();
		expect(same).toBe(item);
		const [, some] = announcement(item, 60 / ANNOUNCEMENTS);
		expect(some).toEqual([["Kills", "", "a", 1]]);
	});

	// Records that keep coming wait for the bucket's next token: two topics, each under its receive
	// limit (40 + 80 x servers a minute), give twice the announcements one topic could, and half the wait.
	it("announcements take turns on the TOPICS topics, TOPIC_ANNOUNCEMENTS a minute on each", () => {
		expect(TOPICS).toBe(2);
		expect(ANNOUNCEMENTS).toBe(TOPICS * TOPIC_ANNOUNCEMENTS);
		expect(TOPIC_ANNOUNCEMENTS).toBe(75);
		let item = fresh();
		const topics = new Array<number>();
		for (let i = 1; i <= 4; i++) {
			item = withRecord(item, ["Kills", "", `k${i}`, i], 0);
			const [after, records, topic] = announcement(item, 0);
			expect(records).toEqual([["Kills", "", `k${i}`, i]]);
			topics.push(topic!);
			item = after;
		}
		expect(topics).toEqual([0, 1, 0, 1]);
		expect(item.sent).toBe(4);
	});

	it("a record alone over 1 kB is passed over without a message or a token", () => {
		const long = string.rep("x", MESSAGE_BYTES);
		let item = withRecord(fresh(), ["Kills", "", long, 1], 0);
		item = withRecord(item, ["Kills", "", "b", 2], 0);
		const [after, none] = announcement(item, 0);
		expect(none).toBeUndefined();
		expect(after.tokens).toBe(ANNOUNCEMENT_BURST);
		const [, following] = announcement(after, 0);
		expect(following).toEqual([["Kills", "", "b", 2]]);
	});
});

describe("records messages", () => {
	it("group records by board and period, in their order within each, and read back whole", () => {
		const records: Array<[string, string, string, number]> = [
			["Kills", "", "a", 1],
			["Daily", "20431", "b", 2],
			["Kills", "", "c", 3],
		];
		const message = messageOf(records);
		expect(message).toEqual({
			v: 2,
			b: [
				["Kills", "", "a", 1, "c", 3],
				["Daily", "20431", "b", 2],
			],
		});
		expect(recordsOf(HttpService.JSONDecode(HttpService.JSONEncode(message)))).toEqual([
			["Kills", "", "a", 1],
			["Kills", "", "c", 3],
			["Daily", "20431", "b", 2],
		]);
	});

	it("fill 1 kB exactly as the encoded message measures", () => {
		const records = new Array<[string, string, string, number]>();
		for (let i = 1; i <= 200; i++)
			records.push([i % 3 === 0 ? "Kills" : "Coins", "", `${4_000_000_000 + i}`, i * 7]);
		// The first n records as a message, grouped by hand (Coins comes first).
		const grouped = (n: number) => {
			const coins: Array<string | number> = ["Coins", ""];
			const kills: Array<string | number> = ["Kills", ""];
			for (let i = 0; i < n; i++) (records[i][0] === "Coins" ? coins : kills).push(records[i][2], records[i][3]);
			return { v: 2, b: [coins, kills] };
		};
		const message = messageOf(records);
		const carried = recordsOf(message)!.size();
		expect(carried > 40).toBe(true);
		expect(HttpService.JSONEncode(message)).toBe(HttpService.JSONEncode(grouped(carried)));
		expect(HttpService.JSONEncode(message).size() <= MESSAGE_BYTES).toBe(true);
		expect(HttpService.JSONEncode(grouped(carried + 1)).size() > MESSAGE_BYTES).toBe(true);
	});

	it("a server still sending version 1 is heard; anything else malformed is not a records message", () => {
		expect(recordsOf({ v: 1, r: [["Kills", "", "7", 42]] })).toEqual([["Kills", "", "7", 42]]);
		for (const junk of [
			"junk",
			{ v: 3, b: [] },
			{ v: 2, b: [["Kills", "", "7"]] },
			{ v: 2, b: [["Kills", "", 7, 42]] },
			{ v: 2, b: [["Kills", "", "7", "lots"]] },
			{ v: 2, b: [[1, "", "7", 42]] },
			{ v: 2, b: ["Kills"] },
			{ v: 1, r: [["Kills", "", "8", "lots"]] },
		])
			expect(recordsOf(junk)).toBeUndefined();
	});

	it("a record past PENDING_SECONDS is not announced, even when no record landed since", () => {
		const item = withRecord(fresh(), ["Kills", "", "a", 1], 0);
		const [same, none] = announcement(item, PENDING_SECONDS + 0.5);
		expect(none).toBeUndefined();
		expect(same).toBe(item);
	});
});

describe("the asker: one server asks for the next announcement while records wait", () => {
	// Records waiting and the bucket empty at 0: the next token comes 60 / ANNOUNCEMENTS s later.
	const waitingItem = () => ({ ...withRecord(fresh(), ["Kills", "", "a", 1], 0), tokens: 0, tokensAt: 0 });

	it("the first server takes the lease and asks at the bucket's next token", () => {
		const [item, seconds] = asking(waitingItem(), "A", 0);
		expect(seconds).toBe(60 / ANNOUNCEMENTS);
		expect(item.asker).toEqual(["A", 60 / ANNOUNCEMENTS + ASK_MARGIN]);
	});

	it("another server leaves the item as it is while that lease runs, and takes it once it ran out", () => {
		const [leased] = asking(waitingItem(), "A", 0);
		const [same, none] = asking(leased, "B", 1);
		expect(none).toBeUndefined();
		expect(same).toBe(leased);
		const late = 60 / ANNOUNCEMENTS + ASK_MARGIN + 0.5;
		const [taken, seconds] = asking(leased, "B", late);
		expect(taken.asker![0]).toBe("B");
		expect(seconds).toBe(ASK_SOONEST); // a token is there by then
	});

	it("the asker renews its lease while records wait, and gives it up once none does", () => {
		const [leased] = asking(waitingItem(), "A", 0);
		const [renewed, again] = asking(leased, "A", 0.5);
		expect(again! < 60 / ANNOUNCEMENTS).toBe(true); // the token is nearer now
		expect(renewed.asker).toEqual(["A", 0.5 + again! + ASK_MARGIN]);
		const [announced, records] = announcement(renewed, 1);
		expect(records).toEqual([["Kills", "", "a", 1]]);
		const [released, none] = asking(announced, "A", 1);
		expect(none).toBeUndefined();
		expect(released.asker).toBeUndefined();
	});

	it("nothing waiting, no lease and nothing written", () => {
		const item = fresh();
		const [same, none] = asking(item, "A", 0);
		expect(none).toBeUndefined();
		expect(same).toBe(item);
	});

	it("records past PENDING_SECONDS no longer keep an asker", () => {
		const [leased] = asking(waitingItem(), "A", 0);
		const [released, none] = asking(leased, "A", PENDING_SECONDS + 1);
		expect(none).toBeUndefined();
		expect(released.asker).toBeUndefined();
	});
});
