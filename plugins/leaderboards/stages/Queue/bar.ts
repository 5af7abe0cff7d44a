import { Visible } from "../../contracts";

/**
 * Under what a direct submit on a keep-best board (`better` ≠ 0) enters no visible top: the last shown
 * value times `better`. A value and pending value both under it rank after that row and better no shown
 * value (each is at least the last: core/visible.ts enters); at or over it, the checked path asks
 * `enters`, ties and all. math.huge without a visible top; -math.huge where any value may enter (a top
 * not full, a sum or the newest value): such a board is not direct.
 */
export function barOf(better: number, visible: Visible | undefined): number {
	if (!visible) return math.huge;
	const last = visible.last;
	return better !== 0 && last ? last.Value * better : -math.huge;
}
