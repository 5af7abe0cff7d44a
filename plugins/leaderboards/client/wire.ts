// The Replicator's messages read back (contracts/replication.ts): a page's rows after a PAGE or ROWS
// message, a standing from a STANDING one.
import { FIELD, NONE, PAGE, PART, SentRow, SentStanding } from "../contracts/replication";

const unescaped = (text: string) => text.gsub("%%(%x%x)", (hex: string) => string.char(tonumber(hex, 16)!))[0];

const nameOf = (text: string | undefined) => (text === undefined || text === NONE ? undefined : unescaped(text));

/**
 * A message's kind, board and parts; undefined for anything else. `boards` holds each slot's board:
 * a page names its board, and the messages after it give the slot alone.
 */
export function messageParts(
	message: unknown,
	boards: Map<string, string>,
): { kind: string; board: string; parts: string[] } | undefined {
	if (!typeIs(message, "string") || message.size() < 2) return undefined;
	const parts = message.split(PART);
	const head = parts.shift()!;
	const kind = head.sub(1, 1);
	let slot = head.sub(2);
	if (kind === PAGE) {
		const [named, board] = slot.split(FIELD);
		if (board === undefined) return undefined;
		slot = named;
		boards.set(slot, unescaped(board));
	}
	const board = boards.get(slot);
	return board !== undefined ? { kind, board, parts } : undefined;
}

/** `page` after a message's ops: each key taken out and put at its place, cut to the count, ranked by place. */
export function pageAfter(page: ReadonlyArray<SentRow>, parts: ReadonlyArray<string>): SentRow[] {
	const rows = [...page];
	let count = rows.size();
	for (const part of parts) {
		const fields = part.split(FIELD);
		if (fields.size() === 1) {
			count = tonumber(part) ?? count;
			continue;
		}
		const key = unescaped(fields[1]);
		const at = rows.findIndex((row) => row.Key === key);
		const held = at >= 0 ? rows.remove(at) : undefined;
		const named = fields.size() >= 5;
		const place = math.clamp(tonumber(fields[0]) ?? 1, 1, rows.size() + 1);
		rows.insert(place - 1, {
			Rank: place,
			Key: key,
			Value: tonumber(fields[2]) ?? 0,
			DisplayName: named ? nameOf(fields[3]) : held?.DisplayName,
			Username: named ? nameOf(fields[4]) : held?.Username,
		});
	}
	while (rows.size() > count) rows.pop();
	return rows.map((row, index) => ({ ...row, Rank: index + 1 }));
}

/** A STANDING message's parts as the standing. */
export function standingOf(parts: ReadonlyArray<string>): SentStanding {
	return { Value: tonumber(parts[0]), Rank: tonumber(parts[1]) };
}
