import { Logger } from "../../../kernel";
import { PendingWrite, StageContext, Topics } from "../contracts";
import { storeOf, writeThrough } from "./rules";
import { isThrottle } from "./store";

const log = Logger.scope("Leaderboards");

/**
 * One queued write carried to its board's store with every promise a Flusher keeps to the other stages
 * (docs/extending.md, "The contracts and what they owe"): the default Flusher's writes and a game's own
 * Flusher's both go through it. send() makes the backend calls; settle() then counts the write in Stats
 * and tells the Queue and the Herald how it went. Stage API 2.1.
 */
export class StoreWrite {
	/** The removal this write carried landed (only the value after it goes back to the queue on a failure). */
	removed = false;
	/** The store refused the write for its request budget (a Flusher's lastThrottled() counts these). */
	throttled = false;

	constructor(
		private readonly context: StageContext,
		/** The write the Queue handed out (Queue.take). */
		readonly write: PendingWrite,
	) {}

	/**
	 * Yields. The write's backend calls: a Reset board's period noted in the manifest before its first
	 * value there (`manifest.note`: erase() finds it), a removal first (publishing Leaderboard.Removed), then
	 * Leaderboard.Recording for a value that entered a visible top (the Herald may announce it now), then
	 * the value in the board's rule and encoding (`writeThrough`). True when it landed; a backend that
	 * errors is a failed write (`throttled` when the store refused it for its budget).
	 */
	send(): boolean {
		const { settings, kernel, manifest } = this.context;
		const write = this.write;
		const board = settings.boards.get(write.Board)!;
		const [ok, result] = pcall(() => {
			if (write.Remove !== "only" && !manifest.note(board, storeOf(write))) return false;
			if (write.Remove) {
				if (board.Store.remove(storeOf(write), write.Key) !== true) return false;
				this.removed = true;
				kernel.Bus.publish(Topics.Removed, write.Board, write.Key);
				if (write.Remove === "only") return true;
			}
			// A record's write goes out: the Herald announces a keep-best one now, its value as encoded and read back.
			if (write.Record) {
				const codec = board.codecFor(write);
				const value = codec ? codec.decode(codec.encode(write.Value)) : write.Value;
				kernel.Bus.publish(Topics.Recording, write.Board, write.Key, value, board.periodOf(storeOf(write)));
			}
			return writeThrough(board, write);
		});
		if (!ok) log.debug(`write ${storeOf(write)} ${write.Key} errored: ${result}`);
		if (!ok && isThrottle(result)) this.throttled = true;
		return ok && result === true;
	}

	/**
	 * How the write went, once send() returned or was given up on (`returned` false: its call may still
	 * land). Landed: Stats.Written, Leaderboard.Settled (the Queue hands the key out again) and, for a
	 * value that entered a visible top, Leaderboard.Record (the Herald tells the other servers). Failed:
	 * Stats.Failed, Leaderboard.WriteFailed with what goes back to the queue (the value alone after a
	 * landed removal; `draining`: never dropped) and Leaderboard.Settled, unless the call has not returned
	 * (the Flusher settles the key when it does). Returns what went back; undefined when it landed.
	 */
	settle(landed: boolean, draining: boolean, returned = true): PendingWrite | undefined {
		const { stats, settings, kernel } = this.context;
		const write = this.write;
		if (landed) {
			stats.Written += 1;
			kernel.Bus.publish(Topics.Settled, write, true);
			if (!write.Record || write.Stored === undefined) return undefined;
			const board = settings.boards.get(write.Board)!;
			// Stored is as the store holds it: the game's number is its decoding.
			const value = board.codecFor(write)?.decode(write.Stored) ?? write.Stored;
			kernel.Bus.publish(Topics.Record, write.Board, write.Key, value, board.periodOf(storeOf(write)));
			return undefined;
		}
		const restored = this.removed ? { ...write, Remove: undefined } : write;
		stats.Failed += 1;
		kernel.Bus.publish(Topics.WriteFailed, restored, draining);
		if (returned) kernel.Bus.publish(Topics.Settled, restored, false);
		return restored;
	}
}
