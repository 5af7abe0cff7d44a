import { Logger, SingleFlight, within } from "../../../../kernel";
import { Entry, NameResolverStage, StageContext, Topics } from "../../contracts";
import { userIdOf } from "../../core";

const log = Logger.scope("Leaderboards");

/** UserService returns at most this many results a minute. */
export const RESULTS_PER_MINUTE = 250;
/** The cache starts over past this many users. */
export const CACHE_LIMIT = 1000;

interface Name {
	DisplayName: string;
	Username: string;
}

/**
 * names(entries): DisplayName and Username for entries keyed by UserId. Players
 * in this server resolve locally; the rest share one
 * UserService:GetUserInfosByUserIdsAsync call within 250 results a minute (by
 * the Clock option), and ids past the budget stay unnamed until a later call.
 * Concurrent calls share lookups: an id already being looked up is waited on,
 * not asked again.
 * Results are cached (starting over past 1,000 users), ids with no account are
 * remembered and never asked again, a failed call (or one past RequestSeconds)
 * warns and leaves entries unnamed. Keys that are not UserIds cost nothing.
 */
export class NameResolver implements NameResolverStage {
	readonly Name = "Leaderboards.NameResolver";
	private cache = new Map<number, Name>();
	private cached = 0;
	private readonly missing = new Set<number>();
	private spent = new Array<{ at: number; results: number }>();
	private readonly lookups = new Map<number, SingleFlight<void>>();

	constructor(private readonly context: StageContext) {
		// An erased key's user: forgotten.
		context.kernel.Bus.subscribe(Topics.Erasing, (_, key) => this.forget(key));
	}

	names(entries: Entry[]): Entry[] {
		const { players } = this.context.settings;
		const unnamed = new Array<Entry>();
		const ask = new Array<number>();
		const waits = new Set<SingleFlight<void>>();
		if (!typeIs(entries, "table")) error(`Leaderboards: names() takes an array of entries (got ${entries})`, 3);
		for (const entry of entries) {
			// A row a game built by hand may be anything: only { Key = "<UserId>" } rows are named.
			if (!typeIs(entry, "table")) continue;
			const id = userIdOf(entry.Key);
			if (id === undefined || this.missing.has(id)) continue;
			const player = players.GetPlayerByUserId(id);
			const known = player ? { DisplayName: player.DisplayName, Username: player.Name } : this.cache.get(id);
			if (known) {
				entry.DisplayName = known.DisplayName;
				entry.Username = known.Username;
				continue;
			}
			unnamed.push(entry);
			const inFlight = this.lookups.get(id);
			if (inFlight) waits.add(inFlight);
			else if (!ask.includes(id)) ask.push(id);
		}
		const allowed = this.budget();
		const batch = new Array<number>();
		for (const id of ask) if (batch.size() < allowed) batch.push(id);
		if (!batch.isEmpty()) {
			const lookup = new SingleFlight(() => this.lookup(batch));
			if (!lookup.settled()) for (const id of batch) this.lookups.set(id, lookup);
			waits.add(lookup);
		}
		for (const lookup of waits) lookup.wait();
		for (const entry of unnamed) {
			const known = this.cache.get(userIdOf(entry.Key)!);
			if (known) {
				entry.DisplayName = known.DisplayName;
				entry.Username = known.Username;
			}
		}
		return entries;
	}

	// An erased key's user: its name is not kept (a later names() asks again, if it must).
	private forget(key: string) {
		const id = userIdOf(key);
		if (id === undefined) return;
		if (this.cache.delete(id)) this.cached -= 1;
		this.missing.delete(id);
	}

	// One UserService call for ids nobody is looking up yet. Never raises.
	private lookup(batch: number[]) {
		// Counted as asked until the answer says how many results it spent.
		const spent = { at: this.context.settings.clock(), results: batch.size() };
		this.spent.push(spent);
		const { userService, RequestSeconds } = this.context.settings;
		const call = within(this.context.kernel.Scheduler, RequestSeconds, () =>
			userService.GetUserInfosByUserIdsAsync(batch),
		);
		for (const id of batch) this.lookups.delete(id);
		if (!call.ok || !typeIs(call.value, "table")) {
			const why = call.settled
				? tostring(call.problem ?? call.value)
				: `past RequestSeconds (${RequestSeconds} s)`;
			log.warn(`names(): UserService lookup failed, entries left unnamed: ${why}`);
			return;
		}
		const infos = call.value;
		spent.results = infos.size();
		const returned = new Set<number>();
		for (const info of infos) {
			if (!typeIs(info, "table") || !typeIs(info.Id, "number")) continue;
			returned.add(info.Id);
			this.remember(info.Id, { DisplayName: info.DisplayName, Username: info.Username });
		}
		for (const id of batch) if (!returned.has(id)) this.missing.add(id);
	}

	// Results left in the last minute's budget.
	private budget(): number {
		const now = this.context.settings.clock();
		this.spent = this.spent.filter((call) => now - call.at < 60);
		let used = 0;
		for (const call of this.spent) used += call.results;
		return RESULTS_PER_MINUTE - used;
	}

	private remember(id: number, name: Name) {
		if (!this.cache.has(id)) {
			if (this.cached >= CACHE_LIMIT) {
				this.cache = new Map();
				this.cached = 0;
			}
			this.cached += 1;
		}
		this.cache.set(id, name);
	}
}
