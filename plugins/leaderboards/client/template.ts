// The look a mounted board has when the game passes no Template: the same named children a game's
// own template has (docs/boards-players-see.md, "Your own look"), built in code.

const TEXT = Color3.fromRGB(255, 255, 255);
const BACKGROUND = Color3.fromRGB(24, 26, 32);
const MINE = Color3.fromRGB(255, 196, 0);

function label(name: string, parent: Instance, x: number, width: number, alignment: Enum.TextXAlignment) {
	const text = new Instance("TextLabel");
	text.Name = name;
	text.Position = UDim2.fromScale(x, 0);
	text.Size = UDim2.fromScale(width, 1);
	text.BackgroundTransparency = 1;
	text.TextColor3 = TEXT;
	text.TextScaled = true;
	text.TextXAlignment = alignment;
	text.ZIndex = 2;
	text.Text = "";
	text.Parent = parent;
	return text;
}

// One row: Mine behind (shown on the local player's row), then Rank, Avatar, DisplayName and Value.
function row(parent: Instance, height: number) {
	const frame = new Instance("Frame");
	frame.Name = "Row";
	frame.Size = UDim2.fromScale(1, height);
	frame.BackgroundTransparency = 1;
	const mine = new Instance("Frame");
	mine.Name = "Mine";
	mine.Size = UDim2.fromScale(1, 1);
	mine.BackgroundColor3 = MINE;
	mine.BackgroundTransparency = 0.6;
	mine.Visible = false;
	mine.Parent = frame;
	label("Rank", frame, 0, 0.12, Enum.TextXAlignment.Center);
	const avatar = new Instance("ImageLabel");
	avatar.Name = "Avatar";
	avatar.Position = UDim2.fromScale(0.12, 0);
	avatar.Size = UDim2.fromScale(0.12, 1);
	avatar.BackgroundTransparency = 1;
	avatar.ZIndex = 2;
	avatar.Image = "";
	const square = new Instance("UIAspectRatioConstraint");
	square.AspectRatio = 1;
	square.Parent = avatar;
	avatar.Parent = frame;
	label("DisplayName", frame, 0.26, 0.48, Enum.TextXAlignment.Left);
	label("Value", frame, 0.74, 0.24, Enum.TextXAlignment.Right);
	frame.Parent = parent;
}

/** The default template for `rows` rows: a title line, the rows under it, and the empty state. */
export function defaultTemplate(rows: number): Frame {
	const height = 1 / (rows + 1);
	const root = new Instance("Frame");
	root.Size = UDim2.fromScale(1, 1);
	root.BackgroundColor3 = BACKGROUND;
	root.BackgroundTransparency = 0.1;
	const layout = new Instance("UIListLayout");
	layout.FillDirection = Enum.FillDirection.Vertical;
	layout.SortOrder = Enum.SortOrder.LayoutOrder;
	layout.Parent = root;
	const title = label("Title", root, 0, 1, Enum.TextXAlignment.Center);
	title.Size = UDim2.fromScale(1, height);
	title.LayoutOrder = 0;
	const empty = label("Empty", root, 0, 1, Enum.TextXAlignment.Center);
	empty.Size = UDim2.fromScale(1, height);
	empty.LayoutOrder = 1;
	empty.Text = "No scores yet";
	row(root, height);
	return root;
}
