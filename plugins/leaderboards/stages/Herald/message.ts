import { HttpService } from "@rbxts/services";

/** MessagingService refuses a message over 1 kB as JSON (MessagingService reference, "Limitations"). */
export const MESSAGE_BYTES = 1024;

/** One announced record: [board, period id ("" on an all-time board), key, value as stored]. */
export type Announced = [board: string, period: string, key: string, value: number];

/**
 * What a records message carries: { v = 2, b = { { board, period, key, value, key, value... }... } },
 * the records grouped by board and period so a name is sent once (about 14 bytes a record where
 * a whole record took 26). A server still sending { v = 1, r = { Announced... } } is heard too.
 */
export interface RecordsMessage {
	v: 2;
	b: Array<Array<string | number>>;
}

// A board and period's group in a message: its records' names, sent once.
const groupId = (board: string, period: string) => `${board}\0${period}`;

/** How many of `records`, from the first, one message carries within MESSAGE_BYTES. */
export function fitting(records: ReadonlyArray<Announced>): number {
	let bytes = HttpService.JSONEncode({ v: 2, b: [] }).size();
	const groups = new Set<string>();
	for (let i = 0; i < records.size(); i++) {
		const [board, period, key, value] = records[i];
		const group = groupId(board, period);
		if (!groups.has(group)) {
			// A new group: its names, and a comma after the first group.
			bytes += HttpService.JSONEncode([board, period]).size() + (groups.isEmpty() ? 0 : 1);
			groups.add(group);
		}
		// ,"key",value inside its group's brackets.
		bytes += HttpService.JSONEncode([key, value]).size() - 1;
		if (bytes > MESSAGE_BYTES) return i;
	}
	return records.size();
}

/** The message for as many of `records` as fit (the rest show at the shared page's next refresh). */
export function messageOf(records: ReadonlyArray<Announced>): RecordsMessage {
	const count = fitting(records);
	const message: RecordsMessage = { v: 2, b: [] };
	const groups = new Map<string, Array<string | number>>();
	for (let i = 0; i < count; i++) {
		const [board, period, key, value] = records[i];
		const id = groupId(board, period);
		let group = groups.get(id);
		if (!group) {
			group = [board, period];
			groups.set(id, group);
			message.b.push(group);
		}
		group.push(key, value);
	}
	return message;
}

const isValue = (value: unknown): value is number =>
	typeIs(value, "number") && value === value && math.abs(value) !== math.huge;

const isRecord = (row: unknown): row is Announced => {
	if (!typeIs(row, "table")) return false;
	const [board, period, key, value] = row as unknown[];
	return typeIs(board, "string") && typeIs(period, "string") && typeIs(key, "string") && isValue(value);
};

// A version 2 group's records, or undefined when it is malformed.
function groupOf(group: unknown): Announced[] | undefined {
	if (!typeIs(group, "table")) return undefined;
	const row = group as unknown[];
	const [board, period] = row;
	if (!typeIs(board, "string") || !typeIs(period, "string") || row.size() % 2 !== 0) return undefined;
	const records = new Array<Announced>();
	for (let i = 2; i < row.size(); i += 2) {
		const [key, value] = [row[i], row[i + 1]];
		if (!typeIs(key, "string") || !isValue(value)) return undefined;
		records.push([board, period, key, value]);
	}
	return records;
}

/** The records a received message carries, or undefined when it is not a records message (malformed, another sender's). */
export function recordsOf(data: unknown): Announced[] | undefined {
	if (!typeIs(data, "table")) return undefined;
	const message = data as { v?: unknown; r?: unknown; b?: unknown };
	if (message.v === 1 && typeIs(message.r, "table")) {
		const records = message.r as unknown[];
		for (const row of records) if (!isRecord(row)) return undefined;
		return records as Announced[];
	}
	if (message.v !== 2 || !typeIs(message.b, "table")) return undefined;
	const records = new Array<Announced>();
	for (const group of message.b as unknown[]) {
		const carried = groupOf(group);
		if (!carried) return undefined;
		for (const record of carried) records.push(record);
	}
	return records;
}
