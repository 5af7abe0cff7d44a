import { HttpService } from "@rbxts/services";
import { Priority, Timers } from "../../../../kernel";
import { Board, PagesStage, SharedPage, StageContext, Topics } from "../../contracts";
import { Warnings, experienceTime, heldElsewhere, isUpdateConflict } from "../../core";
import { eraseFromPages } from "./erase";
import { PageItem, itemOf, pageKey, refreshed, rowsOf } from "./item";
import { JOIN_POLL_SECONDS, joinRefresh } from "./join";

/** Seconds a lease outlives the refresh read it covers (RequestSeconds): a holder that died is replaced after it. */
export const LEASE_MARGIN = 5;
// refresh()'s answer when another server holds the page's lease (or just wrote a fresh page).
const HELD = "held";
/** Shared pages live at least this long in the hash map (MemoryStore memory is the experience's). */
export const PAGE_LIFETIME = 300;

/**
 * One read of a board's top page per refresh for the whole experience. A
 * board's page is an item of a MemoryStore hash map (StorePrefix .. "Pages",
 * keyed by storage name) that every server reads (one unit) instead of the
 * store. When it is older than the board's CacheSeconds, the first server to
 * ask takes a lease on it with UpdateAsync (expiring RequestSeconds +
 * LEASE_MARGIN later, so a holder that died is replaced), reads the store
 * (a read the experience's base pays: Shared), and writes the rows back;
 * every other server keeps using the item it has until then, so an expired
 * item brings one read, not a stampede; a server with no page yet waits for
 * that one (joinRefresh), within RequestSeconds. The item's key names the
 * store (pageKey): boards of one name on two stores never share a page. Records that land meanwhile reach
 * every server's cached page through the Herald's announcements.
 *
 * A board whose backend does not share pages (Backend.sharePages), with
 * SharePages = false, or when MemoryStore fails, reads the store itself, from
 * its server's own share.
 */
export class Pages implements PagesStage {
	readonly Name = "Leaderboards.Pages";
	private readonly id = HttpService.GenerateGUID(false);
	private map?: MemoryStoreHashMap;
	// MemoryStore down warns once ("failing"), not once a read, until it answers again.
	private readonly warnings = new Warnings();
	// A wait for another server's refresh: the close (Leaderboard.Draining, stop()) ends it.
	private readonly timers: Timers;

	constructor(private readonly context: StageContext) {
		this.timers = new Timers(context.kernel.Scheduler, Priority.Normal);
		context.kernel.Bus.subscribe(Topics.Draining, () => this.stop());
	}

	stop() {
		this.timers.destroy();
	}

	read(board: Board, store: string, count: number): SharedPage | undefined {
		const map = this.mapFor(board);
		if (!map) return this.direct(board, store, count);
		const { kernel, settings } = this.context;
		// The wait for another server's refresh ends a poll before the Reader's RequestSeconds do.
		const deadline = kernel.Scheduler.now() + settings.RequestSeconds - JOIN_POLL_SECONDS;
		const key = pageKey(board, store);
		const now = experienceTime();
		const [ok, value] = pcall(() => map.GetAsync(key));
		if (!ok) return this.fallback(board, store, count, value);
		this.warnings.again("failing");
		const item = itemOf(value);
		if (item && item.size >= count && now - item.at < board.CacheSeconds) return this.pageOf(item, count);
		if (!heldElsewhere(item?.lease, this.id, now)) {
			const refresh = this.refresh(map, board, store, count, now);
			if (refresh !== HELD) return refresh ?? (item && this.pageOf(item, count));
		}
		// Another server refreshes the page now: this server keeps the page it has, or with none waits for that one.
		const page = item && this.pageOf(item, count);
		if (page) return page;
		const joined = joinRefresh(
			map,
			key,
			this.id,
			experienceTime,
			kernel.Scheduler,
			deadline,
			(seconds) => this.timers.sleep(seconds).await()[0],
		);
		return joined && this.pageOf(joined, count);
	}

	erase(key: string): boolean {
		// One map holds every shared board's pages; a rewritten item lasts as long as any board's refresh keeps it.
		let map: MemoryStoreHashMap | undefined;
		let lifetime = PAGE_LIFETIME;
		for (const [, board] of this.context.settings.boards) {
			const shared = this.mapFor(board);
			if (!shared) continue;
			map = shared;
			lifetime = math.max(lifetime, this.lifetimeOf(board));
		}
		return map ? eraseFromPages(map, key, lifetime) : true;
	}

	// Takes the lease, reads the store, writes the page back: HELD when another server took it, undefined when
	// the read failed.
	private refresh(map: MemoryStoreHashMap, board: Board, store: string, count: number, now: number) {
		const { settings } = this.context;
		const key = pageKey(board, store);
		const expires = now + settings.RequestSeconds + LEASE_MARGIN;
		const [ok, taken] = pcall(() =>
			map.UpdateAsync(
				key,
				(old: unknown) => {
					const item = itemOf(old);
					if (heldElsewhere(item?.lease, this.id, now)) return undefined;
					if (item && item.size >= count && now - item.at < board.CacheSeconds) return undefined;
					return { ...(item ?? { at: 0, size: 0, rows: [] }), lease: [this.id, expires] };
				},
				this.lifetimeOf(board),
			),
		);
		if (!ok) return isUpdateConflict(taken) ? HELD : this.fallback(board, store, count, taken);
		if (taken === undefined) return HELD;
		const rows = board.sorted(store, count, true);
		if (!rows) return undefined;
		// A slower holder whose lease ran out never writes over a newer page.
		const write = (old: unknown) => {
			const item = itemOf(old);
			return item && item.at > now ? undefined : refreshed(now, count, rows);
		};
		pcall(() => map.UpdateAsync(key, write, this.lifetimeOf(board)));
		return { Rows: rows, ReadAt: now };
	}

	// The item as a page; undefined for a lease on a page never read yet (size 0).
	private pageOf(item: PageItem, count: number): SharedPage | undefined {
		if (item.size === 0) return undefined;
		return { Rows: rowsOf(item, count), ReadAt: item.at };
	}

	private direct(board: Board, store: string, count: number): SharedPage | undefined {
		const readAt = experienceTime();
		const rows = board.sorted(store, count);
		return rows && { Rows: rows, ReadAt: readAt };
	}

	// MemoryStore failed (down, or its quota spent): the store itself, within this server's share.
	private fallback(board: Board, store: string, count: number, problem: unknown) {
		this.warnings.first(
			"failing",
			`shared pages: MemoryStore failed (${problem}); reading the stores directly until it answers`,
		);
		return this.direct(board, store, count);
	}

	// The hash map, when the board's pages are shared.
	private mapFor(board: Board): MemoryStoreHashMap | undefined {
		const { settings } = this.context;
		if (!settings.sharePages || !board.Store.sharesPages) return undefined;
		if (!this.map) {
			const [ok, map] = pcall(() => settings.memoryStore.GetHashMap(`${settings.storePrefix}Pages`));
			if (!ok) return undefined;
			this.map = map;
		}
		return this.map;
	}

	private lifetimeOf(board: Board): number {
		return math.max(PAGE_LIFETIME, math.ceil(2 * board.CacheSeconds));
	}
}
