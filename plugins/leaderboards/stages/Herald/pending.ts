import { heldElsewhere, refilled } from "../../core";
import { Announced, fitting } from "./message";

/**
 * Record announcements a minute on one topic: a message reaches every server, and a topic receives at
 * most 40 + 80 x servers a minute (MessagingService reference), so at most 80 messages a minute at any
 * server count; 75 keeps under it with room.
 */
export const TOPIC_ANNOUNCEMENTS = 75;
/**
 * Topics the announcements take turns on: a record waits for the bucket's next token, 60 / ANNOUNCEMENTS
 * s apart when records keep coming, so two topics halve the wait. The experience receives at most
 * 400 + 200 x servers messages a minute on all topics: 150 leaves the game's own at least 50 (and 400 / servers).
 */
export const TOPICS = 2;
/** Record announcements a minute for the whole experience. */
export const ANNOUNCEMENTS = TOPIC_ANNOUNCEMENTS * TOPICS;
/** Announcements the bucket holds at most: a burst of records spreads over seconds, not one minute's in one. */
export const ANNOUNCEMENT_BURST = 10;
/** Records the item keeps, oldest dropped first (about 40 bytes each; an announcement carries what fits in 1 kB). */
export const PENDING_KEPT = 100;
/** Seconds a record waits to be announced; an older one shows at its page's next refresh instead. */
export const PENDING_SECONDS = 10;
/** Seconds an asker's lease outlives its next ask: one that died is replaced by the next server a record joins from. */
export const ASK_MARGIN = 2;
/** The soonest an asker asks again (records past one message's worth, a token left). */
export const ASK_SOONEST = 0.1;

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
	/** Announcements made: the next goes on topic `sent % TOPICS` (absent in an item from before topics took turns). */
	sent?: number;
	/** The one server that asks for the next announcement while records wait: [server id, lease end]. */
	asker?: [string, number];
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
	const records = waiting(item, at).filter(([[b, p, k]]) => !(k === key && b === board && p === period));
	records.push([record, item.next, at]);
	while (records.size() > PENDING_KEPT) records.remove(0);
	return { ...item, records, next: item.next + 1 };
}

// The records no announcement carried yet and not past PENDING_SECONDS, oldest first.
function waiting(item: PendingItem, at: number): PendingItem["records"] {
	return item.records.filter(([, number, joined]) => number > item.announced && at - joined <= PENDING_SECONDS);
}

// The announcements' bucket at `at`.
function tokensAt(item: PendingItem, at: number): number {
	return refilled(item.tokens, at - item.tokensAt, ANNOUNCEMENTS, ANNOUNCEMENT_BURST);
}

/**
 * The records an announcement carries now (every server's not yet announced, the oldest first, as
 * many as fit in one message), when the experience's bucket holds a token, the item with it spent,
 * and the topic it goes on (0 .. TOPICS - 1); else undefined and the item.
 */
export function announcement(item: PendingItem, at: number): LuaTuple<[PendingItem, Announced[]?, number?]> {
	const records = waiting(item, at);
	const tokens = tokensAt(item, at);
	if (records.isEmpty() || tokens < 1) return $tuple(item);
	const carrying = fitting(records.map(([record]) => record));
	// A record alone over 1 kB (names that long) is never announced: it shows at its page's refresh.
	if (carrying === 0) return $tuple({ ...item, announced: records[0][1] });
	const sent = records.filter((_, i) => i < carrying);
	const announced = sent[sent.size() - 1][1];
	const turn = item.sent ?? 0;
	return $tuple(
		{ ...item, tokens: tokens - 1, tokensAt: at, announced, sent: turn + 1 },
		sent.map(([record]) => record),
		turn % TOPICS,
	);
}

/**
 * Who asks for the next announcement while records wait, so that one server asks, not every server
 * a record joined from: this one, unless another server's lease runs on. The item with this server's
 * lease (renewed, or given up once nothing waits), and the seconds until it asks: the bucket's next
 * token. Undefined seconds: this server does not ask.
 */
export function asking(item: PendingItem, server: string, at: number): LuaTuple<[PendingItem, number?]> {
	if (heldElsewhere(item.asker, server, at)) return $tuple(item);
	if (waiting(item, at).isEmpty()) return $tuple(item.asker?.[0] === server ? { ...item, asker: undefined } : item);
	const seconds = math.max(ASK_SOONEST, ((1 - tokensAt(item, at)) * 60) / ANNOUNCEMENTS);
	return $tuple({ ...item, asker: [server, at + seconds + ASK_MARGIN] }, seconds);
}
