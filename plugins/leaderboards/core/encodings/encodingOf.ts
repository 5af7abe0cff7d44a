import { Encoding, PeriodRule, TieBreakRule, ValueKind } from "../../contracts";
import { big } from "./big";
import { earliest, TIE_SPANS } from "./earliest";
import { MAX_DOUBLE } from "./encoding";
import { plain } from "./plain";

/**
 * The encoding a board's options and its store name: a tie-break folds the time
 * in (its span the board's period's); Big is a code within ±2^53 on a store of
 * integers and the number itself on one that holds doubles; else the values as
 * they are.
 */
export function encodingOf(
	values: ValueKind,
	tieBreak: TieBreakRule | undefined,
	period: PeriodRule | undefined,
	ascending: boolean,
	integers: boolean,
): Encoding {
	if (tieBreak !== undefined) return earliest(ascending, TIE_SPANS[period?.Reset ?? "AllTime"]);
	if (values === "Big") return integers ? big : plain(false, MAX_DOUBLE, "Big");
	return plain(integers);
}
