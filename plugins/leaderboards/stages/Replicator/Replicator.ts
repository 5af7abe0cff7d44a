import { Players, ReplicatedStorage } from "@rbxts/services";
import { Priority, sleep } from "../../../../kernel";
import {
	Entry,
	READY,
	REPLICATION_EVENT,
	REPLICATION_FOLDER,
	ROWS,
	ReplicatorStage,
	SentRow,
	StageContext,
	Topics,
} from "../../contracts";
import { periodAt, storableKey } from "../../core";
import { rowsOf, standingOn } from "./rows";
import { deltaOf, messageOf, pageMessage, standingMessage } from "./wire";

/** One board's rows go to clients at most once in this long; the Updated between wait for the next send. */
export const SEND_SECONDS = 1;
/** A client's ready signal is answered at most once in this long; more are ignored and counted (a flood). */
export const READY_SECONDS = 1;

interface Shown {
	entries: ReadonlyArray<Entry>;
	rows: SentRow[];
	sentAt: number;
	waiting: boolean;
}

/**
 * Boards players see. The top `Replicate.Rows` rows of each board with Replicate, with names, go to
 * every client through one RemoteEvent (ReplicatedStorage.Leaderboards.Pages): the whole page when a
 * client says it is ready, then on each Leaderboard.Updated of the current period only the rows that
 * changed, at most once a second a board; each player's own standing (Value and Rank where the board's
 * page holds them) goes to that player only, when it changes. A RemoteEvent, not an
 * UnreliableRemoteEvent: a change is sent once, as a delta (stages/Replicator/wire.ts), so a lost or
 * reordered one would stay wrong on the client until it said ready again. Clients
 * send nothing but the ready signal: anything else, and a ready within READY_SECONDS of the last, is
 * ignored and counted (ignored(), and the folder's Ignored attribute). Clients cause no store reads.
 */
export class Replicator implements ReplicatorStage {
	readonly Name = "Leaderboards.Replicator";
	private folder?: Folder;
	private remote?: RemoteEvent;
	private readonly connections = new Array<RBXScriptConnection>();
	private readonly shown = new Map<string, Shown>();
	// Each replicated board's slot, its place in the settings' order: messages name a board by it.
	private readonly slots = new Map<string, string>();
	private readonly ready = new Map<Player, number>();
	private readonly standings = new Map<Player, Map<string, string>>();
	private ignoredCount = 0;
	// Sends waiting out SEND_SECONDS: stop() cancels them.
	private readonly pauses = new Set<Promise<void>>();

	constructor(private readonly context: StageContext) {
		context.kernel.Bus.subscribe(Topics.Updated, (_, board, entries, period) =>
			this.updated(board, entries, period),
		);
	}

	start() {
		const boards = this.replicated();
		if (boards.isEmpty()) return;
		boards.forEach((board, index) => this.slots.set(board, tostring(index + 1)));
		const folder = new Instance("Folder");
		folder.Name = REPLICATION_FOLDER;
		const remote = new Instance("RemoteEvent");
		remote.Name = REPLICATION_EVENT;
		remote.Parent = folder;
		folder.SetAttribute("Ignored", 0);
		folder.Parent = ReplicatedStorage;
		this.folder = folder;
		this.remote = remote;
		this.connections.push(remote.OnServerEvent.Connect((player, ...args) => this.heard(player, args)));
		this.connections.push(
			Players.PlayerRemoving.Connect((player) => {
				this.ready.delete(player);
				this.standings.delete(player);
			}),
		);
		// The first page of each board, read once here: no client's signal ever reads the store.
		for (const board of boards) task.spawn(() => this.context.stages.Reader.top(board));
	}

	stop() {
		for (const pause of this.pauses) pause.cancel();
		this.pauses.clear();
		for (const connection of this.connections) connection.Disconnect();
		this.connections.clear();
		this.folder?.Destroy();
		this.folder = undefined;
		this.remote = undefined;
	}

	ignored() {
		return this.ignoredCount;
	}

	private replicated(): string[] {
		const names = new Array<string>();
		for (const name of this.context.settings.boardNames)
			if (this.context.settings.boards.get(name)!.Replicate) names.push(name);
		return names;
	}

	private heard(player: Player, args: unknown[]) {
		const now = this.context.settings.clock();
		const last = this.ready.get(player);
		if (args.size() !== 1 || args[0] !== READY || (last !== undefined && now - last < READY_SECONDS)) {
			this.ignoredCount += 1;
			this.folder?.SetAttribute("Ignored", this.ignoredCount);
			return;
		}
		this.ready.set(player, now);
		const messages = new Array<string>();
		// Every board's page, empty before its first Updated, so the client knows each slot's board.
		for (const [board, slot] of this.slots) {
			const shown = this.shown.get(board);
			messages.push(pageMessage(slot, board, shown?.rows ?? []));
			const standing = shown && this.changedStanding(player, board, shown.entries);
			if (standing !== undefined) messages.push(standing);
		}
		if (!messages.isEmpty()) this.remote?.FireClient(player, ...messages);
	}

	private updated(board: string, entries: ReadonlyArray<Entry>, period: string | undefined) {
		const config = this.context.settings.boards.get(board);
		if (!config?.Replicate || this.remote === undefined) return;
		if (config.Period && period !== periodAt(config.Period, this.context.settings.unixTime()).Id) return;
		const shown = this.shown.get(board) ?? { entries, rows: [], sentAt: -math.huge, waiting: false };
		shown.entries = entries;
		this.shown.set(board, shown);
		if (shown.waiting) return;
		shown.waiting = true;
		task.spawn(() => {
			const wait = shown.sentAt + SEND_SECONDS - this.context.settings.clock();
			if (wait > 0) {
				const pause = sleep(this.context.kernel.Scheduler, wait, Priority.Normal);
				this.pauses.add(pause);
				const [waited] = pause.await();
				this.pauses.delete(pause);
				if (!waited) return;
			}
			shown.sentAt = this.context.settings.clock();
			this.send(board, shown, config.Replicate!.Rows);
			shown.waiting = false;
		});
	}

	// The rows that changed to every ready client, and each one's standing where it changed: one fire a
	// client (a community measurement puts about 9 bytes on each: docs/boards-players-see.md, "Bandwidth").
	private send(board: string, shown: Shown, count: number) {
		const top = new Array<Entry>();
		for (let i = 0; i < math.min(count, shown.entries.size()); i++) top.push({ ...shown.entries[i] });
		const rows = rowsOf(this.context.stages.NameResolver.names(top), count);
		const parts = deltaOf(shown.rows, rows);
		const delta = parts.size() > 0 ? messageOf(ROWS, this.slots.get(board)!, parts) : undefined;
		shown.rows = rows;
		for (const [player] of this.ready) {
			const standing = this.changedStanding(player, board, shown.entries);
			if (delta !== undefined && standing !== undefined) this.remote?.FireClient(player, delta, standing);
			else if (delta !== undefined || standing !== undefined)
				this.remote?.FireClient(player, (delta ?? standing)!);
		}
	}

	// The player's standing message when it differs from the last one sent, remembered as sent.
	private changedStanding(player: Player, board: string, entries: ReadonlyArray<Entry>): string | undefined {
		const [key] = storableKey(player);
		if (key === undefined) return undefined;
		const text = standingMessage(this.slots.get(board)!, standingOn(entries, key));
		const sent = this.standings.get(player) ?? new Map<string, string>();
		this.standings.set(player, sent);
		if (sent.get(board) === text) return undefined;
		sent.set(board, text);
		return text;
	}
}
