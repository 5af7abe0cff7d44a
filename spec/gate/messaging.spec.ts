import { afterEach, beforeEach, describe, expect, it } from "@rbxts/jest-globals";
import { MessagingService } from "@rbxts/services";
import { headlessGate } from "./control";
import { together } from "./together";

// Each expectation follows create.roblox.com/docs/reference/engine/classes/MessagingService
// ("Limitations", subject to change: messages of 1 kB; 600 + 240 x players sent a minute per
// server; 40 + 80 x servers received a minute per topic; 400 + 200 x servers for the whole game;
// 20 + 8 x players subscriptions per server; 240 subscribe requests a minute; topics of 1-80
// characters; delivery best effort, "typically within 1-2 seconds"; the callback gets { Data,
// Sent }, and after Disconnect() it is never invoked).

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

interface Message {
	Data: unknown;
	Sent: number;
}

// Servers of the experience now. Other spec files may leave servers running; one nothing refers to
// any more ends when the collector reclaims it, so collect first for a count that holds.
function serverCount(): number {
	gate!.collect();
	return gate!.messaging.servers();
}

// Subscribes on a MessagingService and keeps what arrives, with when it arrived.
function listen(service: MessagingService, topic: string) {
	const heard: { data: unknown; sent: number; at: number }[] = [];
	const connection = service.SubscribeAsync(topic, (message) => {
		const { Data, Sent } = message as Message;
		heard.push({ data: Data, sent: Sent, at: gate!.now() });
	});
	return { heard, connection };
}

describeGate("the emulated MessagingService", () => {
	beforeEach(() => gate!.reset());
	afterEach(() => gate!.reset());

	it("delivers { Data, Sent } to every subscribed server, the publisher's too, in 1-2 s at realistic latency", () => {
		gate!.latency.use("realistic", 5);
		const before = serverCount();
		const other = gate!.newServer();
		expect(gate!.messaging.servers()).toBe(before + 1);
		const here = listen(MessagingService, "Records");
		const there = listen(other.game.GetService("MessagingService"), "Records");
		const sentAt = gate!.now();
		const unix = os.time();
		MessagingService.PublishAsync("Records", { board: "Kills", value: 12 });
		task.wait(4);
		for (const { heard } of [here, there]) {
			expect(heard.size()).toBe(1);
			expect(heard[0].data).toEqual({ board: "Kills", value: 12 });
			expect(math.abs(heard[0].sent - unix)).toBeLessThan(2);
			expect(heard[0].at - sentAt).toBeGreaterThan(0.5);
			expect(heard[0].at - sentAt).toBeLessThan(3.5);
		}
		other.close();
		expect(gate!.messaging.servers()).toBe(before);
	});

	it("after Disconnect the callback is never invoked, even for a message already travelling", () => {
		gate!.messaging.delay(1);
		const { heard, connection } = listen(MessagingService, "Quiet");
		MessagingService.PublishAsync("Quiet", 1);
		connection.Disconnect();
		task.wait(3);
		expect(heard.size()).toBe(0);
	});

	it("a publish reaches a topic's subscriptions in the order they were made, not where the allocator put them", () => {
		// Each copy draws its latency in fan-out order: an order of addresses moved a seed's run
		// (the demo's figures) when only the module layout changed.
		const heard = new Array<number>();
		const expected = new Array<number>();
		for (let i = 1; i <= 16; i++) {
			MessagingService.SubscribeAsync("Order", () => heard.push(i));
			expected.push(i);
		}
		MessagingService.PublishAsync("Order", 1);
		task.wait(1);
		expect(heard).toEqual(expected);
	});

	it("topics are 1-80 characters; a message is at most 1 kB (1,024 bytes serialized)", () => {
		expect(() => MessagingService.PublishAsync("", 1)).toThrow("1 to 80 characters");
		expect(() => MessagingService.PublishAsync(string.rep("t", 81), 1)).toThrow("1 to 80 characters");
		expect(() => MessagingService.SubscribeAsync(string.rep("t", 81), () => {})).toThrow("1 to 80 characters");
		MessagingService.PublishAsync(string.rep("t", 80), string.rep("m", 1022)); // "m..." is 1,024 bytes as JSON
		expect(() => MessagingService.PublishAsync("Big", string.rep("m", 1023))).toThrow(
			"larger than the 1 kB limit (1025 bytes serialized)",
		);
	});

	it("a server sends 600 + 240 x its players messages a minute", () => {
		expect(together(601, (i) => MessagingService.PublishAsync("Burst", i))).toEqual([
			"MessagingService: PublishAsync throttled: over 600 + 240 x players messages sent a minute on this server",
		]);
		gate!.reset();
		gate!.players.join({ UserId: 1 });
		expect(together(841, (i) => MessagingService.PublishAsync("Burst", i)).size()).toBe(1);
		// Another server has a budget of its own.
		const server = gate!.newServer();
		const other = server.game.GetService("MessagingService");
		expect(together(600, (i) => other.PublishAsync("Burst", i)).size()).toBe(0);
		server.close();
	});

	it("a server holds 20 + 8 x its players subscriptions; a disconnected one frees its place", () => {
		const connections = new Array<RBXScriptConnection>();
		for (let i = 0; i < 20; i++) connections.push(MessagingService.SubscribeAsync(`t${i}`, () => {}));
		expect(() => MessagingService.SubscribeAsync("one-more", () => {})).toThrow(
			"over 20 + 8 x players subscriptions",
		);
		connections[0].Disconnect();
		MessagingService.SubscribeAsync("one-more", () => {});
		gate!.players.join({ UserId: 1 });
		for (let i = 0; i < 8; i++) MessagingService.SubscribeAsync(`p${i}`, () => {});
		expect(() => MessagingService.SubscribeAsync("p8", () => {})).toThrow("subscriptions");
	});

	it("a server makes 240 subscribe requests a minute", () => {
		for (let id = 1; id <= 28; id++) gate!.players.join({ UserId: id }); // room for 20 + 8 x 28 = 244
		expect(together(241, () => MessagingService.SubscribeAsync("churn", () => {}))).toEqual([
			"MessagingService: SubscribeAsync throttled: over 240 subscribe requests a minute on this server",
		]);
	});

	it("a topic receives 40 + 80 x servers messages a minute; the rest are not delivered", () => {
		const servers = serverCount();
		gate!.players.join({ UserId: 1 });
		const { heard } = listen(MessagingService, "Hot");
		together(40 + 80 * servers + 10, (i) => MessagingService.PublishAsync("Hot", i));
		task.wait(1);
		expect(heard.size()).toBe(40 + 80 * servers);
		expect(gate!.messaging.counts().overTopic).toBe(10);
	});

	it("the experience receives 400 + 200 x servers messages a minute over all topics", () => {
		const servers = serverCount();
		for (let id = 1; id <= 5; id++) gate!.players.join({ UserId: id }); // 1,800 sends a minute
		const heard = [0, 1, 2, 3, 4, 5].map((t) => listen(MessagingService, `topic${t}`).heard);
		// Six topics, each under its own 40 + 80 x servers.
		together(400 + 200 * servers + 60, (i) => MessagingService.PublishAsync(`topic${i % 6}`, i));
		task.wait(1);
		let total = 0;
		for (const list of heard) total += list.size();
		expect(total).toBe(400 + 200 * servers);
		expect(gate!.messaging.counts().overExperience).toBe(60);
	});

	it("delivery is best effort: injected loss, delay and reordering", () => {
		const { heard } = listen(MessagingService, "Lossy");
		gate!.messaging.lose(1);
		MessagingService.PublishAsync("Lossy", "gone");
		task.wait(1);
		expect(heard.size()).toBe(0);
		expect(gate!.messaging.counts().lost).toBe(1);
		gate!.messaging.reset();
		const late = listen(MessagingService, "Late").heard;
		gate!.messaging.delay(5);
		MessagingService.PublishAsync("Late", "late");
		task.wait(4.5);
		expect(late.size()).toBe(0);
		task.wait(1);
		expect(late.size()).toBe(1);
		gate!.messaging.reset();
		const shuffled = listen(MessagingService, "Shuffled").heard;
		gate!.messaging.reorder(3, 9);
		for (let i = 1; i <= 20; i++) MessagingService.PublishAsync("Shuffled", i);
		task.wait(5);
		const order = shuffled.map((entry) => entry.data as number);
		expect(order.size()).toBe(20);
		expect(order).never.toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
	});
});
