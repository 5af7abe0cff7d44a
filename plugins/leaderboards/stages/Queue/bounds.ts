import { Board } from "../../contracts";

/** Seconds in the window MaxAddedPerMinute counts over: a clock minute. */
export const MINUTE = 60;

/**
 * A board's own bounds on submitted values, checked after the library's:
 * MinValue, MaxValue, MaxAddedPerMinute (what one key added on this server in
 * the current minute of the attach's Clock; negative values add nothing) and
 * the game's Validate. O(1) per submit; the minute's counts go when it ends.
 */
export class Bounds {
	private minute = -math.huge;
	private readonly added = new Map<string, number>();

	constructor(
		private readonly board: Board,
		private readonly clock: () => number,
	) {}

	/** A board with no bound needs no Bounds. */
	static needed(board: Board): boolean {
		return (
			board.MinValue !== undefined ||
			board.MaxValue !== undefined ||
			board.MaxAddedPerMinute !== undefined ||
			board.Validate !== undefined
		);
	}

	/** Why `value` for `key` is refused ("below MinValue", Validate's reason, ...), or undefined; `previous` is what is queued. */
	refuse(key: string, value: number, previous: number | undefined): string | undefined {
		const { MinValue, MaxValue, MaxAddedPerMinute, Validate } = this.board;
		if (MinValue !== undefined && value < MinValue) return "below MinValue";
		if (MaxValue !== undefined && value > MaxValue) return "above MaxValue";
		if (MaxAddedPerMinute !== undefined && value > 0 && this.addedBy(key) + value > MaxAddedPerMinute)
			return "over MaxAddedPerMinute";
		if (Validate === undefined) return undefined;
		// A game's check that errors refuses the value: submit never throws into gameplay code.
		const [ok, verdict] = pcall(Validate, key, value, previous);
		if (!ok) return `Validate errored: ${verdict}`;
		if (verdict === true) return undefined;
		return typeIs(verdict, "string") ? verdict : `Validate returned ${tostring(verdict)}`;
	}

	/** An accepted value counts toward its key's minute. */
	accepted(key: string, value: number) {
		if (this.board.MaxAddedPerMinute === undefined || value <= 0) return;
		this.added.set(key, this.addedBy(key) + value);
	}

	// What the key added this minute; a new minute starts every count at 0.
	private addedBy(key: string): number {
		const minute = math.floor(this.clock() / MINUTE);
		if (minute !== this.minute) {
			this.minute = minute;
			this.added.clear();
		}
		return this.added.get(key) ?? 0;
	}
}
