// A board on a part in the world: WorldBoard.mount(part, { Board = "Kills", Rows = 10 }).
import { mountOf, MountedBoard, MountOptions } from "./options";
import { localPlayerFor, mountIn } from "./mount";

/** A mounted world board's options: a board's, and the part's face it shows on. */
export interface WorldBoardOptions extends MountOptions {
	/** The part's face. Default Front. */
	Face?: Enum.NormalId;
}

/** The name of the first world board in a PlayerGui, as docs/boards-players-see.md shows it. */
const WORLD_BOARD_NAME = "Leaderboard";

// The documented name while it is free, so a game with one world board finds it there; a further one
// takes its board's name, then that name and a number: no two children of the PlayerGui share one.
function freeName(playerGui: Instance, board: string): string {
	if (!playerGui.FindFirstChild(WORLD_BOARD_NAME)) return WORLD_BOARD_NAME;
	let name = board;
	for (let n = 2; playerGui.FindFirstChild(name); n++) name = `${board}${n}`;
	return name;
}

/**
 * A board on a part's face, seen by this player: a SurfaceGui in the player's PlayerGui adorned to the
 * part, as Roblox asks of a SurfaceGui that knows which player sees it (the local player's row).
 */
export const WorldBoard = {
	/** The board's rows on `part`, updated as they change; on a client. Luau: WorldBoard.mount(part, options). */
	mount: (part: BasePart, options: WorldBoardOptions): MountedBoard => {
		const mount = mountOf("WorldBoard.mount", options);
		if (!typeIs(part, "Instance") || !part.IsA("BasePart"))
			error(`WorldBoard.mount: part must be a BasePart (got ${part})`, 2);
		const face = options.Face ?? Enum.NormalId.Front;
		if (!typeIs(face, "EnumItem") || face.EnumType !== Enum.NormalId)
			error(`WorldBoard.mount: options.Face must be an Enum.NormalId (got ${options.Face})`, 2);
		const player = localPlayerFor("WorldBoard.mount");
		const playerGui = player.WaitForChild("PlayerGui");
		const gui = new Instance("SurfaceGui");
		gui.Name = freeName(playerGui, mount.board);
		gui.Adornee = part;
		gui.Face = face;
		gui.ResetOnSpawn = false; // a respawn would delete it: the mount owns it until destroy()
		gui.Parent = playerGui;
		return mountIn(gui, mount, player, gui);
	},
};
