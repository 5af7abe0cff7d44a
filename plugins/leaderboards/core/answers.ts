import { isBetter } from "./merge/rule";
import { BackendRange, BackendRow } from "../contracts";

// The boundary: what a backend answers, checked before a player sees it. A
// game's own backend may return anything; a wrong answer is a failed read, junk
// rows are dropped, and rows out of the board's order are ranked again, each
// with one warning (`warn(kind, message)`: once per board and kind).

/** How a check names what it is told of: warn(kind, message). */
export type AnswerWarning = (kind: string, message: string) => void;

const isRow = (row: unknown): row is BackendRow => {
	if (!typeIs(row, "table")) return false;
	const { Key, Value } = row as { Key?: unknown; Value?: unknown };
	return typeIs(Key, "string") && typeIs(Value, "number") && Value === Value && math.abs(Value) !== math.huge;
};

// The rows that are rows, each { Key, Value } afresh.
function usable(rows: ReadonlyArray<unknown>, dropped: () => void): BackendRow[] {
	const kept = new Array<BackendRow>(rows.size());
	for (const row of rows) {
		if (isRow(row)) kept.push({ Key: row.Key, Value: row.Value });
		else dropped();
	}
	return kept;
}

// Rows in `ascending` order (best first), sorted again when they are not: the one order a player sees.
function ordered(rows: BackendRow[], ascending: boolean, misordered: () => void): BackendRow[] {
	let sorted = true;
	for (let i = 1; i < rows.size(); i++) if (isBetter(rows[i].Value, rows[i - 1].Value, ascending)) sorted = false;
	if (sorted) return rows;
	misordered();
	// Stable: ties keep the backend's order.
	const at = new Map<BackendRow, number>();
	rows.forEach((row, i) => at.set(row, i));
	rows.sort((a, b) => (a.Value !== b.Value ? isBetter(a.Value, b.Value, ascending) : at.get(a)! < at.get(b)!));
	return rows;
}

const described = (answer: unknown) => (answer === undefined ? "nil" : `a ${typeOf(answer)}`);

/** sorted()'s answer: a ranked page, or undefined (a failed read: nil, or not a list). */
export function rowsOf(answer: unknown, ascending: boolean, warn: AnswerWarning): BackendRow[] | undefined {
	if (answer === undefined) return undefined;
	if (!typeIs(answer, "table")) {
		warn("sorted", `top() got ${described(answer)} from the backend's sorted(), not a list of rows; a failed read`);
		return undefined;
	}
	const rows = usable(answer as unknown[], () =>
		warn(
			"row",
			"top() dropped a row from the backend's sorted() with a Key that is not a string or a Value that is not a number",
		),
	);
	return ordered(rows, ascending, () =>
		warn("order", "top() got rows out of the board's order from the backend's sorted(); ranked by value"),
	);
}

/** scores()'s answer: { [key] = value } of finite numbers, or undefined (a failed read: nil, or not a table). */
export function valuesOf(answer: unknown, warn: AnswerWarning): Map<string, number> | undefined {
	if (answer === undefined) return undefined;
	if (!typeIs(answer, "table")) {
		warn(
			"scores",
			`scores() got ${described(answer)} from the backend's scores(), not a table of values; a failed read`,
		);
		return undefined;
	}
	const values = new Map<string, number>();
	for (const [key, value] of pairs(answer)) {
		if (isRow({ Key: key, Value: value })) values.set(key as string, value as number);
		else
			warn(
				"value",
				"scores() dropped an answer of the backend's scores() whose key is not a string or whose value is not a number",
			);
	}
	return values;
}

/** around()'s answer: Ahead nearest first, Behind best first, or undefined (a failed read). */
export function rangeOf(answer: unknown, ascending: boolean, warn: AnswerWarning): BackendRange | undefined {
	if (answer === undefined) return undefined;
	const range = answer as { Ahead?: unknown; Behind?: unknown };
	if (!typeIs(answer, "table") || !typeIs(range.Ahead, "table") || !typeIs(range.Behind, "table")) {
		warn(
			"around",
			`around() got ${described(answer)} from the backend's around(), not { Ahead, Behind }; a failed read`,
		);
		return undefined;
	}
	const dropped = () =>
		warn(
			"around row",
			"around() dropped a row from the backend's around() with a Key that is not a string or a Value that is not a number",
		);
	const misordered = () =>
		warn("around order", "around() got rows out of the board's order from the backend's around(); ranked by value");
	return {
		// Nearest first: the board's order reversed.
		Ahead: ordered(usable(range.Ahead as unknown[], dropped), !ascending, misordered),
		Behind: ordered(usable(range.Behind as unknown[], dropped), ascending, misordered),
	};
}
