import { Logger } from "../../../kernel";
import { Board, Settings } from "../contracts";
import { nearName } from "./nearName";

const log = Logger.scope("Leaderboards");

/** A value as an error or warning names it: strings quoted, the rest as tostring writes them. */
export function shown(value: unknown): string {
	return typeIs(value, "string") ? `"${value}"` : tostring(value);
}

/**
 * Warnings shown once per kind (a game's input: once per board and kind), so a problem that repeats
 * every frame or every read is named once instead of flooding the output.
 */
export class Warnings {
	private readonly shown = new Set<string>();

	/** Warns `message` the first time `kind` comes, and not again until again(kind). */
	first(kind: string, message: string) {
		if (this.shown.has(kind)) return;
		this.shown.add(kind);
		log.warn(message);
	}

	/** What `kind` named is over (MemoryStore answers again): its next occurrence warns. */
	again(kind: string) {
		this.shown.delete(kind);
	}

	/** Warns `board: message; this warning shows once per board`, the first time board and kind meet. */
	once(board: string, kind: string, message: string) {
		// kind first: a board name may hold any character (and "\0" would cut an interpolated string short).
		this.first(`${kind}\n${board}`, `${board}: ${message}; this warning shows once per board`);
	}

	/**
	 * The board a call names. An unknown board (a typo, nil) is refused by each
	 * call as documented ({}, nil or false), never raised: this warns once per
	 * name and call, naming the board it likely meant and listing the boards.
	 */
	boardOf(settings: Settings, call: string, board: unknown): Board | undefined {
		const config = typeIs(board, "string") ? settings.boards.get(board) : undefined;
		if (!config) {
			const near = typeIs(board, "string") ? nearName(board, settings.boardNames) : undefined;
			const guess = near !== undefined ? `: did you mean ${shown(near)}?` : "";
			this.once(
				shown(board),
				`unknown board ${call}`,
				`${call}() names no board${guess} (the boards: ${settings.boardNames.join(", ")})`,
			);
		}
		return config;
	}
}
