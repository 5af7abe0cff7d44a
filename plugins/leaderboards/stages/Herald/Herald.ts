import { HttpService } from "@rbxts/services";
import { Priority, Timers } from "../../../../kernel";
import { HeraldStage, StageContext, Topics } from "../../contracts";
import { Warnings, experienceTime, isUpdateConflict } from "../../core";
import { Announced, messageOf, recordsOf } from "./message";
import { PendingItem, TOPICS, announcement, asking, pendingOf, withRecord } from "./pending";

/** The pending records' key in the hash map, and how long the item outlives its last update. */
const PENDING = "pending";
const PENDING_LIFETIME = 600;

/**
 * Records that join on a server within this long go into the pending records in one update (a window's
 * records are sent and land within moments of each other); those joining while it runs go in the next.
 */
export const BATCH_SECONDS = 0.05;
/**
 * An update that kept meeting other servers' (UpdateConflict: many records joining at once) tries
 * again after a wait drawn below this, so the servers spread out, UPDATE_TRIES times in all.
 */
export const CONFLICT_SECONDS = 0.5;
export const UPDATE_TRIES = 5;

/**
 * Records seen everywhere within seconds. A value that entered a board's
 * visible top joins the experience's pending records, one MemoryStore hash map
 * item (StorePrefix .. "Records") that also hands out the announcements
 * (ANNOUNCEMENTS a minute for the experience): the server granted one announces
 * every server's pending records, oldest first, as many as one message carries
 * (1 kB) on MessagingService, the announcements taking turns on TOPICS topics
 * (StorePrefix .. "Records", .. "Records2"), each under its receive limit. On a
 * keep-best board a record joins as its write is sent (Leaderboard.Recording):
 * once the write lands the store holds that value or better, so the other
 * servers need not wait for the landing; any other record (a newest or summed
 * value: only the landing says what the store holds) joins as it lands
 * (Leaderboard.Record), and so does every record when the Flusher publishes no
 * Recording. While records wait, one server (a lease in the item, taken by a
 * server a record joined from when no other holds it) asks again at the
 * bucket's next token, so a thousand servers never poll the item; records wait
 * at most PENDING_SECONDS. Every server, this one included, patches its cached
 * page from the message at once (Reader, on Leaderboard.Heard), without a read;
 * a keep-best record is heard as sent RequestSeconds later than it was, by
 * when its write has landed or counts as failed, so a page read before then
 * keeps it patched in and one read after shows the store (a record whose
 * write failed goes at that page's refresh, and comes back when a retry is
 * sent). Every wait is a kernel Timers deadline, and a subscription a kernel
 * Promise, that stop() cancels: work under way at the close arms nothing more.
 *
 * Delivery is best effort: a lost message costs freshness only (every page
 * refreshes within CacheSeconds). A message that is not a records message is
 * ignored with one warning; a publish or a MemoryStore call that fails is
 * dropped the same way.
 */
export class Herald implements HeraldStage {
	readonly Name = "Leaderboards.Herald";
	private readonly connections = new Set<RBXScriptConnection>();
	private readonly subscribing = new Set<Promise<RBXScriptConnection>>();
	private readonly warnings = new Warnings();
	private readonly id = HttpService.GenerateGUID(false);
	private readonly random = new Random();
	// "batch": the next update of records joined here (or its try after a conflict); "ask": this
	// server's next ask for an announcement, while it holds the asker's lease.
	private readonly timers: Timers;
	// Records joined here and not yet in an update, and whether this server's update is under way.
	private joining = new Array<Announced>();
	private updating = false;
	// The Flusher tells when a record's write is sent: keep-best records are announced then.
	private hearsRecording = false;
	private map?: MemoryStoreHashMap;

	constructor(private readonly context: StageContext) {
		const bus = context.kernel.Bus;
		this.timers = new Timers(context.kernel.Scheduler, Priority.Normal);
		bus.subscribe(Topics.Recording, (_, board, key, value, period) => {
			if (!this.early(board)) return;
			this.hearsRecording = true;
			this.join([board, period ?? "", key, value]);
		});
		bus.subscribe(Topics.Record, (_, board, key, value, period) => {
			if (!this.hearsRecording || !this.early(board)) this.join([board, period ?? "", key, value]);
		});
	}

	start() {
		if (!this.shares()) return;
		for (let turn = 0; turn < TOPICS; turn++) this.subscribe(this.topic(turn));
	}

	stop() {
		this.timers.destroy();
		for (const subscribing of this.subscribing) subscribing.cancel();
		for (const connection of this.connections) connection.Disconnect();
		this.connections.clear();
	}

	// Whether a board's records are announced as their write is sent (keep-best: the store will hold
	// that value or better), not when it lands.
	private early(board: string): boolean {
		return this.context.settings.boards.get(board)?.Rule.Kind === "KeepBest";
	}

	private subscribe(topic: string) {
		const { messaging } = this.context.settings;
		// stop() cancels it: the thread waiting on SubscribeAsync is closed, so a late subscription is never taken.
		const subscribing = new Promise<RBXScriptConnection>((resolve, reject) => {
			const [ok, connection] = pcall(() =>
				messaging.SubscribeAsync(topic, (message) =>
					this.received(message as { Data?: unknown; Sent?: unknown }),
				),
			);
			if (ok) resolve(connection);
			else reject(connection);
		});
		this.subscribing.add(subscribing);
		subscribing
			.then(
				(connection) => {
					this.connections.add(connection);
				},
				(problem) =>
					this.warnings.first(
						"subscribe",
						`records: SubscribeAsync failed (${problem}); records show at each page's refresh`,
					),
			)
			.finally(() => this.subscribing.delete(subscribing));
	}

	// A record for the experience's pending records, announced with the others when a token is left.
	private join(record: Announced) {
		const config = this.context.settings.boards.get(record[0]);
		if (!config?.Store.sharesPages || !this.context.settings.sharePages) return;
		// One update of the item in flight a server: records joining within BATCH_SECONDS, or while it
		// runs (the flood of every server's first submits), go in one update.
		this.joining.push(record);
		if (this.updating) return;
		this.updating = true;
		this.timers.arm("batch", BATCH_SECONDS, () => this.nextBatch());
	}

	// The records joined since the last update, in one; then the next batch, if any joined meanwhile.
	private nextBatch() {
		const batch = this.joining;
		this.joining = [];
		const change = (item: PendingItem, at: number) => {
			let joined = item;
			for (const each of batch) joined = withRecord(joined, each, at);
			return joined;
		};
		this.update(change, "batch", () => {
			if (this.joining.isEmpty()) this.updating = false;
			else this.timers.arm("batch", 0, () => this.nextBatch());
		});
	}

	// One UpdateAsync of the pending records: `change`, an announcement when a token is left (published),
	// and the asker's lease while records wait (this server asks again when it holds it). A conflict tries
	// again on the `timer` named; `done` runs once the update went or was given up.
	private update(
		change: (item: PendingItem, at: number) => PendingItem,
		timer: string,
		done?: () => void,
		tries = 1,
	) {
		let announcing: Announced[] | undefined;
		let topic = 0;
		let asks: number | undefined;
		const at = experienceTime();
		const [ok, problem] = pcall(() =>
			this.pendingMap().UpdateAsync(
				PENDING,
				(old: unknown) => {
					const item = pendingOf(old, at);
					const [announced, records, turn] = announcement(change(item, at), at);
					const [after, seconds] = asking(announced, this.id, at);
					announcing = records;
					topic = turn ?? 0;
					asks = seconds;
					return after === item ? undefined : after;
				},
				PENDING_LIFETIME,
			),
		);
		if (!ok && isUpdateConflict(problem) && tries < UPDATE_TRIES)
			return this.timers.arm(timer, this.random.NextNumber(0, CONFLICT_SECONDS), () =>
				this.update(change, timer, done, tries + 1),
			);
		if (!ok)
			this.warnings.first(
				"pending",
				`records: MemoryStore failed (${problem}); records show at each page's refresh`,
			);
		if (announcing) this.publish(announcing, topic);
		// An update that returned after the close arms nothing (Timers).
		if (asks !== undefined) this.timers.arm("ask", asks, () => this.update((item) => item, "ask"));
		done?.();
	}

	private publish(records: Announced[], topic: number) {
		const message = messageOf(records);
		const [ok, problem] = pcall(() => this.context.settings.messaging.PublishAsync(this.topic(topic), message));
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

	// The records' topic `turn` (the first also names the hash map): StorePrefix .. "Records", then "Records2"...
	private topic(turn = 0): string {
		return `${this.context.settings.storePrefix}Records${turn === 0 ? "" : turn + 1}`;
	}

	private received(message: { Data?: unknown; Sent?: unknown }) {
		const records = recordsOf(message?.Data);
		if (!records)
			return this.warnings.first("malformed", "records: ignored a message that is not a records message");
		const sent = typeIs(message.Sent, "number") ? message.Sent : experienceTime();
		// A keep-best record went out as its write was sent: a page read before the write's deadline may lack it.
		const landed = sent + this.context.settings.RequestSeconds;
		for (const [board, period, key, value] of records)
			this.context.kernel.Bus.publish(
				Topics.Heard,
				board,
				period === "" ? undefined : period,
				key,
				value,
				this.early(board) ? landed : sent,
			);
	}

	// Whether any board's pages are shared: else there is nothing to announce or hear.
	private shares(): boolean {
		const { settings } = this.context;
		if (!settings.sharePages) return false;
		for (const [, board] of settings.boards) if (board.Store.sharesPages && board.VisibleTop > 0) return true;
		return false;
	}
}
