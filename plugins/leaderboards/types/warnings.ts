import { Logger } from "../../../kernel";

const log = Logger.scope("Leaderboards");

/**
 * Warnings about a game's own input, shown once per board and kind so a bug
 * that repeats every frame is named once instead of flooding the output.
 */
export class Warnings {
	private readonly shown = new Set<string>();

	/** Warns `board: message; this warning shows once per board`, the first time board and kind meet. */
	once(board: string, kind: string, message: string) {
		// kind first: a board name may hold any character (and "\0" would cut an interpolated string short).
		const id = `${kind}\n${board}`;
		if (this.shown.has(id)) return;
		this.shown.add(id);
		log.warn(`${board}: ${message}; this warning shows once per board`);
	}
}
