import { Logger } from "../../../../kernel";
import { PendingWrite, StageContext, Topics } from "../../contracts";
import { isThrottle, storeOf, writeThrough } from "../../core";

const log = Logger.scope("Leaderboards");

// One write's backend calls: true when it landed. remove(): the stored value goes first (`removed`
// hears it), then what was submitted after it. A backend that errors is a failed write; `throttled`
// hears one the store refused for its request budget.
export function writeOnce(
	context: StageContext,
	write: PendingWrite,
	removed: () => void,
	throttled: () => void,
): boolean {
	const { settings, kernel } = context;
	const board = settings.boards.get(write.Board)!;
	const store = board.Store;
	const [ok, result] = pcall(() => {
		// A period's first value on this server waits until the manifest lists the period (erase() finds it).
		if (write.Remove !== "only" && !context.manifest.note(board, storeOf(write))) return false;
		if (write.Remove) {
			if (store.remove(storeOf(write), write.Key) !== true) return false;
			removed();
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
	if (!ok && isThrottle(result)) throttled();
	return ok && result === true;
}
