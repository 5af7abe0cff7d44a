// Not the package's API: tuning constants, engine facts and the rules the
// stages share, for specs, the bench and a game's own stage that wants them.
// A game imports the package entry (./index); nothing here is promised to stay.
export { AROUND_COST, AROUND_RESERVE, MAX_KEY_LENGTH, PAGE_SIZE } from "./backends/OrderedDataStore";
export { MAX_EXPIRATION } from "./backends/MemoryStore";
export { READ_SHARE, UNITS_PER_USER } from "./backends/memory/quota";
export { WRITERS_KEPT, sumItem } from "./backends/memory/ledger";
export { RECORD_ROOM, REFILL_SECONDS } from "./stages/Flusher/Flusher";
export { CACHE_LIMIT, RESULTS_PER_MINUTE } from "./stages/NameResolver/NameResolver";
export { DEFAULTS } from "./settings";
export { AROUND_DEFAULT, AROUND_LIMIT } from "./stages/Standing/around";
export { FRIENDS_SECONDS } from "./stages/Standing/friends";
export { STANDING_CACHE_LIMIT } from "./stages/Standing/Answers";
export * from "./types/rules";
export * from "./types/periods";
export * from "./types/warnings";
export * from "./types/store";
export * from "./types/removals";
export * from "./types/merge/rule";
export * from "./types/merge/ruleOf";
export * from "./types/merge/keepBest";
export * from "./types/merge/keepNewest";
export * from "./types/merge/sum";
export * from "./types/drain";
export * from "./types/encodings/encoding";
export * from "./types/encodings/encodingOf";
export * from "./types/encodings/plain";
export * from "./types/encodings/big";
export * from "./types/encodings/earliest";
