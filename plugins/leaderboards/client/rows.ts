// A board's rows drawn into its frame: one copy of the template's Row a row, named and ordered by its
// place, its named children filled; the Empty child shown while there are none.
import { SentRow } from "../contracts/replication";
import { FormatOptions, format } from "../format";

/** The avatar a row shows: Roblox's headshot of a user key, loaded by the engine (no request of ours). */
export function headshotOf(key: string): string {
	const [userId] = key.match("^%d+$");
	return userId !== undefined ? `rbxthumb://type=AvatarHeadShot&id=${userId}&w=150&h=150` : "";
}

function setText(row: Instance, name: string, text: string) {
	const found = row.FindFirstChild(name, true);
	if (found && (found.IsA("TextLabel") || found.IsA("TextButton") || found.IsA("TextBox"))) found.Text = text;
}

/** Rows drawn in `frame` from copies of `row`; `mine` is the local player's key. */
export class RowsView {
	private readonly drawn = new Array<GuiObject>();

	constructor(
		private readonly frame: GuiObject,
		private readonly row: GuiObject,
		private readonly shown: number,
		private readonly mine: string,
		private readonly formatOptions?: FormatOptions,
	) {}

	/** Draws the first rows of `rows` (the board's rows as the client holds them). */
	render(rows: ReadonlyArray<SentRow>) {
		const count = math.min(rows.size(), this.shown);
		for (let place = 1; place <= count; place++) this.fill(this.rowAt(place), rows[place - 1]);
		while (this.drawn.size() > count) this.drawn.pop()!.Destroy();
		const empty = this.frame.FindFirstChild("Empty");
		if (empty && empty.IsA("GuiObject")) empty.Visible = count === 0;
	}

	private rowAt(place: number): GuiObject {
		let drawn = this.drawn[place - 1];
		if (!drawn) {
			drawn = this.row.Clone();
			drawn.Name = tostring(place);
			drawn.LayoutOrder = place;
			drawn.Parent = this.frame;
			this.drawn.push(drawn);
		}
		return drawn;
	}

	private fill(drawn: GuiObject, row: SentRow) {
		setText(drawn, "Rank", tostring(row.Rank));
		setText(drawn, "DisplayName", row.DisplayName ?? row.Username ?? row.Key);
		setText(drawn, "Value", format(row.Value, this.formatOptions));
		const avatar = drawn.FindFirstChild("Avatar", true);
		if (avatar && (avatar.IsA("ImageLabel") || avatar.IsA("ImageButton"))) avatar.Image = headshotOf(row.Key);
		const mine = drawn.FindFirstChild("Mine", true);
		if (mine && mine.IsA("GuiObject")) mine.Visible = row.Key === this.mine;
		drawn.SetAttribute("Key", row.Key);
	}
}
