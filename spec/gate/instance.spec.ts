import { describe, expect, it } from "@rbxts/jest-globals";
import { LogService } from "@rbxts/services";
import { headlessGate } from "./control";

const describeGate = headlessGate() ? describe : describe.skip;

describeGate("instances in the gate", () => {
	it("looks members up as Roblox does: properties, then methods, then children", () => {
		const folder = new Instance("Folder");
		folder.Name = "Parent";
		const child = new Instance("Folder");
		child.Name = "Name";
		child.Parent = folder;
		expect(folder.Name).toBe("Parent");
		expect(folder.FindFirstChild("Name")).toBe(child);
		expect(folder.GetChildren()).toEqual([child]);
		expect(child.GetFullName()).toBe("Parent.Name");
		expect(child.IsA("Instance")).toBe(true);
		expect(typeIs(child, "Instance")).toBe(true);
		expect(() => (folder as unknown as { Missing: unknown }).Missing).toThrow(
			'Missing is not a valid member of Folder "Parent"',
		);
	});

	it("locks the parent of a destroyed instance", () => {
		const folder = new Instance("Folder");
		folder.Destroy();
		expect(() => {
			folder.Parent = game.GetService("Workspace");
		}).toThrow("The Parent property of Folder is locked");
	});

	it("WaitForChild returns a child that appears later", () => {
		const folder = new Instance("Folder");
		task.delay(1, () => {
			const late = new Instance("Folder");
			late.Name = "Late";
			late.Parent = folder;
		});
		const found = folder.WaitForChild("Late");
		expect(found.Name).toBe("Late");
	});

	it("WaitForChild with a timeout returns nothing when the child never comes", () => {
		const folder = new Instance("Folder");
		const started = os.clock();
		expect(folder.WaitForChild("Never", 2)).toBeUndefined();
		expect(os.clock() - started).toBeCloseTo(2, 1);
	});

	it("an infinite WaitForChild warns as Roblox does after 5 s, then fails fast", () => {
		const folder = new Instance("Folder");
		folder.Name = "Lonely";
		const warnings: string[] = [];
		const connection = LogService.MessageOut.Connect((message, kind) => {
			if (kind === Enum.MessageType.MessageWarning) warnings.push(message);
		});
		expect(() => folder.WaitForChild("Never")).toThrow("Infinite yield possible");
		task.wait(); // under Deferred signals the handlers run at the next resumption point
		connection.Disconnect();
		expect(warnings).toEqual([`Infinite yield possible on 'Lonely:WaitForChild("Never")'`]);
	});

	it("Clone points ObjectValues inside the copied tree at the copies, and keeps those outside", () => {
		const outside = new Instance("Folder");
		const model = new Instance("Folder");
		const target = new Instance("Folder");
		target.Name = "Target";
		target.Parent = model;
		const inner = new Instance("ObjectValue");
		inner.Name = "Inner";
		inner.Value = target;
		inner.Parent = model;
		const outer = new Instance("ObjectValue");
		outer.Name = "Outer";
		outer.Value = outside;
		outer.Parent = model;
		const copy = model.Clone();
		expect((copy.FindFirstChild("Inner") as ObjectValue).Value).toBe(copy.FindFirstChild("Target"));
		expect((copy.FindFirstChild("Outer") as ObjectValue).Value).toBe(outside);
		expect(inner.Value).toBe(target);
	});

	it("Clone copies a ModuleScript whose source was never read", () => {
		const module = game
			.GetService("ServerScriptService")
			.WaitForChild("Leaderboards")
			.WaitForChild("spec")
			.WaitForChild("gate")
			.WaitForChild("summary") as ModuleScript;
		const copy = module.Clone() as unknown as { Source: string };
		expect(copy.Source).toMatch("N passed, N failed");
	});
});

describeGate("Enum in the gate", () => {
	it("Enum.GetEnums lists every Enum, each with its items", () => {
		const enums = Enum.GetEnums();
		expect(enums.includes(Enum.CloseReason as unknown as Enum)).toBe(true);
		expect(enums.includes(Enum.DataStoreRequestType as unknown as Enum)).toBe(true);
		for (const enumType of enums) expect(enumType.GetEnumItems().size() > 0).toBe(true);
	});

	// create.roblox.com/docs/reference/engine/enums/CloseReason
	it("Enum.CloseReason has Roblox's items and values", () => {
		const items = Enum.CloseReason.GetEnumItems().map((item) => `${item.Name}=${item.Value}`);
		expect(items).toEqual([
			"Unknown=0",
			"RobloxMaintenance=1",
			"DeveloperShutdown=2",
			"DeveloperUpdate=3",
			"ServerEmpty=4",
			"OutOfMemory=5",
		]);
	});
});
