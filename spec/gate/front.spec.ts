import { afterAll, beforeEach, describe, expect, it } from "@rbxts/jest-globals";
import { DataStoreService, HttpService } from "@rbxts/services";
import { headlessGate } from "./control";

// The loopback HTTP front (spec/gate/front.mjs, engine/front.luau): a process outside the gate sends
// real HTTP requests, answered by the emulated Open Cloud v2 with the gateway's checks (the x-api-key
// header, cloud/auth/api-keys; the gateway's error format and the v2 codes, cloud/reference/errors;
// the openapi's x-roblox-scopes) and the gate calendar's Date header.

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;
const FETCH = "spec/gate/fixtures/front/fetch.mjs";
const ENTRIES = "/cloud/v2/universes/42/ordered-data-stores/Kills/scopes/global/entries";
const STANDARD = "/cloud/v2/universes/42/data-stores/CKBoard_Manifest/scopes/global/entries";

interface Answer {
	status: number;
	date: string;
	body: { code?: string; message?: string; value?: unknown; etag?: string; errors?: unknown[] };
}

type Request = [method: string, path: string, key: string, body?: object];

// The requests, sent one after another by a client outside the gate: a process of its own, or
// (cheaper) a call of its main in the front's worker.
function sendFrom(process: boolean, ...requests: Request[]): Answer[] {
	const list = HttpService.JSONEncode(requests);
	const exit = process ? gate!.front.run([FETCH, list]) : gate!.front.invoke(FETCH, [list]);
	if (exit.code !== 0) error(`fetch.mjs failed: ${exit.stderr}`);
	return HttpService.JSONDecode(exit.stdout) as Answer[];
}
const send = (...requests: Request[]) => sendFrom(false, ...requests);

describeGate("the loopback HTTP front of Open Cloud", () => {
	beforeEach(() => {
		gate!.reset();
		gate!.front.serve({
			universe: 42,
			keys: {
				k: [
					"universe.ordered-data-store.scope.entry:read",
					"universe.ordered-data-store.scope.entry:write",
					"universe-datastores.objects:read",
					"universe-datastores.objects:create",
					"universe-datastores.objects:update",
				],
				readOnly: ["universe.ordered-data-store.scope.entry:read"],
			},
		});
		gate!.front.clearLog();
	});
	afterAll(() => {
		gate!.front.stop();
		gate!.reset();
	});

	it("answers a real HTTP request from another process with the store the game servers write", () => {
		DataStoreService.GetOrderedDataStore("Kills").SetAsync("p1", 12);
		const [got, posted] = sendFrom(
			true,
			["GET", `${ENTRIES}/p1`, "k"],
			["POST", `${ENTRIES}?id=p2`, "k", { value: 7 }],
		);
		expect([got.status, got.body.value]).toEqual([200, 12]);
		// The Date header is the gate's calendar (Sunday 2026-12-06 unless placed), not the wall clock.
		expect(got.date.match("^Sun, 06 Dec 2026")[0]).toBeDefined();
		expect(posted.status).toBe(200);
		expect(DataStoreService.GetOrderedDataStore("Kills").GetAsync("p2")).toBe(7);
		expect(gate!.front.log().map((entry) => `${entry.operation} ${entry.status}`)).toEqual([
			"GetOrderedDataStoreEntry 200",
			"CreateOrderedDataStoreEntry 200",
		]);
	});

	it("plays the gateway: 401 for an unknown key, 404 for another universe, 403 naming the scope a key lacks", () => {
		const [unknown, none, elsewhere, denied] = send(
			["GET", `${ENTRIES}/p1`, "nope"],
			["GET", `${ENTRIES}/p1`, ""],
			["GET", "/cloud/v2/universes/7/ordered-data-stores/Kills/scopes/global/entries/p1", "k"],
			["DELETE", `${ENTRIES}/p1`, "readOnly"],
		);
		expect(unknown.status).toBe(401);
		expect(unknown.body.errors).toEqual([{ code: 0, message: "Invalid API Key" }]);
		expect(none.status).toBe(401);
		expect([elsewhere.status, elsewhere.body.code]).toEqual([404, "NOT_FOUND"]);
		expect([denied.status, denied.body.code]).toEqual([403, "PERMISSION_DENIED"]);
		expect(denied.body.message).toContain("universe.ordered-data-store.scope.entry:write");
	});

	it("serves standard data store entries with etags: an update with a stale etag is 409 ABORTED", () => {
		const [created] = send(["POST", `${STANDARD}?id=erasures`, "k", { value: { Version: 1, Pending: ["1"] } }]);
		expect(created.status).toBe(200);
		const etag = created.body.etag!;
		const [first, stale, latest] = send(
			["PATCH", `${STANDARD}/erasures`, "k", { value: { Version: 1, Pending: [] }, etag }],
			["PATCH", `${STANDARD}/erasures`, "k", { value: { Version: 1, Pending: ["2"] }, etag }],
			["GET", `${STANDARD}/erasures@latest`, "k"],
		);
		expect(first.status).toBe(200);
		expect([stale.status, stale.body.code]).toEqual([409, "ABORTED"]);
		expect(latest.body.value).toEqual({ Version: 1, Pending: [] });
		expect(gate!.dataStore.standard.snapshot("CKBoard_Manifest").get("erasures")).toEqual({
			Version: 1,
			Pending: [],
		});
		// A game server reads what the tool wrote.
		const [value] = DataStoreService.GetDataStore("CKBoard_Manifest").GetAsync("erasures");
		expect(value).toEqual({ Version: 1, Pending: [] });
	});
});
