// The demo's one client (docs/demo.md, "One client's board"): server 1 replicates its Kills board
// (BoardConfig.Replicate) and a spectator's client holds the rows, as a LocalScript's
// LeaderboardsClient would (docs/boards-players-see.md).
import type { Kernel } from "../../kernel";
import { Entry, LeaderboardOptions, Topics } from "../../plugins/leaderboards";
import type { SentRow } from "../../plugins/leaderboards/client";
import { GateServer } from "../../spec/gate/control";
import { clientEntry } from "../../spec/leaderboards/clientEntry";

/** The board the client holds, and the rows server 1 sends of it. */
export const CLIENT_BOARD = "Kills";
export const CLIENT_ROWS = 3;
// A board's rows go to clients at most once a second (the Replicator), then 0.1 s to the client.
const SETTLE_SECONDS = 1.2;
// Outside the players' pool (user ids from 10001), so the spectator never scores.
const SPECTATOR = 1;

/** What the client held at the end of play. */
export interface ClientBoard {
	/** The rows of CLIENT_BOARD as the client holds them. */
	rows: SentRow[];
	/** They are the top CLIENT_ROWS of the page server 1 published last (its last Leaderboard.Updated). */
	same: boolean;
	/** What the server sent the client over the run (the gate's estimate of remote event bytes). */
	received: number;
	events: number;
}

/** Server 1's options as its BoardService attaches: CLIENT_BOARD replicated, CLIENT_ROWS rows. */
export function replicated(options: LeaderboardOptions): LeaderboardOptions {
	const boards = { ...options.Boards };
	boards[CLIENT_BOARD] = { ...boards[CLIENT_BOARD], Replicate: { Rows: CLIENT_ROWS } };
	return { ...options, Boards: boards };
}

/**
 * A spectator joins `server` (whose kernel is `kernel`) with a client that holds CLIENT_BOARD's rows; the
 * returned function waits for the last change to arrive and reads what the client holds, against the
 * page the server published last.
 */
export function spectate(server: GateServer, kernel: Kernel): () => ClientBoard {
	let published: ReadonlyArray<Entry> = [];
	kernel.Bus.subscribe(Topics.Updated, (_, board, entries) => {
		if (board === CLIENT_BOARD) published = entries as ReadonlyArray<Entry>;
	});
	const client = server.connectClient({ UserId: SPECTATOR, Name: "spectator", DisplayName: "Spectator" });
	const { LeaderboardsClient } = clientEntry(client);
	LeaderboardsClient.rows(CLIENT_BOARD); // the first call connects and says ready
	return () => {
		task.wait(SETTLE_SECONDS);
		const rows = LeaderboardsClient.rows(CLIENT_BOARD);
		const stats = client.stats();
		const sent = published.filter((_, index) => index < CLIENT_ROWS);
		return {
			rows,
			same:
				rows.size() === sent.size() &&
				rows.every((row, index) => row.Key === sent[index].Key && row.Value === sent[index].Value),
			received: stats.received,
			events: stats.eventsReceived,
		};
	};
}
