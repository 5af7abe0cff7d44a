// The package: what a game uses (the stage contracts only as options.Stages names them). A game's own
// stage imports ./extend (@rbxts/leaderboards/extend); tuning constants are in ./internal, not API.
export { Leaderboards, attach } from "./attach";
export { MemoryStore, MemoryStoreOptions, memoryStoreBackend } from "./backends/MemoryStore";
export { OrderedStores, orderedDataStoreBackend } from "./backends/OrderedDataStore";
export { FormatOptions, SHORT_SUFFIXES, format } from "./format";
export type * from "./contracts/entries";
export type * from "./contracts/options";
export type * from "./contracts/backend";
export * from "./contracts/topics";
export type * from "./contracts/settings";
export type * from "./contracts/stages";
export type * from "./contracts/durable";
export type { Period, PeriodRule, ResetSchedule, Weekday } from "./contracts/periods";
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
