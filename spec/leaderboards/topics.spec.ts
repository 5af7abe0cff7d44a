import { describe, expect, it } from "@rbxts/jest-globals";
import { Bus } from "../../kernel";
import { Entry, Topics } from "../../plugins/leaderboards";

// A game declares its own topics as the library declares its (types/public.ts): merged into BusTopics.
declare module "../../kernel/Bus" {
	interface BusTopics {
		"TopicsSpec.Scored": [player: string, points: number];
	}
}

// That a typo'd topic ("Leaderboard.Updatd") does not compile is proven where roblox-ts allows
// expect-error directives: spec/packaging/fixtures/rbxts/typecheck/topics.ts.

describe("Bus topics, typed", () => {
	it("a declared topic types its payload; another namespace's topic carries unknown[]", () => {
		const bus = new Bus();
		const heard = new Array<string | number>();
		bus.subscribe("TopicsSpec.Scored", (_, player, points) => heard.push(`${player}:${points + 1}`));
		bus.subscribe(Topics.Updated, (_, board, entries: Entry[]) => heard.push(`${board}:${entries.size()}`));
		bus.subscribe("Combat.Kill", (_, ...args) => heard.push(args.size()));
		bus.publish("TopicsSpec.Scored", "P1", 3);
		bus.publish(Topics.Updated, "Kills", [], undefined);
		bus.publish("Combat.Kill", "killer", 3);
		expect(heard).toEqual(["P1:4", "Kills:0", 2]);
	});

	it("a topic named at run time (a string, not a literal) still compiles and delivers", () => {
		const bus = new Bus();
		const topic: string = "Leaderboard.Anything";
		let calls = 0;
		bus.subscribe(topic, () => calls++);
		bus.publish(topic);
		expect(calls).toBe(1);
	});
});
