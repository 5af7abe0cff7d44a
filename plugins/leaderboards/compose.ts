import { Logger, Service } from "../../kernel";
import { StageContext, StageFactories, StageFactory, Stages } from "./contracts";
import { callable, checkKeys, fail } from "./checks";
import { Drainer } from "./stages/Drainer/Drainer";
import { Eraser } from "./stages/Eraser/Eraser";
import { Flusher } from "./stages/Flusher/Flusher";
import { Herald } from "./stages/Herald/Herald";
import { NameResolver } from "./stages/NameResolver/NameResolver";
import { Pages } from "./stages/Pages/Pages";
import { Queue } from "./stages/Queue/Queue";
import { Reader } from "./stages/Reader/Reader";
import { Refresher } from "./stages/Refresher/Refresher";
import { Replicator } from "./stages/Replicator/Replicator";
import { Rewards } from "./stages/Rewards/Rewards";
import { Standing } from "./stages/Standing/Standing";

const log = Logger.scope("Leaderboards");

/**
 * What a stage owes the others, member by member, derived from its contract: a required method is
 * `true` (attach refuses a replacement without it), an optional hook names what goes off without it
 * (attach warns once). A member added to a contract does not compile until its row says which.
 */
type Obligations<T> = {
	readonly [M in Exclude<keyof T, keyof Service>]-?: object extends Pick<T, M> ? string : true;
};

interface Row<K extends keyof Stages> {
	readonly name: K;
	/** The default stage's class. */
	readonly stage: new (context: StageContext) => Stages[K];
	readonly owes: Obligations<Stages[K]>;
}

const row = <K extends keyof Stages>(
	name: K,
	stage: new (context: StageContext) => Stages[K],
	owes: Obligations<Stages[K]>,
) => ({ name, stage, owes }) as Row<K>;

// The stages in the order attach builds them and the kernel starts them, each with its default.
const STAGES = [
	row("Queue", Queue, {
		submit: true,
		pending: true,
		pendingOn: true,
		waiting: true,
		take: true,
		restore: true,
		settle: true,
		close: true,
		takeRecord: "values entering the visible top wait for an ordinary window instead of a prompt one",
		recordsOn: "prompt windows find no records to write",
		remove: "remove() raises (it needs a Queue stage with remove())",
		drop: "erase() leaves the key's queued values to be written",
	}),
	row("Flusher", Flusher, {
		flushNow: true,
		runWindow: true,
		disarm: true,
		inFlight: true,
		unresolved: true,
		landed: true,
		isWriting: true,
		armed: true,
		lastThrottled: "a drain counts windows the store throttled as windows of a store that accepts nothing",
	}),
	row("Reader", Reader, {
		top: true,
		scores: true,
		release: true,
		forget: "a removed key stays on cached pages until they refresh",
		erase: "an erased key stays on cached pages until they refresh",
		patch: "records other servers announce are not patched into cached pages",
	}),
	row("NameResolver", NameResolver, {
		names: true,
		forget: "an erased key's names stay cached",
	}),
	row("Drainer", Drainer, { destroy: true, destroyed: true }),
	row("Standing", Standing, { rank: true, around: true, friends: true, remove: true }),
	row("Refresher", Refresher, {}),
	row("Pages", Pages, {
		read: true,
		erase: "an erased key stays on shared pages until they refresh",
	}),
	row("Herald", Herald, {}),
	row("Eraser", Eraser, {
		erase: true,
		erasure: true,
		handedBack:
			"a close may return before an erasure under way is handed back: the next server waits out its lease",
	}),
	row("Rewards", Rewards, { onPeriodEnd: true }),
	row("Replicator", Replicator, { ignored: true }),
] as const;

// Every stage has its row: a stage of Stages named nowhere above leaves Unlisted non-empty, and then
// STAGE_NAMES's type is never and this does not compile.
type Unlisted = Exclude<keyof Stages, (typeof STAGES)[number]["name"]>;
const STAGE_NAMES: ReadonlySet<string> & ([Unlisted] extends [never] ? unknown : never) = new Set<string>(
	STAGES.map((stage) => stage.name),
);

/** options.Stages, checked: a table of factories, each named for a stage. */
export function checkFactories(own: unknown) {
	if (own === undefined) return;
	if (!typeIs(own, "table")) fail("options.Stages", "must be a table of stage factories", own);
	checkKeys("options.Stages", own, STAGE_NAMES);
	for (const [name, factory] of pairs(own))
		if (!callable(factory)) fail(`options.Stages.${name}`, "must be a function (context) -> stage", factory);
}

// A game's stage meets its contract: a table with a Name and every required method (else refused, naming
// the stage and the method); each hook it leaves out warns once, naming what goes off.
function checkStage(name: string, stage: unknown, owes: Readonly<Record<string, string | true>>) {
	const field = `options.Stages.${name}`;
	if (!typeIs(stage, "table")) fail(field, `must return a table with the ${name} stage's methods`, stage);
	const members = stage as Record<string, unknown>;
	if (!typeIs(members.Name, "string"))
		fail(field, "returned a stage without a Name (its kernel service name)", members.Name);
	// In name order: the same member is named first, and the warnings come in one order, on every run.
	const names = new Array<string>();
	for (const [member] of pairs(owes)) names.push(member);
	names.sort();
	for (const method of names)
		if (owes[method] === true && !callable(members[method]))
			fail(field, `returned a stage without ${method}()`, members[method]);
	for (const hook of names)
		if (owes[hook] !== true && members[hook] === undefined) log.warn(`${field} has no ${hook}(): ${owes[hook]}`);
}

/**
 * Builds every stage, the game's own (options.Stages) in place of a default, in one order, into
 * `context.stages`; returns them in that order for the kernel. Raises without a position for a
 * replacement that breaks its contract: attach() raises it at the game's call.
 */
export function composeStages(context: StageContext, own: StageFactories): Service[] {
	const stages = context.stages as Record<keyof Stages, Service>;
	const built = new Array<Service>();
	for (const row of STAGES) {
		const { name, owes } = row;
		const factory = own[name] as StageFactory<Service> | undefined;
		const stage = factory ? factory(context) : new (row.stage as new (context: StageContext) => Service)(context);
		if (factory) checkStage(name, stage, owes as Readonly<Record<string, string | true>>);
		stages[name] = stage;
		built.push(stage);
	}
	return built;
}
