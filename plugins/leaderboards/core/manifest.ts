import { HttpService } from "@rbxts/services";
import { Kernel, SingleFlight, within } from "../../../kernel";
import { Board, CONTRACT, Manifest as ManifestContract, PeriodsRecord, Settings } from "../contracts";

// The manifest (docs/manifest.md, the contract a tool outside the game reads): one standard
// DataStore, StorePrefix .. "Manifest", holding the game's layout, the periods each board wrote,
// erasures and period ends. Every read and write of it goes through here. Its names and record shapes
// are the contract's (contracts/outside/contract.json), which the moderation tool reads too.

export const MANIFEST_VERSION = CONTRACT.Version;
const { Keys } = CONTRACT.Names;

/** A record with a lease: free when nobody holds it, its holder's time ran out, or this server holds it. */
export function leaseFree(record: { Holder?: string; Until?: number } | undefined, me: string, now: number): boolean {
	return record === undefined || record.Holder === me || (record.Until ?? 0) <= now;
}

/**
 * The same rule for a lease kept as [server id, experienceTime it runs out] in a shared MemoryStore
 * item (the shared pages' refresher, the records' asker): whether another server holds it at `at`.
 */
export function heldElsewhere(lease: [string, number] | undefined, server: string, at: number): boolean {
	return lease !== undefined && !leaseFree({ Holder: lease[0], Until: lease[1] }, server, at);
}

/** The value a read or update brought back, as a record of the expected shape, or undefined. */
export function recordOf<T>(value: unknown, field: string): T | undefined {
	return typeIs(value, "table") && (value as Record<string, unknown>)[field] !== undefined ? (value as T) : undefined;
}

// The layout a board is written with (docs/manifest.md, layout.Boards[name]).
function boardLayout(board: Board) {
	const layout = board.Store.backend.layout;
	const period = board.Period;
	return {
		Backend: layout?.Backend ?? "Custom",
		Prefix: layout?.Prefix ?? "",
		Shards: layout?.Shards ?? 1,
		Storage: board.storageFor(undefined),
		Values: board.Values,
		TieBreak: board.TieBreak,
		Reset: period?.Reset,
		ResetOffset: period?.ResetOffset,
		WeekStart: period && period.Reset === "Weekly" ? period.WeekStart : undefined,
		Ascending: board.Ascending,
		Sum: board.Sum,
		KeepBest: board.KeepBest,
	};
}

/** The manifest's store and records (contracts/manifest.ts): every read and write of it. */
export class Manifest implements ManifestContract {
	readonly server = HttpService.GenerateGUID(false);
	private opened?: DataStore;
	// Per storage name (board and tag): the period ids known to be in periods:<Storage>.
	private readonly known = new Map<string, Set<string>>();
	private readonly noting = new Map<string, SingleFlight<boolean>>();

	constructor(
		private readonly kernel: Kernel,
		private readonly settings: Settings,
	) {}

	enabled(): boolean {
		return this.settings.manifest;
	}

	now(): number {
		return this.settings.unixTime();
	}

	read(key: string): LuaTuple<[boolean, unknown]> {
		return this.request(() => {
			const options = new Instance("DataStoreGetOptions");
			options.UseCache = false;
			const [value] = this.dataStore().GetAsync<unknown>(key, options);
			return value;
		});
	}

	update(key: string, transform: (old: unknown) => unknown): LuaTuple<[boolean, unknown]> {
		return this.request(() => {
			this.dataStore().UpdateAsync<unknown, unknown>(key, (old) => $tuple(transform(old)));
			return undefined;
		});
	}

	fullName(board: Board, periodId?: string): string {
		return (board.Store.backend.layout?.Prefix ?? "") + board.storageFor(periodId);
	}

	periods(board: Board): string[] | undefined {
		const [ok, value] = this.read(Keys.Periods + board.storageFor(undefined));
		if (!ok) return undefined;
		const ids = recordOf<PeriodsRecord>(value, "Ids")?.Ids ?? [];
		const known = this.knownOf(board);
		for (const id of ids) known.add(id);
		return ids;
	}

	note(board: Board, storage: string): boolean {
		const id = board.Period && board.periodOf(storage);
		if (id === undefined || this.knownOf(board).has(id) || !this.enabled()) return true;
		let flight = this.noting.get(storage);
		if (!flight) {
			flight = new SingleFlight(() => this.add(board, id));
			this.noting.set(storage, flight);
		}
		const [ok, noted] = pcall(() => flight!.wait());
		if (this.noting.get(storage) === flight && flight.settled()) this.noting.delete(storage);
		return ok && noted === true;
	}

	publishLayout(): boolean {
		const boards: Record<string, unknown> = {};
		for (const [name, board] of this.settings.boards) boards[name] = boardLayout(board);
		const fresh = HttpService.JSONEncode(boards);
		const same = (old: unknown) =>
			recordOf<{ Boards: unknown }>(old, "Boards") !== undefined &&
			HttpService.JSONEncode((old as { Boards: unknown }).Boards) === fresh;
		const [ok, stored] = this.read(Keys.Layout);
		if (!ok) return false;
		if (same(stored)) return true;
		const layout = {
			Version: MANIFEST_VERSION,
			StorePrefix: this.settings.storePrefix,
			Updated: this.now(),
			Boards: boards,
		};
		const [written] = this.update(Keys.Layout, (old) => (same(old) ? undefined : layout));
		return written;
	}

	private add(board: Board, id: string): boolean {
		const ids = this.periods(board);
		if (ids === undefined) return false;
		if (ids.includes(id)) return true;
		const [ok] = this.update(Keys.Periods + board.storageFor(undefined), (old) => {
			const stored = recordOf<PeriodsRecord>(old, "Ids")?.Ids ?? [];
			if (stored.includes(id)) return undefined;
			const union = [...stored, id];
			union.sort();
			return { Version: MANIFEST_VERSION, Ids: union };
		});
		if (ok) this.knownOf(board).add(id);
		return ok;
	}

	private knownOf(board: Board): Set<string> {
		const storage = board.storageFor(undefined);
		let known = this.known.get(storage);
		if (!known) {
			known = new Set();
			this.known.set(storage, known);
		}
		return known;
	}

	private dataStore(): DataStore {
		this.opened ??= this.settings.dataStores.GetDataStore(this.settings.storePrefix + CONTRACT.Names.ManifestStore);
		return this.opened;
	}

	// One request under RequestSeconds; a failure or a request past it is (false, why).
	private request(work: () => unknown): LuaTuple<[boolean, unknown]> {
		if (!this.enabled()) return $tuple(false, "the manifest is off (options.Manifest = false)");
		const { RequestSeconds } = this.settings;
		const call = within(this.kernel.Scheduler, RequestSeconds, work);
		if (!call.settled) return $tuple(false, `past RequestSeconds (${RequestSeconds} s)`);
		if (!call.ok) return $tuple(false, call.problem);
		return $tuple(true, call.value);
	}
}
