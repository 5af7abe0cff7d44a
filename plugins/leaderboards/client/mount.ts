// What WorldBoard and ListBoard share: the template copied into a parent, its rows following the board.
import { Players } from "@rbxts/services";
import { LeaderboardsClient } from "./LeaderboardsClient";
import { Mount, MountedBoard } from "./options";
import { RowsView } from "./rows";
import { defaultTemplate } from "./template";

/** The local player, or an error naming the caller: boards are mounted on a client. */
export function localPlayerFor(caller: string): Player {
	const player = Players.LocalPlayer;
	if (!player) error(`${caller}: call it on a client (a LocalScript): Players.LocalPlayer is nil here`, 3);
	return player;
}

/** The template's copy under `parent`, named after the board, following its rows until destroyed. */
export function mountIn(parent: Instance, mount: Mount, player: Player, owned?: Instance): MountedBoard {
	const frame = (mount.template ?? defaultTemplate(mount.rows)).Clone();
	frame.Name = mount.board;
	const row = frame.FindFirstChild("Row") as GuiObject;
	row.Parent = undefined;
	const title = frame.FindFirstChild("Title");
	if (title && title.IsA("TextLabel")) title.Text = mount.title;
	const view = new RowsView(frame, row, mount.rows, tostring(player.UserId), mount.format);
	view.render([]);
	frame.Parent = parent;
	let destroyed = false;
	// A change already on its way when destroy() came draws nothing.
	const connection = LeaderboardsClient.observe(mount.board, (rows) => {
		if (!destroyed) view.render(rows);
	});
	return {
		Frame: frame,
		destroy() {
			if (destroyed) return;
			destroyed = true;
			connection.Disconnect();
			row.Destroy();
			frame.Destroy();
			owned?.Destroy();
		},
	};
}
