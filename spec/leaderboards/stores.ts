import { Kernel } from "../../kernel";
import {
	Backend,
	BoardConfig,
	LeaderboardOptions,
	Leaderboards,
	OrderedStores,
	attach,
	memoryStoreBackend,
	orderedDataStoreBackend,
} from "../../plugins/leaderboards";
import { GateServer, HeadlessGate } from "../gate/control";

// Boards on either of the gate's stores, and what a store holds read back from the gate (never
// through the project): for specs that prove one promise on both backends.

export type StoreKind = "OrderedDataStore" | "MemoryStore";
export const STORE_KINDS: StoreKind[] = ["OrderedDataStore", "MemoryStore"];

/** A backend on `kind` (StorePrefix and MapPrefix "CKBoard_", MemoryStore over `shards` maps), on `server`'s services or this one's. */
export function backendOn(kind: StoreKind, server?: GateServer, shards = 1): Backend {
	const services = server?.game ?? game;
	return kind === "OrderedDataStore"
		? orderedDataStoreBackend(
				"CKBoard_",
				services.GetService("DataStoreService") as unknown as OrderedStores,
				services.GetService("Players"),
			)
		: memoryStoreBackend({
				Shards: shards,
				MemoryStoreService: services.GetService("MemoryStoreService"),
				Players: services.GetService("Players"),
			});
}

/** Boards on `kind` (StorePrefix and MapPrefix "CKBoard_"), on `server`'s services or this one's; SkipLoop. */
export function boardsOn(
	kind: StoreKind,
	boards: Record<string, BoardConfig>,
	server?: GateServer,
	options: Partial<LeaderboardOptions> = {},
	kernel = new Kernel({ bindToClose: false }),
): Leaderboards {
	return attach(kernel, { Boards: boards, Backend: backendOn(kind, server), SkipLoop: true, ...options });
}

/** Every stored number of a storage name ("Coins#Big"), as the store holds it: a MemoryStore item's sort key. */
export function storedOn(gate: HeadlessGate, kind: StoreKind, name: string): Map<string, number> {
	if (kind === "OrderedDataStore") return gate.dataStore.snapshot(`CKBoard_${name}`);
	const stored = new Map<string, number>();
	for (const item of gate.memoryStore.snapshot(`CKBoard_${name}`)) stored.set(item.key, item.sortKey as number);
	return stored;
}
