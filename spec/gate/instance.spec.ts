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
		connection.Disconnect();
		expect(warnings).toEqual([`Infinite yield possible on 'Lonely:WaitForChild("Never")'`]);
	});
});
