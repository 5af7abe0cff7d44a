import { afterEach, beforeEach, describe, expect, it } from "@rbxts/jest-globals";
import { DataStoreService } from "@rbxts/services";
import { headlessGate } from "./control";
import { together } from "./together";

// Standard data stores (DataStoreService:GetDataStore), following the GlobalDataStore and
// DataStoreKeyInfo references and create.roblox.com/docs/cloud-services/data-stores/:
// error-codes-and-limits ("Data limits": names, keys and scopes 50 characters, a value 4,194,304
// characters of JSON; the error-code table: 101-105, 301-306, 502, 513; "Access limits": the
// server defaults StandardRead/Write/Remove 60 + 40 x players and the experience's 300 + 40, 20
// and 40 x CCU) and versioning-listing-and-caching ("Caching": four seconds, UseCache = false).

const gate = headlessGate();
const describeGate = gate ? describe : describe.skip;
const BARE = "spec/gate/fixtures/bare/default.project.json";

// The gate's stores also take what the typings leave out (a function, nil).
type Loose = {
	SetAsync: (this: unknown, key: string, value: unknown) => string;
	UpdateAsync: (this: unknown, key: string, transform: () => unknown) => unknown;
};
const loose = (store: DataStore) => store as unknown as Loose;

function fresh(): DataStoreGetOptions {
	const options = new Instance("DataStoreGetOptions");
	options.UseCache = false;
	return options;
}

describeGate("the emulated standard DataStore", () => {
	beforeEach(() => gate!.reset());
	afterEach(() => gate!.reset());

	describe("values, keys, names", () => {
		it("stores what JSON holds, as a copy, and answers with a copy", () => {
			const store = DataStoreService.GetDataStore("Manifest");
			const record = { owner: "server-1", boards: ["Kills", "Wins"], lease: { until: 120.5 } };
			store.SetAsync("record", record);
			record.boards.push("changed after the write");
			const [value] = store.GetAsync<typeof record>("record");
			expect(value).toEqual({ owner: "server-1", boards: ["Kills", "Wins"], lease: { until: 120.5 } });
			value!.owner = "changed after the read";
			expect(gate!.dataStore.standard.snapshot("Manifest").get("record")).toEqual({
				owner: "server-1",
				boards: ["Kills", "Wins"],
				lease: { until: 120.5 },
			});
		});

		it("101 and 102 for keys; names and scopes of 1 to 50 characters", () => {
			const store = DataStoreService.GetDataStore("Keys");
			expect(() => store.SetAsync("", 1)).toThrow("101: Key name can't be empty.");
			expect(() => store.GetAsync(string.rep("k", 51))).toThrow("102: Key name exceeds the 50 character limit.");
			store.SetAsync(string.rep("k", 50), 1);
			expect(() => DataStoreService.GetDataStore(string.rep("s", 51))).toThrow("50 characters");
			expect(() => DataStoreService.GetDataStore("Keys", string.rep("s", 51))).toThrow("1 to 50 characters");
		});

		it("each scope, and the ordered store of the same name, is a store of its own", () => {
			DataStoreService.GetDataStore("Same").SetAsync("k", "global");
			DataStoreService.GetDataStore("Same", "other").SetAsync("k", "other");
			DataStoreService.GetOrderedDataStore("Same").SetAsync("k", 5);
			expect(DataStoreService.GetDataStore("Same").GetAsync("k")[0]).toBe("global");
			expect(DataStoreService.GetDataStore("Same", "other").GetAsync("k")[0]).toBe("other");
			expect(DataStoreService.GetOrderedDataStore("Same").GetAsync("k")).toBe(5);
		});

		it("104 for what JSON cannot hold or is not UTF-8, 105 past 4,194,304 characters of JSON", () => {
			const store = loose(DataStoreService.GetDataStore("Values"));
			expect(() => store.SetAsync("f", () => 1)).toThrow("104: Can't store function in DataStore.");
			expect(() => store.SetAsync("i", new Instance("Folder"))).toThrow(
				"104: Can't store Instance in DataStore.",
			);
			expect(() => store.SetAsync("s", string.char(255))).toThrow("104: Can't store string in DataStore.");
			// A string's JSON is the string and its two quotes.
			store.SetAsync("fits", string.rep("x", 4_194_302));
			expect(() => store.SetAsync("over", string.rep("x", 4_194_303))).toThrow(
				"105: Serialized value exceeds 4MB limit.",
			);
			expect(gate!.dataStore.standard.snapshot("Values").has("over")).toBe(false);
		});

		it("a key's DataStoreKeyInfo: version, created and updated on the calendar, user ids, metadata", () => {
			const store = DataStoreService.GetDataStore("Info");
			const created = math.floor(DateTime.now().UnixTimestampMillis);
			const options = new Instance("DataStoreSetOptions");
			options.SetMetadata({ schema: 2 });
			const version = store.SetAsync("k", "a", [101], options);
			task.wait(10);
			store.SetAsync("k", "b", [102]);
			const [value, info] = store.GetAsync<string>("k", fresh());
			expect(value).toBe("b");
			expect(info.Version).never.toBe(version);
			expect(info.CreatedTime - created).toBeLessThan(100);
			expect(info.UpdatedTime - info.CreatedTime).toBeGreaterThanOrEqual(10_000);
			expect(info.GetUserIds()).toEqual([102]);
			expect(info.GetMetadata()).toEqual({});
		});
	});

	describe("the calls", () => {
		it("UpdateAsync gives the transform (value, keyInfo), keeps its user ids and metadata, nil cancels", () => {
			const store = DataStoreService.GetDataStore("Update");
			store.SetAsync("lease", { owner: "a" }, [1]);
			const [value, info] = store.UpdateAsync<{ owner: string }, { owner: string }>("lease", (old, keyInfo) => {
				expect(old).toEqual({ owner: "a" });
				expect(keyInfo!.GetUserIds()).toEqual([1]);
				return $tuple({ owner: "b" }, [2], { reason: "expired" });
			});
			expect(value).toEqual({ owner: "b" });
			expect(info.GetUserIds()).toEqual([2]);
			expect(info.GetMetadata()).toEqual({ reason: "expired" });
			store.UpdateAsync("lease", () => $tuple(undefined));
			expect(gate!.dataStore.standard.snapshot("Update").get("lease")).toEqual({ owner: "b" });
			expect(() => loose(store).UpdateAsync("lease", () => () => 1)).toThrow(
				"103: Can't allow function in DataStore.",
			);
		});

		it("IncrementAsync adds integers; RemoveAsync returns what it removed", () => {
			const store = DataStoreService.GetDataStore("Counts");
			expect(store.IncrementAsync("n")[0]).toBe(1);
			expect(store.IncrementAsync("n", 41)[0]).toBe(42);
			expect(() => store.IncrementAsync("n", 0.5)).toThrow("104: Can't store 0.5 in DataStore.");
			const [old, info] = store.RemoveAsync<number>("n");
			expect(old).toBe(42);
			expect(info!.Version).toBe("2");
			expect(store.GetAsync("n", fresh())[0]).toBeUndefined();
		});

		it("GetAsync answers from its instance's cache for four seconds, spending nothing; UseCache = false asks the store", () => {
			const server = gate!.newServer(BARE);
			const other = server.game.GetService("DataStoreService").GetDataStore("Cached");
			const store = DataStoreService.GetDataStore("Cached");
			store.SetAsync("k", 1);
			const reads = gate!.dataStore.standard.calls("GetAsync");
			expect(store.GetAsync("k")[0]).toBe(1); // from the cache SetAsync filled
			expect(gate!.dataStore.standard.calls("GetAsync")).toBe(reads);
			other.SetAsync("k", 2);
			expect(store.GetAsync("k")[0]).toBe(1);
			expect(store.GetAsync("k", fresh())[0]).toBe(2);
			other.SetAsync("k", 3);
			task.wait(4);
			expect(store.GetAsync("k")[0]).toBe(3);
			expect(gate!.dataStore.standard.calls("GetAsync")).toBe(reads + 2);
			server.close();
		});
	});

	describe("budgets and faults", () => {
		it("GetAsync spends StandardRead at both levels: 60 a minute on an empty server, 30 queued, then 301", () => {
			const store = DataStoreService.GetDataStore("Budget");
			const errors = together(91, (i) => store.GetAsync(`k${i}`, fresh()));
			expect(errors).toEqual(["301: GetAsync request dropped. Request was throttled but queue was full."]);
			expect(gate!.dataStore.dropped("GetAsyncThrottle")).toBe(1);
		});

		it("UpdateAsync spends StandardRead and StandardWrite, RemoveAsync StandardRemove", () => {
			const store = DataStoreService.GetDataStore("Budget");
			store.UpdateAsync("k", () => $tuple(1));
			store.RemoveAsync("k");
			expect(gate!.dataStore.budget("StandardRead")).toBe(59);
			expect(gate!.dataStore.budget("StandardWrite")).toBe(59);
			expect(gate!.dataStore.budget("StandardRemove")).toBe(59);
			expect(gate!.dataStore.experienceBudget("StandardRemove")).toBe(299);
		});

		it("past the experience's 300 writes a minute: StandardWriteExperienceThrottled", () => {
			DataStoreService.SetRateLimitForRequestType(Enum.DataStoreRequestType.StandardWrite, 10_000, 0);
			const store = DataStoreService.GetDataStore("Writes");
			expect(together(331, (i) => store.SetAsync(`k${i}`, i))).toEqual([
				"StandardWriteExperienceThrottled: StandardWrite request was throttled by experience limits.",
			]);
		});

		it("a fault plan of its own: 502 by default, a failed write may have landed; the ordered plan leaves it alone", () => {
			const store = DataStoreService.GetDataStore("Faults");
			gate!.dataStore.fault({ method: "SetAsync", failNext: 5 });
			gate!.dataStore.standard.fault({ method: "SetAsync", failNext: 1 });
			expect(() => store.SetAsync("a", 1)).toThrow("502: API Services rejected the request");
			expect(gate!.dataStore.standard.snapshot("Faults").has("a")).toBe(false);
			gate!.dataStore.standard.fault({ method: "SetAsync", failNext: 1, landed: true });
			expect(() => store.SetAsync("b", 2)).toThrow("502");
			expect(gate!.dataStore.standard.snapshot("Faults").get("b")).toBe(2);
			store.SetAsync("c", 3);
			expect(gate!.dataStore.standard.snapshot("Faults").get("c")).toBe(3);
		});

		it("seed stores data as written before the run, spending nothing", () => {
			gate!.dataStore.standard.seed("Seeded", new Map([["k", { v: 1 }]]));
			expect(DataStoreService.GetDataStore("Seeded").GetAsync("k")[0]).toEqual({ v: 1 });
			expect(gate!.dataStore.budget("StandardWrite")).toBe(60);
		});
	});
});
