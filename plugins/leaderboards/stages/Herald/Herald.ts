import { HttpService } from "@rbxts/services";
import { HeraldStage, StageContext, Topics } from "../../contracts";
import { Warnings, experienceTime, isUpdateConflict } from "../../core";
import { Announced, messageOf, recordsOf } from "./message";
import { PendingItem, announcement, asking, pendingOf, withRecord } from "./pending";

/** The pending records' key in the hash map, and how long the item outlives its last update. */
const PENDING = "pending";
const PENDING_LIFETIME = 600;

/** Records that land on a server within this long join the pending records in one update. */
export const BATCH_SECONDS = 0.1;
/**
 * An update that kept meeting other servers' (UpdateConflict: many records landing at once) tries
 * again after a wait drawn below this, so the servers spread out, UPDATE_TRIES times in all.
 */
export const CONFLICT_SECONDS = 0.5;
export const UPDATE_TRIES = 5;

/**
 * Records seen everywhere within seconds. A value that entered a board's
 * visible top and landed (Leaderboard.Record) joins the experience's pending
 * records, one MemoryStore hash map item (StorePrefix .. "Records") that also
 * hands out the announcements (ANNOUNCEMENTS a minute for the experience): the
 * server granted one announces every server's pending records, oldest first,
 * as many as one message carries (1 kB) on one MessagingService topic (StorePrefix ..
 * "Records"). While records wait, one server (a lease in the item, taken by a
 * server a record landed on when no other holds it) asks again at the bucket's
 * next token, so a thousand servers never poll the item; records wait at most
 * PENDING_SECONDS. Every server, this one included, patches its cached page
 * from the message at once (Reader.patch), without a read.
 *
 * Delivery is best effort: a lost message costs freshness only (every page
 * refreshes within CacheSeconds). A message that is not a records message is
 * ignored with one warning; a publish or a MemoryStore call that fails is
 * dropped the same way.
 */
export class Herald implements HeraldStage {
	readonly Name = "Leaderboards.Herald";
	private connection?: RBXScriptConnection;
	private stopped = false;
	private readonly warnings = new Warnings();
	private readonly id = HttpService.GenerateGUID(false);
	private readonly random = new Random();
	// When this server, holding the asker's lease, asks for the next announcement (one loop asks).
	private askAt?: number;
	private asking = false;
	// Records landed here in the last BATCH_SECONDS, to join the pending ones in one update.
	private landing = new Array<Announced>();
	private map?: MemoryStoreHashMap;

	constructor(private readonly context: StageContext) {
		context.kernel.Bus.subscribe(Topics.Record, (_, board, key, value, period) =>
			task.spawn(() => this.landed([board, period ?? "", key, value])),
		);
	}

	start() {
		if (!this.shares()) return;
		task.spawn(() => {
			const { settings } = this.context;
			const [ok, connection] = pcall(() =>
				settings.messaging.SubscribeAsync(this.topic(), (message) =>
					this.received(message as { Data?: unknown; Sent?: unknown }),
				),
			);
			if (!ok)
				return this.warnings.first(
					"subscribe",
					`records: SubscribeAsync failed (${connection}); records show at each page's refresh`,
				);
			if (this.stopped) connection.Disconnect();
			else this.connection = connection;
		});
	}

	stop() {
		this.stopped = true;
		this.connection?.Disconnect();
		this.connection = undefined;
	}

	// A record landed here: pending for the experience, announced with the others when a token is left.
	private landed(record: Announced) {
		const config = this.context.settings.boards.get(record[0]);
		if (!config?.Store.sharesPages || this.stopped || !this.context.settings.sharePages) return;
		// A window's records land within moments of each other: they join the pending records together.
		this.landing.push(record);
		if (this.landing.size() > 1) return;
		task.wait(BATCH_SECONDS);
		const batch = this.landing;
		this.landing = [];
		this.update((item, at) => {
			let joined = item;
			for (const each of batch) joined = withRecord(joined, each, at);
			return joined;
		});
	}

	// This server holds the asker's lease: ask again in `seconds`, in the one loop that asks.
	private askIn(seconds: number) {
		this.askAt = experienceTime() + seconds;
		if (this.asking) return;
		this.asking = true;
		task.spawn(() => {
			while (this.askAt !== undefined && !this.stopped) {
				const wait = this.askAt - experienceTime();
				if (wait > 0) {
					task.wait(wait);
					continue;
				}
				this.askAt = undefined;
				this.update((item) => item);
			}
			this.asking = false;
		});
	}

	// One UpdateAsync of the pending records: `change`, an announcement when a token is left (published),
	// and the asker's lease while records wait (this server asks again when it holds it).
	private update(change: (item: PendingItem, at: number) => PendingItem) {
		let announcing: Announced[] | undefined;
		let asks: number | undefined;
		for (let tries = 1; ; tries++) {
			const at = experienceTime();
			const [ok, problem] = pcall(() =>
				this.pendingMap().UpdateAsync(
					PENDING,
					(old: unknown) => {
						const item = pendingOf(old, at);
						const [announced, records] = announcement(change(item, at), at);
						const [after, seconds] = asking(announced, this.id, at);
						announcing = records;
						asks = seconds;
						return after === item ? undefined : after;
					},
					PENDING_LIFETIME,
				),
			);
			if (ok) break;
			if (!isUpdateConflict(problem) || tries >= UPDATE_TRIES || this.stopped)
				return this.warnings.first(
					"pending",
					`records: MemoryStore failed (${problem}); records show at each page's refresh`,
				);
			task.wait(this.random.NextNumber(0, CONFLICT_SECONDS));
		}
		if (announcing) this.publish(announcing);
		if (asks !== undefined) this.askIn(asks);
	}

	private publish(records: Announced[]) {
		const message = messageOf(records);
		const [ok, problem] = pcall(() => this.context.settings.messaging.PublishAsync(this.topic(), message));
		if (!ok)
			this.warnings.first(
				"publish",
				`records: PublishAsync failed (${problem}); they show at each page's refresh`,
			);
	}

	private pendingMap(): MemoryStoreHashMap {
		const { settings } = this.context;
		this.map ??= settings.memoryStore.GetHashMap(this.topic());
		return this.map;
	}

	private topic(): string {
		return `${this.context.settings.storePrefix}Records`;
	}

	private received(message: { Data?: unknown; Sent?: unknown }) {
		const records = recordsOf(message?.Data);
		if (!records)
			return this.warnings.first("malformed", "records: ignored a message that is not a records message");
		const sent = typeIs(message.Sent, "number") ? message.Sent : experienceTime();
		for (const [board, period, key, value] of records)
			this.context.kernel.Bus.publish(Topics.Heard, board, period === "" ? undefined : period, key, value, sent);
	}

	// Whether any board's pages are shared: else there is nothing to announce or hear.
	private shares(): boolean {
		const { settings } = this.context;
		if (!settings.sharePages) return false;
		for (const [, board] of settings.boards) if (board.Store.sharesPages && board.VisibleTop > 0) return true;
		return false;
	}
}
