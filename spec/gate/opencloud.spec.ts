import { afterEach, beforeEach, describe, expect, it } from "@rbxts/jest-globals";
import { DataStoreService, MemoryStoreService } from "@rbxts/services";
import { OpenCloudError, headlessGate } from "./control";
import { together } from "./together";

// Each expectation follows the Open Cloud v2 openapi.json of the creator docs (reference/cloud):
// ordered data store entries (Cloud_ListOrderedDataStoreEntries ... Cloud_IncrementOrderedDataStoreEntry:
// at most 10 a page unless asked, 100 at most, "value" / "value desc", filters "entry >= N && entry <= M",
// "Returns a 400 Bad Request if the entry exists", values "rounded to the nearest integer") and sorted map
// items (Cloud_*MemoryStoreSortedMapItem: 1 a page unless asked, "id" / "id desc", filters on id and
// sortKey with < and >), errors as cloud/reference/errors gives them, and the data store limits page:
// "Game server and Open Cloud share a budget; Open Cloud traffic can be throttled by in-experience usage
// (and vice versa)".

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;
const ENTRIES = "universes/1/ordered-data-stores/Kills/scopes/global/entries";
const ITEMS = "universes/1/memory-store/sorted-maps/Ladder/items";

type Options = { query?: Record<string, string | number | boolean>; body?: object };
const call = (method: "GET" | "POST" | "PATCH" | "DELETE", path: string, options?: Options) =>
	gate!.openCloud.request(method, path, options);
const codeOf = (body: unknown) => (body as OpenCloudError).code;

interface Entry {
	path: string;
	id: string;
	value: number;
}
interface Item {
	id: string;
	value: unknown;
	numericSortKey?: number;
	stringSortKey?: string;
	etag?: string;
	expireTime?: string;
}

function idsOf(body: unknown, field: "orderedDataStoreEntries" | "items") {
	return ((body as Record<string, { id: string }[]>)[field] ?? []).map((row) => row.id);
}

describeGate("the emulated Open Cloud v2", () => {
	beforeEach(() => gate!.reset());
	afterEach(() => gate!.reset());

	describe("ordered data store entries", () => {
		it("create, get, update, increment and delete, on the store the game servers read", () => {
			const created = call("POST", ENTRIES, { query: { id: "p1" }, body: { value: 5.6 } });
			expect(created.status).toBe(200);
			expect(created.body).toEqual({ path: `${ENTRIES}/p1`, id: "p1", value: 6 });
			expect(DataStoreService.GetOrderedDataStore("Kills").GetAsync("p1")).toBe(6);
			expect(codeOf(call("POST", ENTRIES, { query: { id: "p1" }, body: { value: 1 } }).body)).toBe(
				"INVALID_ARGUMENT",
			);
			expect((call("GET", `${ENTRIES}/p1`).body as Entry).value).toBe(6);
			expect((call("PATCH", `${ENTRIES}/p1`, { body: { value: 9 } }).body as Entry).value).toBe(9);
			const missing = call("PATCH", `${ENTRIES}/p2`, { body: { value: 3 } });
			expect([missing.status, codeOf(missing.body)]).toEqual([404, "NOT_FOUND"]);
			expect(call("PATCH", `${ENTRIES}/p2`, { query: { allowMissing: true }, body: { value: 3 } }).status).toBe(
				200,
			);
			expect((call("POST", `${ENTRIES}/p2:increment`, { body: { amount: 4 } }).body as Entry).value).toBe(7);
			expect((call("POST", `${ENTRIES}/p3:increment`, { body: { amount: 2 } }).body as Entry).value).toBe(2);
			expect(call("POST", `${ENTRIES}/p3:increment`, { body: { amount: 1.5 } }).status).toBe(400);
			expect(call("DELETE", `${ENTRIES}/p3`)).toEqual({ status: 200, body: {} });
			expect(call("DELETE", `${ENTRIES}/p3`).status).toBe(404);
			expect(call("GET", `${ENTRIES}/p3`).status).toBe(404);
			expect(gate!.dataStore.snapshot("Kills")).toEqual(
				new Map([
					["p1", 9],
					["p2", 7],
				]),
			);
			expect(gate!.openCloud.calls("CreateOrderedDataStoreEntry")).toBe(2);
		});

		it("lists 10 a page unless asked (100 at most), by value or value desc, filtered, with page tokens", () => {
			const stored = new Map<string, number>();
			for (let i = 1; i <= 150; i++) stored.set(`k${i}`, i);
			gate!.dataStore.seed("Kills", stored);
			const first = call("GET", ENTRIES);
			expect(idsOf(first.body, "orderedDataStoreEntries")).toEqual([
				"k1",
				"k2",
				"k3",
				"k4",
				"k5",
				"k6",
				"k7",
				"k8",
				"k9",
				"k10",
			]);
			const big = call("GET", ENTRIES, { query: { maxPageSize: 500, orderBy: "value desc" } });
			expect(idsOf(big.body, "orderedDataStoreEntries").size()).toBe(100);
			expect(idsOf(big.body, "orderedDataStoreEntries")[0]).toBe("k150");
			const query = { maxPageSize: 15, filter: "entry >= 10 && entry <= 30" };
			const page1 = call("GET", ENTRIES, { query });
			const token = (page1.body as { nextPageToken: string }).nextPageToken;
			const page2 = call("GET", ENTRIES, { query: { ...query, pageToken: token } });
			expect(idsOf(page2.body, "orderedDataStoreEntries")).toEqual(["k25", "k26", "k27", "k28", "k29", "k30"]);
			expect((page2.body as { nextPageToken?: string }).nextPageToken).toBeUndefined();
			expect(call("GET", ENTRIES, { query: { pageToken: token } }).status).toBe(400); // parameters changed
			expect(call("GET", ENTRIES, { query: { filter: "value > 3" } }).status).toBe(400);
			expect(call("GET", ENTRIES, { query: { orderBy: "id" } }).status).toBe(400);
		});

		it("spend the experience budget the game servers spend: 429 RESOURCE_EXHAUSTED past it, never queued", () => {
			// 300 + 20 x 0 writes a minute for the whole experience.
			const errors = together(300, (i) => {
				const reply = call("POST", ENTRIES, { query: { id: `k${i}` }, body: { value: i } });
				if (reply.status !== 200) error(codeOf(reply.body));
			});
			expect(errors).toEqual([]);
			const over = call("PATCH", `${ENTRIES}/k1`, { body: { value: 0 } });
			expect(over.status).toBe(429);
			expect(over.body).toEqual({
				code: "RESOURCE_EXHAUSTED",
				message: "OrderedWrite request was throttled by experience limits.",
			});
			// A game server with its own writes left now waits in its queue for the experience.
			expect(DataStoreService.GetRequestBudgetForRequestType(Enum.DataStoreRequestType.OrderedWrite)).toBe(30);
			DataStoreService.GetOrderedDataStore("Kills").SetAsync("game", 1);
			expect(gate!.dataStore.throttled()).toBe(1);
		});

		it("are throttled by in-experience usage: a server that spent the experience's reads leaves Open Cloud 429", () => {
			DataStoreService.SetRateLimitForRequestType(Enum.DataStoreRequestType.OrderedRead, 10_000, 0);
			const store = DataStoreService.GetOrderedDataStore("Kills");
			expect(together(300, (i) => store.GetAsync(`k${i}`))).toEqual([]);
			expect(call("GET", `${ENTRIES}/k1`).status).toBe(429);
			task.wait(1); // 300 a minute: five back a second
			expect(call("GET", `${ENTRIES}/k1`).status).toBe(404);
		});

		it("a fault plan by operation: 500 INTERNAL by default, a coded message keeps its code, a landed write", () => {
			gate!.openCloud.fault({ method: "GetOrderedDataStoreEntry", failNext: 1 });
			expect(call("GET", `${ENTRIES}/a`).status).toBe(500);
			gate!.openCloud.fault({ method: "GetOrderedDataStoreEntry", failNext: 1, message: "UNAVAILABLE: down" });
			expect(call("GET", `${ENTRIES}/a`)).toEqual({
				status: 503,
				body: { code: "UNAVAILABLE", message: "down" },
			});
			gate!.openCloud.fault({ method: "IncrementOrderedDataStoreEntry", failNext: 1, landed: true });
			expect(call("POST", `${ENTRIES}/a:increment`, { body: { amount: 5 } }).status).toBe(500);
			expect(gate!.dataStore.snapshot("Kills").get("a")).toBe(5);
			expect(call("GET", "universes/1/no-such/thing").status).toBe(404);
		});
	});

	describe("MemoryStore sorted map items", () => {
		it("create, get, update and delete on the map the game servers read, with etag and expireTime", () => {
			const created = call("POST", ITEMS, {
				query: { id: "p1" },
				body: { value: { kills: 3 }, ttl: "60s", numericSortKey: 3 },
			});
			expect(created.status).toBe(200);
			const item = created.body as Item;
			expect([item.id, item.numericSortKey, item.etag]).toEqual(["p1", 3, "1"]);
			expect(item.expireTime).toBe(os.date("!%Y-%m-%dT%H:%M:%SZ", os.time() + 60));
			const [value, sortKey] = MemoryStoreService.GetSortedMap("Ladder").GetAsync("p1");
			expect([value, sortKey]).toEqual([{ kills: 3 }, 3]);
			expect(call("POST", ITEMS, { query: { id: "p1" }, body: { value: 1, ttl: "60s" } }).status).toBe(400);
			expect(call("POST", ITEMS, { query: { id: "p2" }, body: { value: 1 } }).status).toBe(400); // no ttl
			const updated = call("PATCH", `${ITEMS}/p1`, { body: { value: { kills: 4 } } }).body as Item;
			expect([updated.value, updated.numericSortKey, updated.etag]).toEqual([{ kills: 4 }, 3, "2"]);
			expect(call("PATCH", `${ITEMS}/p9`, { body: { value: 1, ttl: "5s" } }).status).toBe(404);
			expect(
				call("PATCH", `${ITEMS}/p9`, {
					query: { allowMissing: true },
					body: { value: 1, ttl: "5s", stringSortKey: "z" },
				}).status,
			).toBe(200);
			expect((call("GET", `${ITEMS}/p9`).body as Item).stringSortKey).toBe("z");
			expect(call("DELETE", `${ITEMS}/p9`)).toEqual({ status: 200, body: {} });
			expect(call("GET", `${ITEMS}/p9`).status).toBe(404);
		});

		it("lists 1 a page unless asked, by id or id desc, filtered on id and sortKey, with page tokens", () => {
			const map = MemoryStoreService.GetSortedMap("Ladder");
			for (let i = 1; i <= 9; i++) map.SetAsync(`k${i}`, i, 60);
			expect(idsOf(call("GET", ITEMS).body, "items")).toEqual(["k1"]);
			const query = { maxPageSize: 3, orderBy: "id desc", filter: 'id > "k2" && id < "k9"' };
			const page1 = call("GET", ITEMS, { query });
			expect(idsOf(page1.body, "items")).toEqual(["k8", "k7", "k6"]);
			const token = (page1.body as { nextPageToken: string }).nextPageToken;
			expect(idsOf(call("GET", ITEMS, { query: { ...query, pageToken: token } }).body, "items")).toEqual([
				"k5",
				"k4",
				"k3",
			]);
			expect(call("GET", ITEMS, { query: { pageToken: token } }).status).toBe(400);
			expect(call("GET", ITEMS, { query: { filter: "value > 3" } }).status).toBe(400);
		});

		it("spend the memory stores' request units: 429 RESOURCE_EXHAUSTED past a limit", () => {
			gate!.memoryStore.setStructureLimit(3);
			for (let i = 1; i <= 3; i++) expect(call("GET", `${ITEMS}/k`).status).toBe(404);
			const over = call("GET", `${ITEMS}/k`);
			expect([over.status, codeOf(over.body)]).toEqual([429, "RESOURCE_EXHAUSTED"]);
			expect(gate!.memoryStore.refused("DataStructureRequestsOverLimit")).toBe(1);
		});
	});
});
