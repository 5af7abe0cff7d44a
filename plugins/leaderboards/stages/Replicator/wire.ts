import { ESCAPE, FIELD, NONE, PAGE, PART, SentRow, SentStanding, STANDING } from "../../contracts";

// The characters that carry meaning in a message, as a Lua pattern's set.
const SPECIAL = `[%${ESCAPE}%${PART}%${FIELD}%${NONE}]`;

/** A key, name or board as it travels: its special characters escaped (contracts/replication.ts). */
function textOf(text: string): string {
	return text.gsub(SPECIAL, (found: string) => string.format("%s%02X", ESCAPE, found.byte()[0]))[0];
}

/** A number in its shortest text that reads back exactly. */
function numberText(value: number): string {
	const text = tostring(value);
	return tonumber(text) === value ? text : string.format("%.17g", value);
}

function nameText(name: string | undefined): string {
	return name === undefined ? NONE : textOf(name);
}

const sameNames = (a: SentRow, b: SentRow) => a.DisplayName === b.DisplayName && a.Username === b.Username;

/**
 * The ops that turn the page `before` into `after` on a client: a row whose key and value already sit
 * at its place costs nothing, any other is put at its place (its names only when new to the page or
 * changed), and the row count follows when it changed. Ranks are places: the top rows of a page are
 * ranked by their order.
 */
export function deltaOf(before: ReadonlyArray<SentRow>, after: ReadonlyArray<SentRow>): string[] {
	const parts = new Array<string>();
	if (after.size() !== before.size()) parts.push(tostring(after.size()));
	const held = [...before];
	after.forEach((row, index) => {
		const there = held[index];
		if (there !== undefined && there.Key === row.Key && there.Value === row.Value && sameNames(there, row)) return;
		const at = held.findIndex((each) => each.Key === row.Key);
		const old = at >= 0 ? held.remove(at) : undefined;
		held.insert(index, row);
		const fields = [tostring(index + 1), textOf(row.Key), numberText(row.Value)];
		if (old === undefined || !sameNames(old, row)) fields.push(nameText(row.DisplayName), nameText(row.Username));
		parts.push(fields.join(FIELD));
	});
	return parts;
}

/** One message: its kind, the board's slot (its place among the replicated boards) and its parts. */
export function messageOf(kind: string, slot: string, parts: ReadonlyArray<string>): string {
	let text = kind + slot;
	for (const part of parts) text += PART + part;
	return text;
}

/** A board's whole page, which also names the board its slot stands for. */
export function pageMessage(slot: string, board: string, rows: ReadonlyArray<SentRow>): string {
	return messageOf(PAGE, slot + FIELD + textOf(board), deltaOf([], rows));
}

/** A player's standing as its message. */
export function standingMessage(slot: string, standing: SentStanding): string {
	const value = standing.Value !== undefined ? numberText(standing.Value) : NONE;
	return messageOf(STANDING, slot, [value, standing.Rank !== undefined ? tostring(standing.Rank) : NONE]);
}
