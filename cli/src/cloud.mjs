// The Open Cloud v2 client: one request at a time per caller, plain fetch, the
// API key in the x-api-key header and nowhere else, paced by the tool's share
// (pacing.mjs), and errors that name their cause:
//
//   401  the key was refused (wrong, expired, revoked, or not allowed from this IP)
//   403  the key lacks the operation's permission scope: named
//   404  returned to the caller, which knows whether "absent" is an answer (an
//        entry) or a problem (no such universe, store or manifest)
//   409  returned to the caller (an etag that is no longer the entry's)
//   429  retried with exponential backoff (Retry-After when the answer has one),
//        the budget's pace halved meanwhile; an error naming the budget after the last try
//   5xx  retried a few times, then an error
//
// Paths, scopes and budgets are the openapi's (reference/cloud/openapi.json) and
// the data store limits page's (cloud-services/data-stores/error-codes-and-limits).

import { CONTRACT } from "./contract.mjs";

/** @typedef {keyof typeof CONTRACT.Budgets} Budget */
/** @typedef {{ scopes: string[], budget: Budget }} Operation */
/** @typedef {keyof typeof OPERATIONS} OperationName */
/**
 * An answer: its status and its JSON body (any shape: the caller reads the fields its operation has).
 * @typedef {{ status: number, body: any }} Answer
 */

/** Each operation: its permission scopes (x-roblox-scopes) and the budget it spends. */
export const OPERATIONS = /** @satisfies {Record<string, Operation>} */ ({
	ListOrderedDataStoreEntries: { scopes: ["universe.ordered-data-store.scope.entry:read"], budget: "OrderedList" },
	GetOrderedDataStoreEntry: { scopes: ["universe.ordered-data-store.scope.entry:read"], budget: "OrderedRead" },
	DeleteOrderedDataStoreEntry: { scopes: ["universe.ordered-data-store.scope.entry:write"], budget: "OrderedRemove" },
	GetDataStoreEntry: { scopes: ["universe-datastores.objects:read"], budget: "StandardRead" },
	CreateDataStoreEntry: { scopes: ["universe-datastores.objects:create"], budget: "StandardWrite" },
	UpdateDataStoreEntry: { scopes: ["universe-datastores.objects:update"], budget: "StandardWrite" },
	ListMemoryStoreSortedMapItems: { scopes: ["memory-store.sorted-map:read"], budget: "MemoryStore" },
	GetMemoryStoreSortedMapItem: { scopes: ["memory-store.sorted-map:read"], budget: "MemoryStore" },
	DeleteMemoryStoreSortedMapItem: { scopes: ["memory-store.sorted-map:write"], budget: "MemoryStore" },
});
Object.freeze(OPERATIONS);

/** A failure the user must act on: its message names the cause; exit code 1. */
export class CloudError extends Error {
	/**
	 * @param {string} message
	 * @param {number} [status]
	 */
	constructor(message, status) {
		super(message);
		this.status = status;
	}
}

const RETRIES_429 = 6; // waits of 1, 2, 4, 8, 16, 32 s: about a minute, when the budget refills
const RETRIES_5XX = 3;
const MAX_WAIT = 60;

/** @param {string} text */
const segment = (text) => encodeURIComponent(text);

export class Cloud {
	/**
	 * @param {{ baseUrl: string, apiKey: string, universe: string | number,
	 *   pacer: import("./pacing.mjs").Pacer, note?: (text: string) => void,
	 *   wait?: (ms: number) => Promise<void>, fetch?: typeof fetch }} options
	 *   note: retries, on stderr; wait and fetch: the tests'
	 */
	constructor({ baseUrl, apiKey, universe, pacer, note = () => {}, wait, fetch: fetcher = fetch }) {
		this.baseUrl = baseUrl.replace(/\/+$/, "");
		this.apiKey = apiKey;
		this.universe = String(universe);
		this.pacer = pacer;
		this.note = note;
		/** @type {(ms: number) => Promise<void>} */
		this.wait = wait ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
		this.fetch = fetcher;
		this.requests = 0;
		/** @type {{ unix: number, at: number } | undefined} from the last Date header */
		this.serverTime = undefined;
	}

	/** Unix seconds by Open Cloud's clock (its Date header), or this machine's before any answer. */
	now() {
		if (!this.serverTime) return Date.now() / 1000;
		return this.serverTime.unix + (performance.now() - this.serverTime.at) / 1000;
	}

	/** @param {string[]} parts */
	universePath(...parts) {
		return `/cloud/v2/universes/${segment(this.universe)}/${parts.join("/")}`;
	}

	/**
	 * @param {string} store
	 * @param {string} [scope]
	 */
	orderedEntries(store, scope = CONTRACT.Names.Scope) {
		return this.universePath("ordered-data-stores", segment(store), "scopes", segment(scope), "entries");
	}

	/**
	 * @param {string} store
	 * @param {string} [scope]
	 */
	standardEntries(store, scope = CONTRACT.Names.Scope) {
		return this.universePath("data-stores", segment(store), "scopes", segment(scope), "entries");
	}

	/** @param {string} map */
	sortedMapItems(map) {
		return this.universePath("memory-store", "sorted-maps", segment(map), "items");
	}

	/** The key, never shown: any text that would carry it is cut (a key of a few letters cannot be told from words). */
	/** @param {unknown} text */
	redact(text) {
		return this.apiKey.length >= 8 ? String(text).split(this.apiKey).join("<api key>") : String(text);
	}

	/**
	 * One operation: { status, body }. `accept` lists the statuses the caller handles
	 * (404, 409, 400); any other failure throws a CloudError naming its cause. `cost(body)`
	 * gives what an answer cost in the budget's units past the one paid before sending
	 * (a sorted map range read: a unit a row returned).
	 * @param {OperationName} operation
	 * @param {"GET" | "POST" | "PATCH" | "DELETE"} method
	 * @param {string} path
	 * @param {{ query?: Record<string, string | number | undefined>, body?: unknown,
	 *   cost?: (body: any) => number, accept?: number[] }} [options]
	 * @returns {Promise<Answer>}
	 */
	async request(operation, method, path, { query, body, cost, accept = [] } = {}) {
		const { budget, scopes } = OPERATIONS[operation];
		const url = new URL(this.baseUrl + path);
		for (const [name, value] of Object.entries(query ?? {}))
			if (value !== undefined) url.searchParams.set(name, String(value));
		/** @type {Record<string, string>} */
		const headers = { "x-api-key": this.apiKey };
		if (body !== undefined) headers["content-type"] = "application/json";
		for (let attempt = 0; ; attempt++) {
			await this.pacer.acquire(budget, 1);
			let response;
			try {
				this.requests += 1;
				response = await this.fetch(url, {
					method,
					headers,
					body: body === undefined ? undefined : JSON.stringify(body),
				});
			} catch (failure) {
				const error = /** @type {Error & { cause?: Error }} */ (failure);
				throw new CloudError(
					`cannot reach Open Cloud at ${this.baseUrl}: ${this.redact(error?.cause?.message ?? error?.message ?? error)}`,
				);
			}
			const date = Date.parse(response.headers.get("date") ?? "");
			if (!Number.isNaN(date)) this.serverTime = { unix: date / 1000, at: performance.now() };
			const text = await response.text();
			let parsed;
			try {
				parsed = text === "" ? {} : JSON.parse(text);
			} catch {
				parsed = { message: text.slice(0, 200) };
			}
			const { status } = response;
			if (status >= 200 && status < 300) {
				this.pacer.recover(budget);
				if (cost) this.pacer.charge(budget, cost(parsed) - 1);
				return { status, body: parsed };
			}
			if (accept.includes(status)) return { status, body: parsed };
			const detail = describe(status, parsed);
			if (status === 401)
				throw new CloudError(
					`Open Cloud refused the API key (${detail}): check LEADERBOARDS_API_KEY; the key may be wrong, expired or revoked, or not allowed from this IP address`,
					status,
				);
			if (status === 403)
				throw new CloudError(
					`the API key lacks the permission ${scopes.join(" and ")} for universe ${this.universe} (${detail}); add it to the key on the Creator Dashboard (API Keys)`,
					status,
				);
			if (status === 404)
				throw new CloudError(
					`Open Cloud found no such universe or store (${detail}): universe ${this.universe}, ${decodeURIComponent(path.replace(/^\/cloud\/v2\//, ""))}`,
					status,
				);
			const retries = status === 429 ? RETRIES_429 : status >= 500 ? RETRIES_5XX : 0;
			if (attempt < retries) {
				const after = Number(response.headers.get("retry-after"));
				const seconds = Math.min(MAX_WAIT, after > 0 ? after : 2 ** attempt * (1 + Math.random() * 0.25));
				if (status === 429) this.pacer.slowDown(budget);
				this.note(
					status === 429
						? `Open Cloud: the experience's ${budget} budget is spent for now (${detail}; game servers share it); retrying in ${seconds.toFixed(1)} s`
						: `Open Cloud: ${detail}; retrying in ${seconds.toFixed(1)} s`,
				);
				await this.wait(seconds * 1000);
				continue;
			}
			if (status === 429)
				throw new CloudError(
					`the experience's ${budget} budget stayed spent after ${retries + 1} tries over about a minute (${detail}); game servers share it: try again later, or lower --share`,
					status,
				);
			throw new CloudError(
				`Open Cloud failed: ${detail} (${method} ${decodeURIComponent(url.pathname)})`,
				status,
			);
		}
	}
}

/**
 * "404 NOT_FOUND: The entry does not exist." from either error format.
 * @param {number} status
 * @param {any} body
 */
function describe(status, body) {
	const gateway = Array.isArray(body?.errors) ? body.errors[0] : undefined;
	const code = body?.code ?? body?.error;
	const message = body?.message ?? gateway?.message;
	return (
		[status, typeof code === "string" ? code : undefined].filter(Boolean).join(" ") +
		(message ? `: ${message}` : "")
	);
}
