// A board of the manifest's layout and the stores that hold it, read and written
// through Open Cloud as the library lays them out (docs/manifest.md, docs/backends.md):
//
//   OrderedDataStore  one ordered data store a period: Prefix .. Storage [.. "@" .. period id],
//                     scope "global"; values are integers (encoded on Big and tie-break boards)
//   MemoryStore       one sorted map a period, or N shard maps Prefix .. Storage[@id] .. ".i/N"
//                     (i = 1..N), a key on shard (djb2 of its bytes mod N) + 1; the value is
//                     the item's numeric sort key

import { CloudError } from "./cloud.mjs";
import { CONTRACT } from "./contract.mjs";
import { encodingOf } from "./encodings.mjs";
import { listOf } from "./manifest.mjs";
import { RESETS, periodFor, periodAt } from "./periods.mjs";

/** The most a list page holds, ordered entries and sorted map items alike. */
const PAGE = /** @type {number} */ (CONTRACT.PageSize);
/** @type {readonly string[]} */
const Weekdays = CONTRACT.Periods.Weekdays;
const SEPARATOR = CONTRACT.Names.PeriodSeparator;

/** @typedef {import("./contract.mjs").LayoutBoard} LayoutBoard */
/** @typedef {import("./cloud.mjs").Cloud} Cloud */
/** @typedef {{ user: string, value: number, stored: number }} Row a row: its key, its value decoded and as stored */
/** @typedef {{ id: string | undefined, store: string }} Place a period (no id on an all-time board) and its store */

/**
 * The manifest's WeekStart (0..6, 0 = Sunday; a day's name is read too); absent, the library's default: Monday.
 * @param {unknown} value
 * @returns {number}
 */
function weekStart(value) {
	if (typeof value === "string" && Weekdays.includes(value)) return Weekdays.indexOf(value);
	return typeof value === "number" ? value : CONTRACT.Periods.WeekStart;
}

/**
 * Which shard of N a key lives on, as the library's MemoryStore backend works it out (0-based).
 * @param {string} key
 * @param {number} shards
 */
export function shardOf(key, shards) {
	let hash = 5381;
	for (const byte of Buffer.from(key, "utf8")) hash = (hash * 33 + byte) % 4_294_967_296;
	return hash % shards;
}

/** A usage problem with a board or period the user named: exit code 2. */
export class BoardError extends Error {}

export class Board {
	/**
	 * @param {string} name
	 * @param {LayoutBoard} config
	 * @param {Cloud} cloud
	 */
	constructor(name, config, cloud) {
		this.name = name;
		this.config = config;
		this.cloud = cloud;
		this.backend = config.Backend ?? "OrderedDataStore";
		this.prefix = String(config.Prefix ?? "");
		this.storage = String(config.Storage ?? name);
		this.shards = Math.max(1, Number(config.Shards ?? 1));
		this.ascending = config.Ascending === true;
		this.reset = config.Reset ?? undefined;
		this.encoding = encodingOf({ ...config, Name: name });
		if (this.reset !== undefined && !RESETS.includes(this.reset))
			throw new BoardError(
				`the manifest gives ${name} Reset = ${this.reset}; the tool knows ${RESETS.join(", ")}`,
			);
		/** @type {import("./periods.mjs").Rule | undefined} */
		this.rule = this.reset && {
			Reset: this.reset,
			ResetOffset: config.ResetOffset ?? 0,
			WeekStart: weekStart(config.WeekStart),
		};
	}

	/** Whether the tool can reach the board's stores (a Custom backend is the game's own). */
	get readable() {
		return this.backend === "OrderedDataStore" || this.backend === "MemoryStore";
	}

	checkReadable() {
		if (!this.readable)
			throw new BoardError(
				`${this.name} is on a ${this.backend} backend: the tool reaches OrderedDataStore and MemoryStore boards only`,
			);
	}

	/**
	 * The period a command means: { id, store } (id undefined on an all-time board).
	 * `which` is "current", "previous" or a period id; raises a BoardError for one the board has not.
	 * @param {string | undefined} which
	 * @param {number} now
	 * @returns {Place}
	 */
	period(which, now) {
		if (!this.rule) {
			if (which === undefined || which === "current") return { id: undefined, store: this.storeName() };
			throw new BoardError(`${this.name} is an all-time board; it has no period "${which}"`);
		}
		const period = periodFor(this.rule, which, now);
		if (!period)
			throw new BoardError(
				`${this.name} has no period "${which}" (a ${this.reset} period id looks like "${periodAt(this.rule, now).id}")`,
			);
		return { id: period.id, store: this.storeName(period.id) };
	}

	/**
	 * Every period the manifest lists for this board (all-time: the one store).
	 * @param {import("./manifest.mjs").Manifest} manifest
	 * @returns {Promise<Place[]>}
	 */
	async allPeriods(manifest) {
		if (!this.rule) return [{ id: undefined, store: this.storeName() }];
		return (await manifest.periods(this.storage)).map((id) => ({ id, store: this.storeName(id) }));
	}

	/**
	 * The store name of a period: Prefix .. Storage [.. "@" .. id].
	 * @param {string} [periodId]
	 */
	storeName(periodId) {
		return this.prefix + this.storage + (periodId === undefined ? "" : SEPARATOR + periodId);
	}

	/**
	 * The maps of a MemoryStore period (one, or one a shard); the store itself on OrderedDataStores.
	 * @param {string} store
	 */
	maps(store) {
		if (this.backend !== "MemoryStore" || this.shards === 1) return [store];
		return Array.from({ length: this.shards }, (_, i) => `${store}.${i + 1}/${this.shards}`);
	}

	/**
	 * Where a key of a period lives: its full store name (the shard's map on MemoryStore).
	 * @param {string} store
	 * @param {string} key
	 */
	placeOf(store, key) {
		return this.maps(store)[this.backend === "MemoryStore" ? shardOf(key, this.shards) : 0];
	}

	/**
	 * @param {string} key
	 * @param {number} stored
	 * @returns {Row}
	 */
	row(key, stored) {
		return { user: key, value: this.encoding.decode(stored), stored };
	}

	/**
	 * A key's stored number in a period's store, or undefined.
	 * @param {string} store
	 * @param {string} key
	 * @returns {Promise<number | undefined>}
	 */
	async get(store, key) {
		const place = this.placeOf(store, key);
		if (this.backend === "MemoryStore") {
			const { status, body } = await this.cloud.request(
				"GetMemoryStoreSortedMapItem",
				"GET",
				`${this.cloud.sortedMapItems(place)}/${encodeURIComponent(key)}`,
				{ accept: [404] },
			);
			return status === 404 ? undefined : itemNumber(body);
		}
		const { status, body } = await this.cloud.request(
			"GetOrderedDataStoreEntry",
			"GET",
			`${this.cloud.orderedEntries(place)}/${encodeURIComponent(key)}`,
			{ accept: [404] },
		);
		return status === 404 ? undefined : Number(body.value);
	}

	/**
	 * Removes a key from a period's store; whether it was there (a missing entry is no failure).
	 * @param {string} store
	 * @param {string} key
	 */
	async remove(store, key) {
		const place = this.placeOf(store, key);
		if (this.backend === "MemoryStore") {
			const { status } = await this.cloud.request(
				"DeleteMemoryStoreSortedMapItem",
				"DELETE",
				`${this.cloud.sortedMapItems(place)}/${encodeURIComponent(key)}`,
				{ accept: [404] },
			);
			return status !== 404;
		}
		const { status } = await this.cloud.request(
			"DeleteOrderedDataStoreEntry",
			"DELETE",
			`${this.cloud.orderedEntries(place)}/${encodeURIComponent(key)}`,
			{ accept: [404] },
		);
		return status !== 404;
	}

	/**
	 * The rows of a period's store, best first, as pages arrive: { user, value, stored }.
	 * `filter` (optional) is a stored-number bound: { better: stored } gives the rows
	 * strictly better than it. `pageSize` caps each request.
	 * @param {string} store
	 * @param {{ pageSize?: number, better?: number }} [bounds]
	 * @returns {AsyncGenerator<Row>}
	 */
	async *rows(store, { pageSize = PAGE, better } = {}) {
		if (this.backend === "MemoryStore") {
			const maps = this.maps(store);
			if (maps.length === 1) {
				yield* this.mapRows(maps[0], pageSize, better);
				return;
			}
			yield* merge(
				maps.map((map) => this.mapRows(map, pageSize, better)),
				(a, b) => compareRows(a, b, this.ascending),
			);
			return;
		}
		/** @type {string | undefined} */
		let pageToken;
		const filter =
			better === undefined ? undefined : this.ascending ? `entry <= ${better - 1}` : `entry >= ${better + 1}`;
		do {
			const { body } = await this.cloud.request(
				"ListOrderedDataStoreEntries",
				"GET",
				this.cloud.orderedEntries(store),
				{
					query: {
						maxPageSize: pageSize,
						orderBy: this.ascending ? "value" : "value desc",
						filter,
						pageToken,
					},
				},
			);
			for (const entry of /** @type {{ id: string, value: number }[]} */ (listOf(body.orderedDataStoreEntries)))
				yield this.row(String(entry.id), Number(entry.value));
			pageToken = body.nextPageToken || undefined;
		} while (pageToken);
	}

	/**
	 * @param {string} map
	 * @param {number} pageSize
	 * @param {number | undefined} better
	 * @returns {AsyncGenerator<Row>}
	 */
	async *mapRows(map, pageSize, better) {
		/** @type {string | undefined} */
		let pageToken;
		const filter = better === undefined ? undefined : `sortKey ${this.ascending ? "<" : ">"} ${better}`;
		do {
			const { body } = await this.cloud.request(
				"ListMemoryStoreSortedMapItems",
				"GET",
				this.cloud.sortedMapItems(map),
				{
					query: { maxPageSize: pageSize, orderBy: this.ascending ? "id" : "id desc", filter, pageToken },
					// A range read costs a unit a row returned, one when empty.
					cost: (page) => Math.max(1, listOf(page.items).length),
				},
			);
			for (const item of /** @type {SortedMapItem[]} */ (listOf(body.items)))
				yield this.row(String(item.id), itemNumber(item));
			pageToken = body.nextPageToken || undefined;
		} while (pageToken);
	}

	/**
	 * The best `count` rows of a period's store, ranked 1..count.
	 * @param {string} store
	 * @param {number} count
	 */
	async top(store, count) {
		/** @type {(Row & { rank: number })[]} */
		const rows = [];
		for await (const row of this.rows(store, { pageSize: Math.min(PAGE, count) })) {
			rows.push({ rank: rows.length + 1, ...row });
			if (rows.length >= count) break;
		}
		return rows;
	}

	/**
	 * A key's rank in a period's store: 1 + the rows strictly better, counted up to `limit`
	 * (then { rank: undefined, beyond: limit }); undefined when the key is not on it.
	 * @param {string} store
	 * @param {string} key
	 * @param {number} limit
	 * @returns {Promise<(Row & { rank: number | undefined, beyond?: number }) | undefined>}
	 */
	async rank(store, key, limit) {
		const stored = await this.get(store, key);
		if (stored === undefined) return undefined;
		let better = 0;
		for await (const _row of this.rows(store, { better: stored })) {
			better += 1;
			if (better >= limit) return { ...this.row(key, stored), rank: undefined, beyond: limit };
		}
		return { ...this.row(key, stored), rank: better + 1 };
	}

	/**
	 * How far through the store a row is, by its stored number between the best and the worst (0..1).
	 * @param {string} store
	 * @returns {Promise<{ best: number, worst: number } | undefined>}
	 */
	async range(store) {
		const first = await this.rows(store, { pageSize: 1 }).next();
		if (first.done) return undefined;
		const reversed = new Board(this.name, { ...this.config, Ascending: !this.ascending }, this.cloud);
		const last = await reversed.rows(store, { pageSize: 1 }).next();
		return { best: first.value.stored, worst: last.done ? first.value.stored : last.value.stored };
	}
}

/** @typedef {{ id: string, value?: unknown, numericSortKey?: number, stringSortKey?: string }} SortedMapItem */

/**
 * A sorted map item's number: its numeric sort key (the score), else a numeric value.
 * @param {SortedMapItem} item
 */
function itemNumber(item) {
	if (typeof item.numericSortKey === "number") return item.numericSortKey;
	if (typeof item.value === "number") return item.value;
	throw new CloudError(
		`the sorted map item ${item.id} holds no number (its sort key is ${JSON.stringify(item.stringSortKey)})`,
	);
}

/**
 * The order a board ranks rows: by stored number, ties by user id, both in the board's direction
 * (the sorted map's own order, read Descending on a descending board).
 * @param {Row} a
 * @param {Row} b
 * @param {boolean} ascending
 */
function compareRows(a, b, ascending) {
	const sign = ascending ? 1 : -1;
	if (a.stored !== b.stored) return sign * (a.stored - b.stored);
	return sign * (a.user < b.user ? -1 : a.user > b.user ? 1 : 0);
}

/**
 * Merges sorted async streams into one.
 * @template T
 * @param {AsyncGenerator<T>[]} streams
 * @param {(a: T, b: T) => number} compare
 * @returns {AsyncGenerator<T>}
 */
async function* merge(streams, compare) {
	const heads = await Promise.all(streams.map((stream) => stream.next()));
	for (;;) {
		let best = -1;
		for (let i = 0; i < heads.length; i++) {
			const head = heads[i];
			const leader = heads[best];
			if (!head.done && (best < 0 || leader.done || compare(head.value, leader.value) < 0)) best = i;
		}
		if (best < 0) return;
		const next = heads[best];
		if (next.done) return;
		yield next.value;
		heads[best] = await streams[best].next();
	}
}

/**
 * The layout's boards, by name.
 * @param {import("./contract.mjs").LayoutRecord} layout
 * @param {Cloud} cloud
 */
export function boardsOf(layout, cloud) {
	/** @type {Map<string, Board>} */
	const boards = new Map();
	for (const [name, config] of Object.entries(layout.Boards ?? {})) boards.set(name, new Board(name, config, cloud));
	return boards;
}

/**
 * The board the user named; a BoardError naming the boards when `name` is not one.
 * @param {import("./contract.mjs").LayoutRecord} layout
 * @param {Cloud} cloud
 * @param {string} name
 */
export function boardNamed(layout, cloud, name) {
	const board = boardsOf(layout, cloud).get(name);
	if (!board) {
		const names = Object.keys(layout.Boards ?? {}).sort();
		throw new BoardError(
			`no board ${name} in the manifest (it lists ${names.length > 0 ? names.join(", ") : "none"})`,
		);
	}
	return board;
}

/**
 * The board and period a full store name (an erasure record's Removed and Remaining)
 * names: { board, periodId, store } or undefined. The longest Prefix .. Storage that
 * matches wins; a MemoryStore name may end in a shard's ".i/N".
 * @param {Map<string, Board>} boards
 * @param {string} name
 * @returns {{ board: Board, periodId: string | undefined, store: string } | undefined}
 */
export function resolveStore(boards, name) {
	/** @type {{ board: Board, periodId: string | undefined, store: string, base: string } | undefined} */
	let found;
	for (const board of boards.values()) {
		const base = board.prefix + board.storage;
		if (!name.startsWith(base)) continue;
		let rest = name.slice(base.length);
		if (board.backend === "MemoryStore") rest = rest.replace(/\.\d+\/\d+$/, "");
		let periodId;
		if (rest.startsWith(SEPARATOR) && board.rule) periodId = rest.slice(SEPARATOR.length);
		else if (rest !== "") continue;
		if (!found || base.length > found.base.length)
			found = { board, periodId, store: board.storeName(periodId), base };
	}
	return found && { board: found.board, periodId: found.periodId, store: found.store };
}
