// The client's entry (@rbxts/leaderboards/client, Leaderboards.Client in Luau): boards players see
// (docs/boards-players-see.md). Requires nothing of the server's library.
export { BoardsClient, LeaderboardsClient, RowsConnection, RowsObserver } from "./LeaderboardsClient";
export { ListBoard } from "./ListBoard";
export { MountOptions, MountedBoard } from "./options";
export { WorldBoard, WorldBoardOptions } from "./WorldBoard";
export { SentRow, SentStanding } from "../contracts/replication";
export { FormatOptions, SHORT_SUFFIXES, format } from "../format";
