// What the Replicator stage and its clients say to each other on ReplicatedStorage.Leaderboards.Pages
// (docs/boards-players-see.md): the server's messages, the one a client may send, and the rows.

/** The folder the server makes in ReplicatedStorage, and the RemoteEvent in it. */
export const REPLICATION_FOLDER = "Leaderboards";
export const REPLICATION_EVENT = "Pages";

/** A client to the server: its handler is connected (the only message a client may send). */
export const READY = "Ready";
/**
 * The server to a client: one string a message (a fire may hold several), its kind's letter, the
 * board's slot (its place among the replicated boards; a PAGE adds FIELD and the board's name, and a
 * client that said ready gets every board's page first), then parts after each PART: PAGE (the page from nothing) and ROWS (a delta) hold the ops, each a row's place, key and
 * value after each FIELD, with both names only when the key enters the client's page or its names
 * changed (NONE for a name not known); a part without a FIELD is the page's new row count, sent when it
 * changed. A client applies an op by taking the key out of its page and putting it at the place; ranks
 * are the places. STANDING holds the value and the rank (NONE where unknown). Text, not tables: a
 * table's keys travel too (spec/gate/README.md, "Clients").
 */
export const PAGE = "P";
export const ROWS = "R";
export const STANDING = "S";
export const PART = "|";
export const FIELD = ",";
export const NONE = "~";
/** In a key, name or board, PART, FIELD, NONE and ESCAPE travel as ESCAPE and their two hex digits. */
export const ESCAPE = "%";

/** A row as clients get it: the entry's rank, key, value and names, nothing else. */
export interface SentRow {
	Rank: number;
	Key: string;
	Value: number;
	DisplayName?: string;
	Username?: string;
}

/** A player's own standing as that player gets it: Value and Rank where the board's page holds them. */
export interface SentStanding {
	Value?: number;
	Rank?: number;
}
