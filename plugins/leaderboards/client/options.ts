// What WorldBoard.mount and ListBoard.mount take, checked at the game's call (docs/boards-players-see.md).
import { FormatOptions } from "../format";

/** A mounted board's options. */
export interface MountOptions {
	/** The board's name, as on the server (a board with Replicate). */
	Board: string;
	/** Rows shown, at most what the server replicates. Default 10. */
	Rows?: number;
	/** The look: a GuiObject with a child named Row, and optionally Title and Empty (docs/boards-players-see.md). */
	Template?: GuiObject;
	/** How values are written, passed to format(). */
	Format?: FormatOptions;
	/** The Title child's text. Default: the board's name. */
	Title?: string;
}

/** What a mount call hands back: the board's root and its cleanup. */
export interface MountedBoard {
	/** The template's copy holding the rows. */
	readonly Frame: GuiObject;
	/** Stops following the board and destroys what the mount built. Safe to call twice. */
	destroy(): void;
}

/** The options with their defaults applied. */
export interface Mount {
	readonly board: string;
	readonly rows: number;
	readonly template?: GuiObject;
	readonly format?: FormatOptions;
	readonly title: string;
}

/** The options checked, naming the field at fault: `caller` is "WorldBoard.mount" or "ListBoard.mount". */
export function mountOf(caller: string, options: unknown): Mount {
	if (!typeIs(options, "table")) error(`${caller}: options must be a table { Board, Rows? } (got ${options})`, 3);
	const { Board, Rows, Template, Format, Title } = options as MountOptions;
	if (!typeIs(Board, "string")) error(`${caller}: options.Board must be a board's name (got ${Board})`, 3);
	const rows = Rows ?? 10;
	if (!typeIs(rows, "number") || rows < 1 || rows % 1 !== 0)
		error(`${caller}: options.Rows must be a positive integer (got ${Rows})`, 3);
	if (Template !== undefined) {
		const row = typeIs(Template, "Instance") && Template.IsA("GuiObject") && Template.FindFirstChild("Row");
		if (!row || !row.IsA("GuiObject"))
			error(
				`${caller}: options.Template must be a GuiObject with a GuiObject child named Row (got ${Template})`,
				3,
			);
	}
	if (Format !== undefined && !typeIs(Format, "table"))
		error(`${caller}: options.Format must be format()'s options table (got ${Format})`, 3);
	if (Title !== undefined && !typeIs(Title, "string"))
		error(`${caller}: options.Title must be a string (got ${Title})`, 3);
	return { board: Board, rows, template: Template, format: Format, title: Title ?? Board };
}
