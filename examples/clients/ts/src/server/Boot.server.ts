// src/server/Boot.server.ts: the Kills board, its top 10 sent to every client.
import { Kernel, attach } from "@rbxts/leaderboards";

const kernel = new Kernel();
kernel.add({
	Name: "Scores",
	init(kernel: Kernel) {
		attach(kernel, { Boards: { Kills: { Replicate: { Rows: 10 } } } }); // clients get the top 10, never write
	},
});
kernel.start();
