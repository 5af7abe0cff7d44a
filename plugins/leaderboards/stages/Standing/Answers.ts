import { SingleFlight } from "../../../../kernel";

/** Each of the stage's caches keeps this many answers, and as many older ones (a larger cache's older half goes). */
export const STANDING_CACHE_LIMIT = 1000;

export interface Answer<T> {
	readonly value: T;
	readonly at: number;
}

// Answers by id, fresh for `seconds`: the first caller reads, concurrent callers
// wait on that read, and a failed read (undefined) is not kept.
export class Answers<T> {
	private cache = new Map<string, Answer<T>>();
	// The answers kept before `cache` filled up: found until `cache` fills again.
	private older = new Map<string, Answer<T>>();
	private size = 0;
	private readonly flights = new Map<string, SingleFlight<T | undefined>>();
	// Bumped by clear(): a read begun before it does not fill the new cache.
	private generation = 0;

	constructor(
		private readonly clock: () => number,
		private readonly seconds: number,
		private readonly limit = STANDING_CACHE_LIMIT,
	) {}

	// The answer and when it was read, at any age. O(1).
	known(id: string): Answer<T> | undefined {
		return this.cache.get(id) ?? this.older.get(id);
	}

	// The answer when cached (at any age when `stale`), else undefined. O(1).
	cached(id: string, stale: boolean): T | undefined {
		const answer = this.known(id);
		return answer && (stale || this.clock() - answer.at < this.seconds) ? answer.value : undefined;
	}

	// Yields when the answer is missing or stale.
	fetch(id: string, read: () => T | undefined): T | undefined {
		const fresh = this.cached(id, false);
		if (fresh !== undefined) return fresh;
		return this.shared(id, () => {
			const generation = this.generation;
			const value = read();
			if (generation === this.generation && value !== undefined) this.keep(id, value);
			return value;
		});
	}

	// Yields: one read per id at a time, concurrent callers waiting on it; nothing kept.
	shared(id: string, read: () => T | undefined): T | undefined {
		let flight = this.flights.get(id);
		if (!flight) {
			const generation = this.generation;
			flight = new SingleFlight(() => {
				// A read that raises (a replaced stage's error) must not leave its flight for later callers.
				try {
					return read();
				} finally {
					if (generation === this.generation) this.flights.delete(id);
				}
			});
			if (!flight.settled()) this.flights.set(id, flight);
		}
		return flight.wait();
	}

	// Yields: keeps every answer a batch read returns, unless clear() came meanwhile.
	fill(read: () => Map<string, T> | undefined): Map<string, T> | undefined {
		const generation = this.generation;
		const found = read();
		if (found && generation === this.generation) for (const [id, value] of found) this.keep(id, value);
		return found;
	}

	clear() {
		this.generation += 1;
		this.cache = new Map();
		this.older = new Map();
		this.size = 0;
		this.flights.clear();
	}

	private keep(id: string, value: T) {
		if (!this.cache.has(id)) {
			if (this.size >= this.limit) {
				this.older = this.cache;
				this.cache = new Map();
				this.size = 0;
			}
			this.size += 1;
		}
		this.cache.set(id, { value, at: this.clock() });
	}
}
