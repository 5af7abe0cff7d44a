import { Announced, fitting } from "./message";

/**
 * Record announcements a minute for the whole experience: a message reaches every server, and a
 * topic receives at most 40 + 80 x servers a minute (MessagingService reference), so at most 80
 * messages a minute at any server count; 75 leaves the game's own messages some room.
 */
export const ANNOUNCEMENTS = 75;
/** Announcements the bucket holds at most: a burst of records spreads over seconds, not one minute's in one. */
export const ANNOUNCEMENT_BURST = 10;
/** Records the item keeps, oldest dropped first (about 40 bytes each; an announcement carries what fits in 1 kB). */
export const PENDING_KEPT = 100;
/** Seconds a record waits to be announced; an older one shows at its page's next refresh instead. */
export const PENDING_SECONDS = 10;

/**
 * The experience's records not yet announced, as one hash map item holds them (JSON-able): every
 * server's [board, period, key, value], numbered in the order they joined (a server's clock may
 * run behind another's commit), with when; and the announcements' bucket.
 */
export interface PendingItem {
	records: Array<[record: Announced, number: number, at: number]>;
	/** The next record's number, and the last an announcement carried. */
	next: number;
	announced: number;
	tokens: number;
	tokensAt: number;
}

/** The item read back; a new one when there is none (or junk). */
export function pendingOf(value: unknown, at: number): PendingItem {
	const item = typeIs(value, "table") ? (value as Partial<PendingItem>) : {};
	const valid = typeIs(item.records, "table") && typeIs(item.next, "number") && typeIs(item.announced, "number");
	return valid
		? (item as PendingItem)
		: { records: [], next: 1, announced: 0, tokens: ANNOUNCEMENT_BURST, tokensAt: at };
}

/**
 * The item with one more record, which replaces the key's older one on its board; those announced,
 * and those past PENDING_SECONDS or PENDING_KEPT, dropped.
 */
export function withRecord(item: PendingItem, record: Announced, at: number): PendingItem {
	const [board, period, key] = record;
	const records = item.records.filter(
		([[b, p, k], number, landed]) =>
			number > item.announced && at - landed <= PENDING_SECONDS && !(k === key && b === board && p === period),
	);
	records.push([record, item.next, at]);
	while (records.size() > PENDING_KEPT) records.remove(0);
	return { ...item, records, next: item.next + 1 };
}

/** Whether the item's announcements have carried every record up to `number`. */
export function carried(item: PendingItem, number: number): boolean {
	return item.announced >= number;
}

/**
 * The records an announcement carries now (every server's not yet announced, the oldest first, as
 * many as fit in one message), when the experience's bucket holds a token, and the item with it
 * spent; else undefined and the item.
 */
export function announcement(item: PendingItem, at: number): LuaTuple<[PendingItem, Announced[]?]> {
	const waiting = item.records.filter(([, number]) => number > item.announced);
	const refill = (math.max(0, at - item.tokensAt) * ANNOUNCEMENTS) / 60;
	const tokens = math.min(ANNOUNCEMENT_BURST, item.tokens + refill);
	if (waiting.isEmpty() || tokens < 1) return $tuple(item);
	const carrying = fitting(waiting.map(([record]) => record));
	// A record alone over 1 kB (names that long) is never announced: it shows at its page's refresh.
	if (carrying === 0) return $tuple({ ...item, announced: waiting[0][1] });
	const sent = waiting.filter((_, i) => i < carrying);
	const announced = sent[sent.size() - 1][1];
	return $tuple(
		{ ...item, tokens: tokens - 1, tokensAt: at, announced },
		sent.map(([record]) => record),
	);
}
