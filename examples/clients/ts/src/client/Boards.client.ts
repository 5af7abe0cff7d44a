// src/client/Boards.client.ts: the Kills board on the lobby wall, the top 5 in a corner.
import { ListBoard, SHORT_SUFFIXES, WorldBoard } from "@rbxts/leaderboards/client";
import { Players, Workspace } from "@rbxts/services";

WorldBoard.mount(Workspace.WaitForChild("KillsWall") as BasePart, { Board: "Kills", Rows: 10 });

const corner = new Instance("ScreenGui");
corner.Name = "Corner";
corner.ResetOnSpawn = false;
corner.Parent = Players.LocalPlayer.WaitForChild("PlayerGui");
ListBoard.mount(corner, { Board: "Kills", Rows: 5, Format: { Suffixes: SHORT_SUFFIXES } });
