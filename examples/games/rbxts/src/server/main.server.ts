import { Kernel } from "@rbxts/leaderboards";
import { makeHello } from "shared/module";
import { Wins } from "./Wins";

print(makeHello("main.server.ts"));

// The game's services on the kernel: its start binds the boards' drain to game:BindToClose.
const kernel = new Kernel();
kernel.add(new Wins());
kernel.start();
