import { Logger } from "../../../../kernel";
import { HeraldStage, StageContext, Topics, experienceTime } from "../../types";
import { Announced, messageOf, recordsOf } from "./message";

const log = Logger.scope("Leaderboards");

/** Records wait this long at most for an announcement; later ones show at the page's next refresh instead. */
export const ANNOUNCE_SECONDS = 10;

/**
 * Records seen everywhere within seconds. A value that entered a board's
 * visible top and landed (Leaderboard.Record) is patched into the shared page
 * (Pages.patch, which also hands out the experience's announcements: ANNOUNCEMENTS
 * a minute across the boards), then announced on one MessagingService topic
 * (StorePrefix .. "Records") with this server's other records not yet announced,
 * in one message under 1 kB. Every server, this one included, patches its
 * cached page from the message at once (Reader.patch), without a read.
 *
 * Delivery is best effort: a lost message costs freshness only (the shared
 * page has the record, and every page refreshes within CacheSeconds). A message
 * that is not a records message is ignored with one warning; a publish that
 * fails, or a record no announcement was granted to within ANNOUNCE_SECONDS, is
 * dropped the same way.
 */
export class Herald implements HeraldStage {
	readonly Name = "Leaderboards.Herald";
	private readonly outbox = new Array<{ record: Announced; at: number }>();
	private connection?: RBXScriptConnection;
	private stopped = false;
	private warned = new Set<string>();

	constructor(private readonly context: StageContext) {
		context.kernel.Bus.subscribe(Topics.Record, (_, board, key, value, period) =>
			task.spawn(() => this.landed(board, key, value, period)),
		);
	}

	start() {
		if (!this.shares()) return;
		task.spawn(() => {
			const { settings } = this.context;
			const [ok, connection] = pcall(() =>
				settings.messaging.SubscribeAsync(`${settings.storePrefix}Records`, (message) =>
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

	// A record landed here: into the shared page, then announced when the page grants it.
	private landed(board: string, key: string, value: number, period: string | undefined) {
		const { settings, stages } = this.context;
		const config = settings.boards.get(board);
		if (!config || this.stopped) return;
		const granted = stages.Pages.patch(config, config.storageFor(period), key, value);
		const now = settings.clock();
		this.outbox.push({ record: [board, period ?? "", key, value], at: now });
		while (!this.outbox.isEmpty() && now - this.outbox[0].at > ANNOUNCE_SECONDS) this.outbox.remove(0);
		if (granted) this.publish();
	}

	private publish() {
		const { settings } = this.context;
		const [message, count] = messageOf(this.outbox.map((entry) => entry.record));
		for (let i = 0; i < math.max(1, count); i++) this.outbox.remove(0);
		if (count === 0) return;
		const [ok, problem] = pcall(() => settings.messaging.PublishAsync(`${settings.storePrefix}Records`, message));
		if (!ok)
			this.warnOnce("publish", `records: PublishAsync failed (${problem}); they show at each page's refresh`);
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
