// A board as a list in the game's own UI: ListBoard.mount(frame, { Board = "Kills", Rows = 10 }).
import { mountOf, MountedBoard, MountOptions } from "./options";
import { localPlayerFor, mountIn } from "./mount";

/** A board drawn inside a frame of the game's UI (a Frame, a ScrollingFrame, a ScreenGui). */
export const ListBoard = {
	/** The board's rows in `frame`, updated as they change; on a client. Luau: ListBoard.mount(frame, options). */
	mount: (frame: GuiBase2d, options: MountOptions): MountedBoard => {
		const mount = mountOf("ListBoard.mount", options);
		if (!typeIs(frame, "Instance") || !frame.IsA("GuiBase2d"))
			error(`ListBoard.mount: frame must be a GuiObject or a ScreenGui (got ${frame})`, 2);
		return mountIn(frame, mount, localPlayerFor("ListBoard.mount"));
	},
};
