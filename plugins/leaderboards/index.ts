export { Leaderboards, attach } from "./attach";
export { MAX_KEY_LENGTH, OrderedStores, PAGE_SIZE, orderedDataStoreBackend } from "./backends/OrderedDataStore";
export { FAILURE_PAUSE } from "./Drainer";
export { CACHE_LIMIT, RESULTS_PER_MINUTE } from "./NameResolver";
export { DEFAULTS } from "./settings";
export * from "./types";
