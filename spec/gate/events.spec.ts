import { describe, expect, it } from "@rbxts/jest-globals";
import { HttpService } from "@rbxts/services";
import Signal from "@rbxts/signal";
import { headlessGate } from "./control";

const describeGate = headlessGate() ? describe : describe.skip;

describeGate("BindableEvent, @rbxts/signal and HttpService", () => {
	it("BindableEvent delivers to every handler, copying tables as Roblox does", () => {
		const event = new Instance("BindableEvent");
		const sent = { score: 1 };
		const received: defined[] = [];
		event.Event.Connect((value: defined) => received.push(value));
		event.Event.Connect((value: defined) => received.push(value));
		event.Fire(sent);
		task.wait(); // under Deferred signals the handlers run at the next resumption point
		expect(received.size()).toBe(2);
		expect(received[0]).toEqual(sent);
		expect(received[0]).never.toBe(sent);
	});

	it("a disconnected handler hears nothing", () => {
		const event = new Instance("BindableEvent");
		let calls = 0;
		const connection = event.Event.Connect(() => calls++);
		connection.Disconnect();
		event.Fire();
		expect(calls).toBe(0);
		expect(connection.Connected).toBe(false);
	});

	it("@rbxts/signal works on it, Wait included", () => {
		const signal = new Signal<(name: string, value: number) => void>();
		const heard: string[] = [];
		signal.Connect((name, value) => heard.push(`${name}=${value}`));
		task.delay(1, () => signal.Fire("kills", 3));
		const [name, value] = signal.Wait();
		expect(`${name}=${value}`).toBe("kills=3");
		expect(heard).toEqual(["kills=3"]);
	});

	it("HttpService encodes and decodes JSON", () => {
		const text = HttpService.JSONEncode({ a: [1, 2, 3], b: "x" });
		expect(text).toBe('{"a":[1,2,3],"b":"x"}');
		expect(HttpService.JSONDecode(text)).toEqual({ a: [1, 2, 3], b: "x" });
	});
});
