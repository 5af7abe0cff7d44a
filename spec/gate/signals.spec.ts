import { afterEach, describe, expect, it } from "@rbxts/jest-globals";
import { LogService } from "@rbxts/services";
import { headlessGate } from "./control";

// Each expectation follows create.roblox.com/docs/scripting/events/deferred ("Deferred engine
// events": handlers resume at the next resumption point, a handler's own event goes to the back of
// the queue, re-entrancy limit 10, Disconnect drops pending invocations, Destroy runs them) and
// the engine reference of Enum.SignalBehavior (Default = Immediate today; AncestryDeferred defers
// only events triggered by changes in ancestry). Workspace.SignalBehavior is a place setting that
// scripts cannot read (@rbxts/types leaves it out), so specs choose it through the gate's control.

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

describeGate("workspace.SignalBehavior", () => {
	afterEach(() => gate!.reset());

	it("is the place's setting: the run's until gate.signals.use changes it, gate.reset() restores it", () => {
		const run = gate!.signals.behavior();
		gate!.signals.use("Deferred");
		expect(gate!.signals.behavior()).toBe("Deferred");
		expect(() => gate!.signals.use("Later")).toThrow("unknown SignalBehavior 'Later'");
		gate!.reset();
		expect(gate!.signals.behavior()).toBe(run);
	});

	it("Immediate (and Default): every handler runs inside Fire, in connection order", () => {
		for (const behavior of ["Immediate", "Default"]) {
			gate!.signals.use(behavior);
			const event = new Instance("BindableEvent");
			const heard: string[] = [];
			event.Event.Connect(() => heard.push("a"));
			event.Event.Connect(() => heard.push("b"));
			event.Fire();
			expect(heard).toEqual(["a", "b"]);
		}
	});

	it("Deferred: no handler runs inside Fire; all run at the next resumption point, in order", () => {
		gate!.signals.use("Deferred");
		const event = new Instance("BindableEvent");
		const heard: string[] = [];
		event.Event.Connect((n: number) => heard.push(`a${n}`));
		event.Event.Connect((n: number) => heard.push(`b${n}`));
		event.Fire(1);
		event.Fire(2);
		expect(heard).toEqual([]);
		task.wait();
		expect(heard).toEqual(["a1", "b1", "a2", "b2"]);
	});

	it("Deferred: an event fired by a handler goes to the back of the queue (the docs' diagram)", () => {
		gate!.signals.use("Deferred");
		const first = new Instance("BindableEvent");
		const second = new Instance("BindableEvent");
		const order: string[] = [];
		first.Event.Connect(() => {
			order.push("first:1");
			second.Fire();
		});
		first.Event.Connect(() => order.push("first:2"));
		second.Event.Connect(() => order.push("second"));
		first.Fire();
		task.wait();
		expect(order).toEqual(["first:1", "first:2", "second"]);
	});

	it("Deferred: Disconnect drops invocations still queued; Destroy disconnects but runs them", () => {
		gate!.signals.use("Deferred");
		const event = new Instance("BindableEvent");
		let dropped = 0;
		const connection = event.Event.Connect(() => dropped++);
		event.Fire();
		connection.Disconnect();
		const doomed = new Instance("BindableEvent");
		let pending = 0;
		const kept = doomed.Event.Connect(() => pending++);
		doomed.Fire();
		doomed.Destroy();
		expect(kept.Connected).toBe(false);
		task.wait();
		expect(dropped).toBe(0);
		expect(pending).toBe(1);
	});

	it("Deferred: Once runs its handler once however many invocations were queued; Wait resumes", () => {
		gate!.signals.use("Deferred");
		const event = new Instance("BindableEvent");
		let once = 0;
		event.Event.Once(() => once++);
		event.Fire();
		event.Fire();
		task.wait();
		expect(once).toBe(1);
		const late = new Instance("BindableEvent") as BindableEvent<(word: string) => void>;
		task.delay(1, () => late.Fire("late"));
		expect(late.Event.Wait()[0]).toBe("late");
	});

	it("Deferred: BindToClose is a resumption point, so handlers queued before a close run before its callbacks", () => {
		gate!.signals.use("Deferred");
		const server = gate!.newServer();
		const event = new Instance("BindableEvent");
		const order: string[] = [];
		event.Event.Connect(() => order.push("handler"));
		server.game.BindToClose(() => order.push("close"));
		event.Fire();
		server.close();
		expect(order).toEqual(["handler", "close"]);
	});

	it("AncestryDeferred: ancestry events are deferred, the rest fire Immediate", () => {
		gate!.signals.use("AncestryDeferred");
		const folder = new Instance("Folder");
		const event = new Instance("BindableEvent");
		const heard: string[] = [];
		folder.ChildAdded.Connect(() => heard.push("ChildAdded"));
		event.Event.Connect(() => heard.push("Event"));
		new Instance("Folder").Parent = folder;
		event.Fire();
		expect(heard).toEqual(["Event"]);
		task.wait();
		expect(heard).toEqual(["Event", "ChildAdded"]);
	});

	it("Deferred: a handler that refires its own event stops at the re-entrancy limit of 10", () => {
		gate!.signals.use("Deferred");
		const event = new Instance("BindableEvent");
		let depth = 0;
		event.Event.Connect(() => {
			depth += 1;
			event.Fire();
		});
		LogService.ClearOutput();
		event.Fire();
		task.wait();
		task.wait();
		expect(depth).toBe(10);
		const errors = LogService.GetLogHistory().filter(
			(entry) => entry.messageType === Enum.MessageType.MessageError,
		);
		expect(errors.map((entry) => entry.message)).toEqual(["Maximum re-entrancy depth (10) exceeded"]);
	});
});
