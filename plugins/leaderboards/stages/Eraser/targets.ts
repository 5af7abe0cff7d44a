import { Board, Manifest, Settings } from "../../contracts";
import { periodNamed } from "../../core";

/** A store a key may be in: its board, its storage name, its name in the manifest, and when its period ends. */
export interface Target {
	readonly board: Board;
	readonly storage: string;
	readonly name: string;
	/** Unix seconds its period ends; undefined on an all-time board. */
	readonly finish?: number;
}

/**
 * Yields. Every store this server's boards may hold a key in, in board and period order: an all-time
 * board's own, and each period a Reset board's periods:<Storage> lists (a period is listed before its
 * first value is written). undefined when a list could not be read.
 */
export function targetsOf(manifest: Manifest, settings: Settings): Target[] | undefined {
	const targets = new Array<Target>();
	for (const boardName of settings.boardNames) {
		const board = settings.boards.get(boardName)!;
		const rule = board.Period;
		if (!rule) {
			targets.push({ board, storage: board.storageFor(undefined), name: manifest.fullName(board) });
			continue;
		}
		const ids = manifest.periods(board);
		if (ids === undefined) return undefined;
		for (const id of ids)
			targets.push({
				board,
				storage: board.storageFor(id),
				name: manifest.fullName(board, id),
				finish: periodNamed(rule, id)?.Finish,
			});
	}
	return targets;
}

/** Targets by manifest name. */
export function byName(targets: Target[]): Map<string, Target> {
	const named = new Map<string, Target>();
	for (const target of targets) named.set(target.name, target);
	return named;
}
