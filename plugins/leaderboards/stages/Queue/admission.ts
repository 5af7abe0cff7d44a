import { Board } from "../../contracts";
import { shown } from "../../core";

// What submit() says of each kind of value it refuses (refuseValue's reasons), naming the first one seen.
export const VALUE_REFUSALS: Record<string, (value: unknown, board: Board) => string> = {
	"not a number": (value) => `the value is not a number (got ${shown(value)}: submit a number)`,
	NaN: () => "the value is NaN (a division by zero upstream?)",
	infinite: (value) => `the value is ${value} (a division by zero upstream?)`,
	fractional: (_, board) =>
		board.TieBreak
			? "fractional (TieBreak stores whole numbers: scale fractions (times in milliseconds))"
			: "fractional (the store holds integers only: scale fractions (times in milliseconds))",
	"outside ±2^53": (value) =>
		`the value is outside ±2^53 (got ${value}: a double holds integers exactly only that far; Values = "Big" takes any finite number)`,
	"outside the board's range": (value, board) =>
		`the value is outside ±${board.Encoding.Limit} (got ${value}: TieBreak folds the time into the stored number, leaving this board that range)`,
};

/** What submit() says of a value a board's own bounds refuse. */
export function boundRefusal(reason: string, value: number, board: Board): string {
	if (reason === "below MinValue") return `the value is below MinValue (got ${value}, MinValue ${board.MinValue})`;
	if (reason === "above MaxValue") return `the value is above MaxValue (got ${value}, MaxValue ${board.MaxValue})`;
	if (reason === "over MaxAddedPerMinute")
		return `the key would add more than MaxAddedPerMinute (${board.MaxAddedPerMinute}) this minute (got ${value})`;
	return `Validate refused the value (${reason})`;
}

/**
 * What submit() checks of a value on one board, read once at attach: the encoding's range, the rule's
 * least value (a Sum board's 0) and MinValue/MaxValue folded into one range [low, high] (NaN and
 * ±inf fall outside it), whole numbers where the store holds integers only, and whether every value
 * within them is taken (`plain`: no bound that needs the key or the game's code, MaxAddedPerMinute or
 * Validate, and no rule refusal the range does not say). A value of a pending key that passes these
 * tests on a plain board is taken at once, in a few comparisons; any other goes through
 * every check in order, which names the refusal (Queue.admit).
 */
export interface Admission {
	readonly low: number;
	readonly high: number;
	readonly whole: boolean;
	readonly plain: boolean;
	/**
	 * A keep-best board's direction as a sign (1: the larger value is kept, -1: the smaller), so
	 * submit keeps the better of two values in one comparison, as the rule's merge would; 0 on a
	 * board whose rule merges otherwise (the newest, a sum: its merge is called).
	 */
	readonly better: number;
}

export function admissionOf(board: Board): Admission {
	const limit = board.Encoding.Limit;
	const rule = board.Rule;
	return {
		low: math.max(-limit, board.MinValue ?? -math.huge, rule.Least ?? -math.huge),
		high: math.min(limit, board.MaxValue ?? math.huge),
		whole: board.Encoding.Integers,
		plain:
			board.MaxAddedPerMinute === undefined &&
			board.Validate === undefined &&
			(rule.refuse === undefined || rule.Least !== undefined),
		better: rule.Kind !== "KeepBest" ? 0 : rule.Ascending ? -1 : 1,
	};
}
