import { Logger } from "../../../../kernel";
import { HeraldStage, StageContext, Topics, experienceTime } from "../../types";
import { Announced, messageOf, recordsOf } from "./message";
import { PENDING_SECONDS, PendingItem, announcement, carried, pendingOf, withRecord } from "./pending";

/** The pending records' key in the hash map, and how long the item outlives its last update. */
const PENDING = "pending";
const PENDING_LIFETIME = 600;

const log = Logger.scope("Leaderboards");

/** A server whose record got no announcement asks again this often (about the experience's next token)... */
export const RETRY_SECONDS = 1;
/** Records that land on a server within this long join the pending records in one update. */
export const BATCH_SECONDS = 0.1;

/**
 * Records seen everywhere within seconds. A value that entered a board's
 * visible top and landed (Leaderboard.Record) joins the experience's pending
 * records, one MemoryStore hash map item (StorePrefix .. "Records") that also
 * hands out the announcements (ANNOUNCEMENTS a minute for the experience): the
 * server granted one announces every server's pending records, oldest first,
 * as many as one message carries (1 kB) on one MessagingService topic (StorePrefix ..
 * "Records"); a server denied one checks again every RETRY_SECONDS for
 * PENDING_SECONDS (another server's announcement may carry its record
 * meanwhile). Every server, this one included, patches its cached page from
 * the message at once (Reader.patch), without a read.
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
	private readonly warned = new Set<string>();
	// This server waits for its records to be announced (one waiter for all of them), up to its newest's number.
	private waiting = false;
	private waitingFor = -math.huge;
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
				return this.warnOnce(
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
		const at = experienceTime();
		let number = 0;
		const records = this.update(at, (item) => {
			let joined = item;
			for (const each of batch) joined = withRecord(joined, each, at);
			number = joined.next - 1;
			return joined;
		});
		if (records) this.publish(records);
		else if (number > 0) this.askAgain(number);
	}

	// No announcement now: check again while another server's may not have carried this server's records.
	private askAgain(number: number) {
		this.waitingFor = math.max(this.waitingFor, number);
		if (this.waiting) return;
		this.waiting = true;
		task.spawn(() => {
			for (let waited = 0; waited < PENDING_SECONDS && !this.stopped; waited += RETRY_SECONDS) {
				task.wait(RETRY_SECONDS);
				const at = experienceTime();
				// A read (one unit) first: nothing to do when an announcement carried them.
				const [ok, value] = pcall(() => this.pendingMap().GetAsync(PENDING));
				if (!ok || carried(pendingOf(value, at), this.waitingFor)) break;
				const records = this.update(at, (item) => item);
				if (records) {
					this.publish(records);
					break;
				}
			}
			this.waiting = false;
		});
	}

	// One UpdateAsync of the pending records: `change`, then an announcement when a token is left.
	private update(at: number, change: (item: PendingItem) => PendingItem): Announced[] | undefined {
		let announcing: Announced[] | undefined;
		const [ok, problem] = pcall(() =>
			this.pendingMap().UpdateAsync(
				PENDING,
				(old: unknown) => {
					const item = pendingOf(old, at);
					const changed = change(item);
					const [after, records] = announcement(changed, at);
					announcing = records;
					return changed === item && records === undefined ? undefined : after;
				},
				PENDING_LIFETIME,
			),
		);
		if (!ok)
			this.warnOnce("pending", `records: MemoryStore failed (${problem}); records show at each page's refresh`);
		return ok ? announcing : undefined;
	}

	private publish(records: Announced[]) {
		const message = messageOf(records);
		const [ok, problem] = pcall(() => this.context.settings.messaging.PublishAsync(this.topic(), message));
		if (!ok)
			this.warnOnce("publish", `records: PublishAsync failed (${problem}); they show at each page's refresh`);
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
		if (!records) return this.warnOnce("malformed", "records: ignored a message that is not a records message");
		const sent = typeIs(message.Sent, "number") ? message.Sent : experienceTime();
		for (const [board, period, key, value] of records)
			this.context.stages.Reader.patch?.(board, period === "" ? undefined : period, key, value, sent);
	}

	// Whether any board's pages are shared: else there is nothing to announce or hear.
	private shares(): boolean {
		const { settings } = this.context;
		if (!settings.sharePages) return false;
		for (const [, board] of settings.boards) if (board.Store.sharesPages && board.VisibleTop > 0) return true;
		return false;
	}

	private warnOnce(kind: string, message: string) {
		if (this.warned.has(kind)) return;
		this.warned.add(kind);
		log.warn(message);
	}
}
