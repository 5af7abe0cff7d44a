import { afterEach, describe, expect, it } from "@rbxts/jest-globals";
import { headlessGate } from "./control";
import { runExperience } from "./servers";

// Many cheap servers in one experience (spec/gate/README.md, "Many servers"): lean servers
// (spec/gate/fixtures/lean: the library and the services it touches) each with its own copy of the
// library's state over one copy of its compiled code. 1,000 servers, and a run of 8 virtual days,
// run as the program servers.ts (the README gives the commands): inside jest every frame runs
// (its timeouts poll Heartbeat), so 8 days would be 44 million frames here.

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;
// jest's timeouts are in virtual milliseconds.
const MINUTES = 10 * 60 * 1000;

describeGate("many servers in one experience", () => {
	afterEach(() => gate!.reset());

	// A server's heap grows with the library's modules (a new capability is a new file): an idle server is
	// its place's instances, about 2 KB of the gate's heap each (246 KB measured with 80 modules, 300 KB
	// with 104), and a server running the plugin holds each module's state (790 to 830 KB with 80 to 92
	// modules, 896 KB with 104). The bounds keep a thousand servers within the bench's 3,500 MB heap.
	it(
		"100 idle lean servers hold under 340 KB of the heap each",
		() => {
			const figures = runExperience(gate!, { servers: 100, players: 1, boards: 0, minutes: 1 });
			expect(figures.kilobytesPerServer).toBeLessThan(340);
		},
		MINUTES,
	);

	it(
		"100 lean servers each running its own plugin with 3 boards: every server writes, each holds under 1,000 KB",
		() => {
			const figures = runExperience(gate!, { servers: 100, players: 1, boards: 3, minutes: 0.5 });
			expect(figures.serversWriting).toBe(100);
			expect(figures.kilobytesPerServerAfter).toBeLessThan(1000);
		},
		MINUTES,
	);
});
