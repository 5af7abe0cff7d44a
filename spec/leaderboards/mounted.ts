/** The headshot a mounted board shows for a user id (rbxthumb, 150 x 150). */
export const headshot = (id: number) => `rbxthumb://type=AvatarHeadShot&id=${id}&w=150&h=150`;

/** What a mounted board shows, row by row in its order: "rank|name|value|image|mine". */
export function shown(frame: Instance): string[] {
	const rows = frame.GetChildren().filter((child) => tonumber(child.Name) !== undefined);
	rows.sort((a, b) => (a as GuiObject).LayoutOrder < (b as GuiObject).LayoutOrder);
	return rows.map((row) => {
		const text = (name: string) => (row.FindFirstChild(name, true) as TextLabel).Text;
		const image = (row.FindFirstChild("Avatar", true) as ImageLabel).Image;
		const mine = (row.FindFirstChild("Mine", true) as GuiObject).Visible ? "mine" : "";
		return `${text("Rank")}|${text("DisplayName")}|${text("Value")}|${image}|${mine}`;
	});
}
