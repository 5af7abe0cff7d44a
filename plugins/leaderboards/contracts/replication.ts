// What the Replicator stage and its clients say to each other on ReplicatedStorage.Leaderboards.Pages
// (docs/boards-players-see.md): the server's messages, the one a client may send, and the rows.

/** The folder the server makes in ReplicatedStorage, and the RemoteEvent in it. */
export const REPLICATION_FOLDER = "Leaderboards";
export const REPLICATION_EVENT = "Pages";

/** A client to the server: its handler is connected (the only message a client may send). */
export const READY = "Ready";
/** The server to a client: (PAGE, board, rows), (ROWS, board, count, changes), (STANDING, board, standing). */
export const PAGE = "Page";
export const ROWS = "Rows";
export const STANDING = "Standing";

/** A row as clients get it: the entry's rank, key, value and names, nothing else. */
export interface SentRow {
	Rank: number;
	Key: string;
	Value: number;
	DisplayName?: string;
	Username?: string;
}

/** A changed row and its place on the page (1-based): a delta is a list of them. */
export type RowChange = [place: number, row: SentRow];

/** A player's own standing as that player gets it: Value and Rank where the board's page holds them. */
export interface SentStanding {
	Value?: number;
	Rank?: number;
}
