// The manifest the library writes (docs/manifest.md, the contract): a standard
// DataStore named StorePrefix .. "Manifest" (default CKBoard_Manifest), scope
// "global", with the keys layout, periods:<Storage>, erasure:<key> and erasures,
// whose names and record shapes are the contract's (cli/src/contract.mjs).
//
// Values are JSON written by Luau, so an empty list may arrive as {} as well as [].

import { CONTRACT } from "./contract.mjs";

const { Names } = CONTRACT;
export const DEFAULT_PREFIX = Names.StorePrefix;
const ATTEMPTS = 10; // read-modify-write rounds before giving up on a busy record

/** @typedef {{ value: any, etag: string }} Entry a key's value (JSON, any shape) and its etag */

/**
 * A list from the manifest: [] for an absent or empty one, whichever way JSON wrote it.
 * @param {unknown} value
 * @returns {unknown[]}
 */
export function listOf(value) {
	if (Array.isArray(value)) return value;
	if (value && typeof value === "object") return Object.values(value);
	return [];
}

/**
 * A standard entry id on the path: an id holding "@" is read at its latest revision
 * (Get Data Store Entry: "append the special revision ID @latest").
 * @param {import("./cloud.mjs").Cloud} cloud
 * @param {string} store
 * @param {string} key
 * @param {boolean} reading
 */
function entryPath(cloud, store, key, reading) {
	const id = reading && key.includes("@") ? `${key}@latest` : key;
	return `${cloud.standardEntries(store)}/${encodeURIComponent(id)}`;
}

export class Manifest {
	/**
	 * @param {import("./cloud.mjs").Cloud} cloud
	 * @param {string} [prefix]
	 */
	constructor(cloud, prefix = DEFAULT_PREFIX) {
		this.cloud = cloud;
		this.prefix = prefix;
		this.store = prefix + Names.ManifestStore;
		/** @type {Map<string, string[]>} */
		this.periodsCache = new Map();
		/** @type {Map<string, Entry | undefined>} each key as this tool last read or wrote it */
		this.known = new Map();
		/** @type {import("./contract.mjs").LayoutRecord | undefined} */
		this.layoutValue = undefined;
	}

	/**
	 * { value, etag } of a key, or undefined when the key is absent.
	 * @param {string} key
	 * @returns {Promise<Entry | undefined>}
	 */
	async read(key) {
		const { status, body } = await this.cloud.request(
			"GetDataStoreEntry",
			"GET",
			entryPath(this.cloud, this.store, key, true),
			{ accept: [404] },
		);
		const found = status === 404 ? undefined : { value: body.value, etag: body.etag };
		this.known.set(key, found);
		return found;
	}

	/**
	 * The layout; an error naming what to check when there is none.
	 * @returns {Promise<import("./contract.mjs").LayoutRecord>}
	 */
	async layout() {
		if (this.layoutValue) return this.layoutValue;
		const found = await this.read(Names.Keys.Layout);
		if (!found || typeof found.value !== "object" || typeof found.value.Boards !== "object")
			throw new ManifestError(
				`no manifest layout in universe ${this.cloud.universe} (data store ${this.store}, key "layout"): the universe does not exist, or no server has run the library since it began writing its manifest, or the game's StorePrefix is not "${this.prefix}" (--prefix)`,
			);
		this.layoutValue = found.value;
		return found.value;
	}

	/**
	 * Every period id of a Reset board's storage, ascending.
	 * @param {string} storage
	 * @returns {Promise<string[]>}
	 */
	async periods(storage) {
		if (!this.periodsCache.has(storage)) {
			const found = await this.read(Names.Keys.Periods + storage);
			const ids = listOf(found?.value?.Ids).map(String).sort();
			this.periodsCache.set(storage, ids);
		}
		return this.periodsCache.get(storage) ?? [];
	}

	/**
	 * Read-modify-write of one key, safe against game servers updating it at the same
	 * time (their UpdateAsync, the tool's etag): `change(value | undefined)` returns the
	 * new value, or undefined to leave it. Returns the value stored in the end.
	 * @template {object} T the record's shape (the contract's)
	 * @param {string} key
	 * @param {(value: T | undefined) => T | undefined} change
	 * @returns {Promise<T | undefined>}
	 */
	async update(key, change) {
		for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
			// What this tool last read or wrote first (no read spent); its etag tells if anyone wrote since.
			const found = attempt === 0 && this.known.has(key) ? this.known.get(key) : await this.read(key);
			const next = change(found?.value === undefined ? undefined : structuredClone(found.value));
			if (next === undefined) return found?.value;
			if (!found) {
				const created = await this.cloud.request(
					"CreateDataStoreEntry",
					"POST",
					this.cloud.standardEntries(this.store),
					{ query: { id: key }, body: { value: next }, accept: [400] },
				);
				if (
					created.status === 400 &&
					created.body?.code === "INVALID_ARGUMENT" &&
					/exist/i.test(created.body?.message ?? "")
				)
					continue; // a server created it meanwhile: read it again
				if (created.status === 400)
					throw new ManifestError(`Open Cloud refused to create ${key}: ${created.body?.message}`);
				this.known.set(key, { value: next, etag: created.body.etag });
				return next;
			}
			const updated = await this.cloud.request(
				"UpdateDataStoreEntry",
				"PATCH",
				entryPath(this.cloud, this.store, key, false),
				{
					body: { value: next, etag: found.etag },
					accept: [409, 412, 404],
				},
			);
			if (updated.status === 200) {
				this.known.set(key, { value: next, etag: updated.body.etag });
				return next;
			}
			// 409/412: another writer got there first; 404: it was removed meanwhile. Read again.
			this.known.delete(key);
		}
		throw new ManifestError(
			`${this.store} key ${key} kept changing under ${ATTEMPTS} attempts to update it; try again`,
		);
	}
}

/** A manifest that is missing or not as docs/manifest.md says: exit code 1. */
export class ManifestError extends Error {}
