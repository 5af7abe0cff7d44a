// src/Boot.server.ts: starts the game's services on the kernel.
import { Kernel } from "@rbxts/leaderboards";
import { Scores } from "./Scores";

const kernel = new Kernel();
kernel.add(new Scores());
kernel.start(); // init, then start; binds kernel.stop(), and so the boards' drain, to game:BindToClose
