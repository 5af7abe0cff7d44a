import { afterEach, describe, expect, it } from "@rbxts/jest-globals";
import { BoardService, Session } from "../examples/ts/BoardService";
import { Kernel } from "../kernel";
import { headlessGate } from "./gate/control";

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;

describeGate("the TypeScript BoardService", () => {
	afterEach(() => gate!.reset());

	it("runs as the design document's Luau one does: kills, runs, topKills, killsOf, rankOf, aroundMe, friendsKills, wipe, and a drain on stop", () => {
		gate!.reset();
		const kernel = new Kernel({ bindToClose: false });
		const service = new BoardService();
		kernel.add(service);
		kernel.start();
		const player = gate!.players.join({ UserId: 7, Name: "ada", DisplayName: "Ada" });
		const session: Session = { Player: player, Profile: { Data: { Kills: 0 } } };
		kernel.Bus.publish("Combat.Kill", session);
		kernel.Bus.publish("Combat.Kill", session);
		kernel.Bus.publish("Run.Finished", session, 52.5);
		task.wait(16); // the first flush window, FlushSeconds (15) after the first submit
		expect(service.killsOf(player)).toBe(2);
		expect(service.topKills(10)[0]).toEqual({ Key: "7", Value: 2, Rank: 1, DisplayName: "Ada", Username: "ada" });
		expect(service.rankOf(player)).toEqual({ Key: "7", Value: 2, Rank: 1 });
		expect(service.aroundMe(player, 2)).toEqual([
			{ Key: "7", Value: 2, Rank: 1, DisplayName: "Ada", Username: "ada" },
		]);
		gate!.friends.befriend(7, 8);
		gate!.users.register(8, "bo", "Bo");
		const friend = gate!.players.join({ UserId: 8, Name: "bo", DisplayName: "Bo" });
		kernel.Bus.publish("Combat.Kill", { Player: friend, Profile: { Data: { Kills: 4 } } });
		service.wipe("999");
		task.wait(16);
		const [friends, unread] = service.friendsKills(player);
		expect(friends).toEqual([
			{ Key: "8", Value: 5, Rank: 1, DisplayName: "Bo", Username: "bo" },
			{ Key: "7", Value: 2, Rank: 2, DisplayName: "Ada", Username: "ada" },
		]);
		expect(unread).toBe(0);
		kernel.Bus.publish("Combat.Kill", session);
		const result = kernel.stop(); // the drain writes the kill submitted since
		expect(result.complete).toBe(true);
		expect(gate!.dataStore.snapshot("CKBoard_Kills").get("7")).toBe(3);
		expect(gate!.dataStore.snapshot("CKBoard_BestTime").get("7")).toBe(52_500);
	});
});
