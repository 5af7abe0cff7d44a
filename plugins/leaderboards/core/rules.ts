import { Board, Codec, MergeRule, PendingWrite } from "../contracts";
import { MAX_EXACT_INTEGER } from "./merge/rule";

// The domain rules, each in exactly one place: every stage (and a game's own
// stage) resolves keys, validates values and keeps the best through these.

/** The UserId a key stands for: a positive whole number written the way tostring writes it; else undefined. */
export function userIdOf(key: unknown): number | undefined {
	if (!typeIs(key, "string")) return undefined;
	const id = tonumber(key);
	return id !== undefined && id > 0 && id % 1 === 0 && tostring(id) === key ? id : undefined;
}

/** A subject's storage key, or why it has none. */
export type SubjectKey = LuaTuple<[key: string, refusal: undefined]> | LuaTuple<[key: undefined, refusal: string]>;

const playerOf = (session: object) => (session as { Player?: unknown }).Player;

// A key from a value whose metatable defines __tostring (a game's own id type); never throws.
function ownKey(subject: object): SubjectKey {
	const meta = getmetatable(subject);
	if (!typeIs(meta, "table") || (meta as { __tostring?: unknown }).__tostring === undefined)
		return $tuple(
			undefined,
			typeIs(subject, "table") ? "a table with no Player and no __tostring" : "a userdata with no __tostring",
		);
	const [ok, key] = pcall(tostring, subject);
	if (!ok) return $tuple(undefined, "a value whose __tostring errors");
	return $tuple(key, undefined);
}

// A User of this game is its Id's key, the key its Player gets (players/users.md: "use user.Id" for data
// store keys in one game); another domain's ids (an OAuth app's) name nobody here.
function userKey(user: User): SubjectKey {
	if (user.DomainType !== Enum.DomainType.EXPERIENCE)
		return $tuple(undefined, `a User of another domain (${user.DomainType.Name}), not this game's`);
	return $tuple(tostring(user.Id), undefined);
}

/**
 * The one subject rule: what submit, scores and every stage that names a
 * subject accept. A Player is its UserId string, a User of this game
 * (player.User) its Id's, a session (a table with a
 * Player field) its player's, a string itself, a whole number within ±2^53
 * its digits, and a table or userdata whose metatable defines __tostring what
 * that returns. Anything else (nil, booleans, NaN, fractions, functions, other
 * Instances, a session with no Player, a plain table) has no key: the refusal
 * names its kind, the same text for every value of that kind. Never throws.
 */
export function subjectKey(subject: unknown): SubjectKey {
	if (typeIs(subject, "string")) return $tuple(subject, undefined);
	if (typeIs(subject, "Instance")) {
		if (subject.IsA("Player")) return $tuple(tostring(subject.UserId), undefined);
		return $tuple(undefined, `a ${subject.ClassName}, not a Player`);
	}
	if (typeIs(subject, "number")) {
		if (subject % 1 === 0 && math.abs(subject) <= MAX_EXACT_INTEGER)
			return $tuple(subject === 0 ? "0" : tostring(subject), undefined);
		if (subject !== subject) return $tuple(undefined, "a NaN number");
		if (math.abs(subject) === math.huge) return $tuple(undefined, "an infinite number");
		return $tuple(undefined, subject % 1 !== 0 ? "a fractional number" : "a number outside ±2^53");
	}
	if (typeIs(subject, "table")) {
		// pcall: a session class whose __index errors on a missing field must not make submit throw.
		const [ok, player] = pcall(playerOf, subject);
		if (ok && typeIs(player, "Instance") && player.IsA("Player")) return $tuple(tostring(player.UserId), undefined);
		return ownKey(subject);
	}
	if (typeIs(subject, "User")) return userKey(subject);
	if (typeIs(subject, "userdata")) return ownKey(subject as object);
	return $tuple(undefined, subject === undefined ? "nil" : `a ${typeOf(subject)}`);
}

/**
 * Why a value cannot be queued, or undefined when it can: within ±limit (2^53 unless a board's
 * encoding says otherwise; past it "outside ±2^53" or "outside the board's range").
 */
export function refuseValue(value: unknown, integersOnly: boolean, limit = MAX_EXACT_INTEGER): string | undefined {
	// The common case first, in one type check and a range (NaN and ±inf fall outside it).
	if (typeIs(value, "number") && value >= -limit && value <= limit && (!integersOnly || value % 1 === 0))
		return undefined;
	if (!typeIs(value, "number")) return "not a number";
	if (value !== value) return "NaN";
	if (value === math.huge || value === -math.huge) return "infinite";
	if (integersOnly && value % 1 !== 0) return "fractional";
	if (math.abs(value) > limit) return limit === MAX_EXACT_INTEGER ? "outside ±2^53" : "outside the board's range";
	return undefined;
}

/** Why a key cannot be stored, or undefined when it can. */
/** What a subject may be, as refusals name it. */
export const SUBJECTS =
	"a Player, this game's User, a session with a Player, a string, a whole number or a value with __tostring";

/** The subject's key, or why a store cannot hold it ("the subject is a boolean", "empty key"). */
export function storableKey(
	subject: unknown,
	maxKeyLength?: number,
): LuaTuple<[string | undefined, string | undefined]> {
	const [key, junk] = subjectKey(subject);
	if (junk !== undefined) return $tuple(undefined, `the subject is ${junk}`);
	const refusal = refuseKey(key!, maxKeyLength);
	return $tuple(refusal === undefined ? key : undefined, refusal);
}

export function refuseKey(key: string, maxKeyLength?: number): string | undefined {
	if (key === "") return "empty key";
	if (maxKeyLength !== undefined && key.size() > maxKeyLength) return `key longer than ${maxKeyLength} characters`;
	return undefined;
}

/** Where a write goes: the storage name it carries (its period's), else its board's name. */
export function storeOf(write: PendingWrite): string {
	return write.Store ?? write.Board;
}

/**
 * The UpdateAsync-shaped updater for a write: what the board's rule writes over
 * the stored value (nil: no write), and nil once the Flusher gave up on
 * `write` (Superseded). With a `codec` the store holds encoded numbers: the
 * stored one is decoded, the rule applied to game values, the result encoded.
 */
export function updaterFor(value: number, rule: MergeRule, write?: PendingWrite, codec?: Codec) {
	return (stored: number | undefined): number | undefined => {
		// Given up on: a later write of the key carries this value.
		if (write?.Superseded) return undefined;
		const old = stored === undefined || !codec ? stored : codec.decode(stored);
		const written = rule.write(old, value);
		const result = written === undefined || !codec ? written : codec.encode(written);
		// What the store holds (encoded) once this transform's write commits: the last run is the one that does.
		if (write) write.Stored = result ?? stored;
		return result;
	};
}

/**
 * One pending write through its board's backend, to the storage name it
 * carries: submit (a Sum board's only where the backend declares sums and
 * stores the values as they are), else set with the board's updater. submit
 * gets the encoded value: the rules it applies (keep-best, newest) hold on
 * encoded numbers too, since every encoding keeps order; a sum does not, so
 * an encoded Sum board writes through set. Returns what the backend returned.
 */
export function writeThrough(board: Board, write: PendingWrite): unknown {
	const name = storeOf(write);
	const store = board.Store;
	const backend = store.backend;
	const rule = board.Rule;
	const record = store.writeOf(write, rule);
	const codec = board.codecFor(write);
	// The design document's flags, then the rule itself (record.Rule) for a backend that reads it.
	if (store.submits(rule) && (codec === undefined || rule.Kind !== "Sum"))
		return backend.submit!(
			name,
			write.Key,
			codec ? codec.encode(write.Value) : write.Value,
			rule.Kind !== "KeepNewest",
			rule.Ascending,
			rule.Kind === "Sum",
			record,
		);
	const updater = updaterFor(write.Value, rule, write, codec);
	return backend.set!(name, write.Key, updater, record);
}

/**
 * Unix seconds to the millisecond: the time every server of the experience
 * shares (os.clock and the Clock option are each server's own), for what
 * servers compare with each other (a shared page's age, a record's announcement).
 */
export function experienceTime(): number {
	return DateTime.now().UnixTimestampMillis / 1000;
}

/** Whether a MemoryStore UpdateAsync failed because other servers kept writing the item (UpdateConflict). */
export function isUpdateConflict(problem: unknown): boolean {
	return typeIs(problem, "string") && problem.find("UpdateConflict")[0] !== undefined;
}
