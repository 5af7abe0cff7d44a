import { BackendRow } from "./backend";

/**
 * What a cached page shows first, as the Reader publishes it (Leaderboard.Visible) and the Queue keeps
 * it per board and storage name: its VisibleTop keys and values, every value on the page (a Sum
 * board's submit adds to it), and the value a newcomer must beat. Computed once a page changes, so a
 * submit asks it in O(1) without calling the Reader.
 */
export interface Visible {
	readonly top: ReadonlyMap<string, number>;
	readonly values: ReadonlyMap<string, number>;
	/** The last visible row; undefined while the page holds fewer rows than VisibleTop. */
	readonly last?: BackendRow;
}
