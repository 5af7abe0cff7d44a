// The stage author's entry: @rbxts/leaderboards/extend (Leaderboards.Extend in Luau). Everything a game's
// own stage (options.Stages) needs to meet its contract, and nothing a game needs alone: the game's entry
// is ./index. What is here follows the package's version: a change that breaks a stage written against it
// is a major version (docs/extending.md).

// The stage contracts, what each is built with, and what they share.
export type {
	DrainLimits,
	DrainerStage,
	EraserStage,
	FlusherStage,
	HeraldStage,
	NameResolverStage,
	PagesStage,
	QueueStage,
	ReaderStage,
	RefresherStage,
	ReplicatorStage,
	RewardsStage,
	SharedPage,
	StageContext,
	StageFactories,
	StageFactory,
	Stages,
	StandingStage,
} from "./contracts/stages";
export type { Settings, PlayerLookup, UserLookup } from "./contracts/settings";
export type { Board, BoardFields } from "./contracts/board";
export type { Capability, Store } from "./contracts/store";
export type { Manifest } from "./contracts/manifest";
export type { Removals } from "./contracts/removals";
export type { Codec, Encoding, TieBreakRule, ValueKind } from "./contracts/encoding";
export type { MergeRule, Refusal } from "./contracts/merge";
export type { Period, PeriodRule } from "./contracts/periods";
export type { BackendWrite, PendingWrite } from "./contracts/backend";
// What a stage hands back and publishes: rows, a window's summary, the drain's result, the topics,
// and the kernel's one-result Promise (a replaced Flusher's landed(), its window run once).
export type { Entry, ShutdownResult, Standing, Subject, WindowSummary } from "./contracts/entries";
export type { Visible } from "./contracts/visible";
export { Topics } from "./contracts/topics";
export { SingleFlight } from "../../kernel";
// The rules a stage applies as the default stages do, each written once.
export {
	SUBJECTS,
	SubjectKey,
	experienceTime,
	isUpdateConflict,
	refuseKey,
	refuseValue,
	storableKey,
	storeOf,
	subjectKey,
	updaterFor,
	userIdOf,
	writeThrough,
} from "./core/rules";
export { isThrottle } from "./core/store";
// A write carried to the store with every promise a Flusher keeps (stage API 2.1).
export { StoreWrite } from "./core/storeWrite";
export { Warnings, shown } from "./core/warnings";
export { isBetter } from "./core/merge/rule";
export { periodAt, periodNamed, previousPeriod, secondsUntilRoll, storageName } from "./core/periods";
export { landingSeconds } from "./core/drain";
export { visibleOf } from "./core/visible";
