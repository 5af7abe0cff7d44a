/** The largest integer a double holds exactly: 2^53. */
export const MAX_EXACT_INTEGER = 2 ** 53;

/** candidate ranks strictly better than current on a board ranked `ascending`. */
export function isBetter(candidate: number, current: number, ascending: boolean): boolean {
	return ascending ? candidate < current : candidate > current;
}

/** A sum that would leave ±limit stops there: ±2^53 by default, as far as a double counts exactly. */
export function sumOf(a: number, b: number, limit = MAX_EXACT_INTEGER): number {
	return math.clamp(a + b, -limit, limit);
}
