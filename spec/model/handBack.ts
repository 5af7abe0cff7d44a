import { Backend } from "../../plugins/leaderboards";

// The model test's closes mid-erasure (issue 47): a real server ends when its close handlers return, so
// an erasure it worked on must be handed back by then. When destroy() returns within ShutdownSeconds, no
// pending erasure record may name the server as its holder (the next server would wait out the 60 s
// lease); a close that spent all of ShutdownSeconds (its drain's deadline, a throttle queue full of the
// game's other requests ahead of the write) may leave it to run out. A store the record says was cleared
// is removed again at most once after that (the sweep), unless a server was killed since (a killed
// holder's successor redoes what it had not written back).

/** An erasure's record as a closing server left it. */
interface HandedBack {
	readonly server: number;
	readonly at: number;
	readonly removed: ReadonlySet<string>;
}

export class HandBacks {
	private readonly handed = new Map<string, HandedBack[]>();
	// Removes that returned true, per key and store name (as the manifest writes it): when, and by which server.
	private readonly removes = new Map<string, { at: number; server: number }[]>();
	readonly violations = new Array<string>();

	constructor(private readonly now: () => number) {}

	/** The backend, its removes counted as server `index`'s. */
	counting(backend: Backend, index: number): Backend {
		const remove = backend.remove;
		if (!remove) return backend;
		const prefix = backend.layout?.Prefix ?? "";
		return {
			...backend,
			remove: (store, key, call) => {
				const removed = remove(store, key, call);
				if (removed !== true) return removed;
				const id = `${key}|${prefix}${store}`;
				const list = this.removes.get(id) ?? [];
				list.push({ at: this.now(), server: index });
				this.removes.set(id, list);
				return removed;
			},
		};
	}

	/** Closes that began while their server held an erasure's lease: what the check is about. */
	midErasure = 0;

	/** Server `holder` (its manifest id) calls destroy(): counted when it holds an erasure now. */
	closing(holder: string, manifest: Map<string, unknown>) {
		for (const [name, value] of manifest)
			if (name.sub(1, 8) === "erasure:" && (value as { Holder?: string }).Holder === holder) this.midErasure += 1;
	}

	/**
	 * Server `index` (its manifest id `holder`) returned from destroy(), `inTime` before its deadline: what
	 * its erasure records say now.
	 */
	closed(index: number, holder: string, manifest: Map<string, unknown>, inTime: boolean) {
		for (const [name, value] of manifest) {
			if (name.sub(1, 8) !== "erasure:") continue;
			const record = value as { Key: string; State: string; Holder?: string; Removed?: string[] };
			if (record.State !== "pending") continue;
			if (record.Holder === holder && inTime)
				this.violations.push(
					`server ${index} returned from destroy() still holding the erasure of ${record.Key}`,
				);
			const list = this.handed.get(record.Key) ?? [];
			list.push({ server: index, at: this.now(), removed: new Set(record.Removed ?? []) });
			this.handed.set(record.Key, list);
		}
	}

	/** At the end: stores handed back as cleared and removed twice more (a redo besides the sweep). */
	check(killedAt: ReadonlyMap<number, number>) {
		for (const [key, backs] of this.handed)
			for (const back of backs) {
				let killedSince = false;
				for (const [, at] of killedAt) if (at >= back.at) killedSince = true;
				if (killedSince) continue;
				for (const store of back.removed) {
					const later = (this.removes.get(`${key}|${store}`) ?? []).filter((remove) => remove.at > back.at);
					if (later.size() > 1)
						this.violations.push(
							`${store}: ${key} removed ${later.size()} times after server ${back.server} handed it back as cleared`,
						);
				}
			}
	}
}
