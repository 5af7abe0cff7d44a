import { HttpService } from "@rbxts/services";

/** MessagingService refuses a message over 1 kB as JSON (MessagingService reference, "Limitations"). */
export const MESSAGE_BYTES = 1024;

/** One announced record: [board, period id ("" on an all-time board), key, value as stored]. */
export type Announced = [board: string, period: string, key: string, value: number];

/** What a records message carries: { v = 1, r = { Announced... } }. */
export interface RecordsMessage {
	v: 1;
	r: Announced[];
}

/** How many of `records`, from the first, one message carries within MESSAGE_BYTES. */
export function fitting(records: ReadonlyArray<Announced>): number {
	let bytes = HttpService.JSONEncode({ v: 1, r: [] }).size();
	for (let i = 0; i < records.size(); i++) {
		// Each record adds its JSON and, after the first, a comma.
		bytes += HttpService.JSONEncode(records[i]).size() + (i > 0 ? 1 : 0);
		if (bytes > MESSAGE_BYTES) return i;
	}
	return records.size();
}

/** The message for as many of `records` as fit (the rest show at the shared page's next refresh). */
export function messageOf(records: ReadonlyArray<Announced>): RecordsMessage {
	const count = fitting(records);
	return { v: 1, r: records.filter((_, i) => i < count) };
}

const isRecord = (row: unknown): row is Announced => {
	if (!typeIs(row, "table")) return false;
	const [board, period, key, value] = row as unknown[];
	return (
		typeIs(board, "string") &&
		typeIs(period, "string") &&
		typeIs(key, "string") &&
		typeIs(value, "number") &&
		value === value &&
		math.abs(value) !== math.huge
	);
};

/** The records a received message carries, or undefined when it is not a records message (malformed, another sender's). */
export function recordsOf(data: unknown): Announced[] | undefined {
	if (!typeIs(data, "table")) return undefined;
	const message = data as Partial<RecordsMessage>;
	if (message.v !== 1 || !typeIs(message.r, "table")) return undefined;
	const records = message.r as unknown[];
	for (const row of records) if (!isRecord(row)) return undefined;
	return records as Announced[];
}
