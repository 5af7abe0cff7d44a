import { Removals, Subject } from "../../contracts";
import { refuseKey, refuseValue, subjectKey, SUBJECTS } from "../../core";
import { boundRefusal, VALUE_REFUSALS } from "./admission";
import { BoardQueue } from "./BoardQueue";

/** Why a board refused a submit: the reason Leaderboard.Refused carries and what the warning says. */
export interface Refusal {
	readonly key?: string;
	readonly reason: string;
	readonly message: string;
}

/**
 * Every check a submit makes, in order, for a value off the common case: the subject's key, or the
 * first refusal (the value, the subject, an erasure under way, the rule, a new key's length, the
 * board's bounds, which are told of the value they accept).
 */
export function admit(queue: BoardQueue, subject: Subject, value: unknown, removals: Removals): string | Refusal {
	const config = queue.board;
	const [key, junk] = subjectKey(subject);
	const refusal = refuseValue(value, config.Encoding.Integers, config.Encoding.Limit);
	if (refusal !== undefined) return { key, reason: refusal, message: VALUE_REFUSALS[refusal](value, config) };
	if (key === undefined)
		return { reason: `the subject is ${junk}`, message: `the subject is ${junk} (submit ${SUBJECTS})` };
	// An erasure under way: a value written now would put back what it removes.
	if (removals.isErasing(key)) return { key, reason: "erasing", message: "the key is being erased (erase())" };
	const ruled = config.Rule.refuse?.(value as number);
	if (ruled) return { key, reason: ruled.reason, message: `${ruled.reason} (${ruled.advice})` };
	const seq = queue.slots.get(key);
	// Checked once, when the key first queues.
	const keyRefusal = seq !== undefined ? undefined : refuseKey(key, config.Store.maxKeyLength);
	if (keyRefusal !== undefined)
		return { key, reason: keyRefusal, message: `${keyRefusal} (the store cannot hold such a key)` };
	const bounds = queue.bounds;
	if (!bounds) return key;
	const state = seq !== undefined ? queue.states.get(seq) : undefined;
	const previous = seq === undefined || state?.remove === "only" ? undefined : queue.values.get(key);
	const bounded = bounds.refuse(key, value as number, previous);
	if (bounded !== undefined) return { key, reason: bounded, message: boundRefusal(bounded, value as number, config) };
	bounds.accepted(key, value as number);
	return key;
}
