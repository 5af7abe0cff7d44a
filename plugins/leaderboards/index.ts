export { Leaderboards, attach } from "./attach";
export {
	AROUND_COST,
	AROUND_RESERVE,
	MAX_KEY_LENGTH,
	OrderedStores,
	PAGE_SIZE,
	orderedDataStoreBackend,
} from "./backends/OrderedDataStore";
export { MAX_EXPIRATION, MemoryStore, MemoryStoreOptions, memoryStoreBackend } from "./backends/MemoryStore";
export { READ_SHARE, UNITS_PER_USER } from "./backends/memory/quota";
export { WRITERS_KEPT, sumItem } from "./backends/memory/ledger";
export { FAILURE_PAUSE } from "./Drainer";
export { REFILL_SECONDS } from "./Flusher";
export { CACHE_LIMIT, RESULTS_PER_MINUTE } from "./NameResolver";
export { DEFAULTS } from "./settings";
export { AROUND_DEFAULT, AROUND_LIMIT, FRIENDS_SECONDS, STANDING_CACHE_LIMIT } from "./Standing";
export * from "./types";
// The kernel the boards run on, so a game needs one package: import { Kernel, attach } from "@rbxts/leaderboards".
export {
	Bus,
	BusConnection,
	Kernel,
	KernelOptions,
	LogRecord,
	LogSink,
	Logger,
	Priority,
	Scheduler,
	Service,
	SingleFlight,
	StopResult,
	join,
	sleep,
} from "../../kernel";
