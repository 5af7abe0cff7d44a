import { HttpService } from "@rbxts/services";
import { Priority, sleep } from "../../../../kernel";
import { HeraldStage, StageContext, Topics } from "../../contracts";
import { Warnings, experienceTime, isUpdateConflict } from "../../core";
import { Announced, messageOf, recordsOf } from "./message";
import { PendingItem, TOPICS, announcement, asking, pendingOf, withRecord } from "./pending";

/** The pending records' key in the hash map, and how long the item outlives its last update. */
const PENDING = "pending";
const PENDING_LIFETIME = 600;

/**
 * Records that land on a server within this long join the pending records in one update (a window's
 * records land within moments of each other); those landing while it runs join the next.
 */
export const BATCH_SECONDS = 0.05;
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
 * as many as one message carries (1 kB) on MessagingService, the announcements
 * taking turns on TOPICS topics (StorePrefix .. "Records", .. "Records2"), each
 * under its receive limit. While records wait, one server (a lease in the item,
 * taken by a server a record landed on when no other holds it) asks again at the
 * bucket's next token, so a thousand servers never poll the item; records wait at
 * most PENDING_SECONDS. Every server, this one included, patches its cached page
 * from the message at once (Reader.patch), without a read. Every wait is a kernel
 * Scheduler deadline that stop() cancels.
 *
 * Delivery is best effort: a lost message costs freshness only (every page
 * refreshes within CacheSeconds). A message that is not a records message is
 * ignored with one warning; a publish or a MemoryStore call that fails is
 * dropped the same way.
 */
export class Herald implements HeraldStage {
	readonly Name = "Leaderboards.Herald";
	private readonly connections = new Set<RBXScriptConnection>();
	private stopped = false;
	private readonly warnings = new Warnings();
	private readonly id = HttpService.GenerateGUID(false);
	private readonly random = new Random();
	// This server's next ask for an announcement, while it holds the asker's lease.
	private ask?: Promise<void>;
	// Every other wait (a batch, a try after a conflict): stop() cancels them.
	private readonly pauses = new Set<Promise<void>>();
	// Records landed here and not yet in an update, and whether this server's update is under way.
	private landing = new Array<Announced>();
	private updating = false;
	private map?: MemoryStoreHashMap;

	constructor(private readonly context: StageContext) {
		context.kernel.Bus.subscribe(Topics.Record, (_, board, key, value, period) =>
			task.spawn(() => this.landed([board, period ?? "", key, value])),
		);
	}

	start() {
		if (!this.shares()) return;
		for (let turn = 0; turn < TOPICS; turn++) task.spawn(() => this.subscribe(this.topic(turn)));
	}

	stop() {
		this.stopped = true;
		this.ask?.cancel();
		this.ask = undefined;
		for (const pause of this.pauses) pause.cancel();
		this.pauses.clear();
		for (const connection of this.connections) connection.Disconnect();
		this.connections.clear();
	}

	private subscribe(topic: string) {
		const [ok, connection] = pcall(() =>
			this.context.settings.messaging.SubscribeAsync(topic, (message) =>
				this.received(message as { Data?: unknown; Sent?: unknown }),
			),
		);
		if (!ok)
			return this.warnings.first(
				"subscribe",
				`records: SubscribeAsync failed (${connection}); records show at each page's refresh`,
			);
		if (this.stopped) connection.Disconnect();
		else this.connections.add(connection);
	}

	// A record landed here: pending for the experience, announced with the others when a token is left.
	private landed(record: Announced) {
		const config = this.context.settings.boards.get(record[0]);
		if (!config?.Store.sharesPages || this.stopped || !this.context.settings.sharePages) return;
		// One update of the item in flight a server: records landing while it runs (the flood of every
		// server's first submits) join the pending records together in the next.
		this.landing.push(record);
		if (this.updating) return;
		this.updating = true;
		if (!this.pause(BATCH_SECONDS)) return;
		while (!this.landing.isEmpty() && !this.stopped) {
			const batch = this.landing;
			this.landing = [];
			this.update((item, at) => {
				let joined = item;
				for (const each of batch) joined = withRecord(joined, each, at);
				return joined;
			});
		}
		this.updating = false;
	}

	// This server holds the asker's lease: its next ask, `seconds` from now, replaces any armed before.
	private askIn(seconds: number) {
		// An update that returned after the close arms nothing.
		if (this.stopped) return;
		this.ask?.cancel();
		this.ask = sleep(this.context.kernel.Scheduler, seconds, Priority.Normal).andThen(() => {
			this.ask = undefined;
			task.spawn(() => this.update((item) => item));
		});
	}

	// Waits `seconds` on a kernel deadline: false once stop() cancelled it (or came before).
	private pause(seconds: number): boolean {
		if (this.stopped) return false;
		const pause = sleep(this.context.kernel.Scheduler, seconds, Priority.Normal);
		this.pauses.add(pause);
		const [waited] = pause.await();
		this.pauses.delete(pause);
		return waited && !this.stopped;
	}

	// One UpdateAsync of the pending records: `change`, an announcement when a token is left (published),
	// and the asker's lease while records wait (this server asks again when it holds it).
	private update(change: (item: PendingItem, at: number) => PendingItem) {
		let announcing: Announced[] | undefined;
		let topic = 0;
		let asks: number | undefined;
		for (let tries = 1; ; tries++) {
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
			if (ok) break;
			if (this.stopped) return;
			if (!isUpdateConflict(problem) || tries >= UPDATE_TRIES)
				return this.warnings.first(
					"pending",
					`records: MemoryStore failed (${problem}); records show at each page's refresh`,
				);
			if (!this.pause(this.random.NextNumber(0, CONFLICT_SECONDS))) return;
		}
		if (announcing) this.publish(announcing, topic);
		if (asks !== undefined) this.askIn(asks);
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
}
