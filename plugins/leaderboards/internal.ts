// Not the package's API: tuning constants, engine facts and the rules the
// stages share, for specs and the bench. A game imports the package entry
// (./index), a game's own stage ./extend; nothing here is promised to stay.
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
export * from "./core/rules";
export * from "./core/periods";
export * from "./core/warnings";
export * from "./core/store";
export * from "./core/removals";
export * from "./core/merge/rule";
export * from "./core/merge/ruleOf";
export * from "./core/merge/keepBest";
export * from "./core/merge/keepNewest";
export * from "./core/merge/sum";
export * from "./core/drain";
export * from "./core/encodings/encoding";
export * from "./core/encodings/encodingOf";
export * from "./core/encodings/plain";
export * from "./core/encodings/big";
export * from "./core/encodings/earliest";
export type {
	Capability,
	Codec,
	Encoding,
	MergeRule,
	Period,
	PeriodRule,
	Refusal,
	ResetSchedule,
	TieBreakRule,
	ValueKind,
	Weekday,
} from "./contracts";
