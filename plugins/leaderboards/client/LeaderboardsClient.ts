// The client's side of boards players see (docs/boards-players-see.md): the rows and the player's own
// standing of every board with Replicate, as the Replicator stage sends them. Requires nothing of the
// server's library: a LocalScript requires this module alone.
import { ReplicatedStorage } from "@rbxts/services";
import {
	PAGE,
	READY,
	REPLICATION_EVENT,
	REPLICATION_FOLDER,
	ROWS,
	STANDING,
	SentRow,
	SentStanding,
} from "../contracts/replication";
import { messageParts, pageAfter, standingOf } from "./wire";

/** Called with a board's rows: at once with what the client holds, then on each change. */
export type RowsObserver = (rows: SentRow[]) => void;

/** What observe() hands back (Luau: connection:Disconnect(), with a colon). */
export interface RowsConnection {
	/** Stops the observer: fn is called no more. Safe to call twice. */
	Disconnect(): void;
}

/** Boards players see, on the client. B: the board names, as on the server (typed in roblox-ts). */
export interface BoardsClient<B extends string = string> {
	/** fn(rows) now (on its own thread) and after each change of the board's rows; Disconnect stops it. */
	readonly observe: (board: B, fn: RowsObserver) => RowsConnection;
	/** The board's rows as the client holds them (a copy): empty until the first page arrives. */
	readonly rows: (board: B) => SentRow[];
	/** The player's own standing on the board: Value and Rank where the board's page holds them; nil before the first. */
	readonly standing: (board: B) => SentStanding | undefined;
}

const pages = new Map<string, SentRow[]>();
const standings = new Map<string, SentStanding>();
// Each slot's board, as the pages name them.
const slots = new Map<string, string>();
const observers = new Map<string, Set<RowsObserver>>();
let listening = false;

function changed(board: string) {
	const watching = observers.get(board);
	if (watching) for (const observer of watching) task.spawn(observer, [...(pages.get(board) ?? [])]);
}

// A fire holds one message or more (a board's delta and the player's standing go together).
function heard(...messages: unknown[]) {
	for (const message of messages) {
		const heard = messageParts(message, slots);
		if (heard === undefined) continue;
		const { kind, board, parts } = heard;
		if (kind === PAGE || kind === ROWS) {
			pages.set(board, pageAfter(kind === PAGE ? [] : (pages.get(board) ?? []), parts));
			changed(board);
		} else if (kind === STANDING) {
			standings.set(board, standingOf(parts));
		}
	}
}

// The first call connects and says ready; the server answers with every replicated board's page.
function listen() {
	if (listening) return;
	listening = true;
	task.spawn(() => {
		const folder = ReplicatedStorage.WaitForChild(REPLICATION_FOLDER);
		const remote = folder.WaitForChild(REPLICATION_EVENT) as RemoteEvent;
		remote.OnClientEvent.Connect(heard);
		remote.FireServer(READY);
	});
}

function checkBoard(method: string, board: unknown) {
	if (!typeIs(board, "string")) error(`LeaderboardsClient.${method}: board must be a board's name (got ${board})`, 3);
}

/** The one client of the boards (Luau: LeaderboardsClient.observe(board, fn), with a dot). */
export const LeaderboardsClient: BoardsClient = {
	observe: (board, fn) => {
		checkBoard("observe", board);
		if (!typeIs(fn, "function")) error(`LeaderboardsClient.observe: fn must be a function (got ${fn})`, 2);
		listen();
		const set = observers.get(board) ?? new Set<RowsObserver>();
		observers.set(board, set);
		set.add(fn);
		task.spawn(fn, [...(pages.get(board) ?? [])]);
		return {
			Disconnect() {
				set.delete(fn);
			},
		};
	},
	rows: (board) => {
		checkBoard("rows", board);
		listen();
		return [...(pages.get(board) ?? [])];
	},
	standing: (board) => {
		checkBoard("standing", board);
		listen();
		return standings.get(board);
	},
};
