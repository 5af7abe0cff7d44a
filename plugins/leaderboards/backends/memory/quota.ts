import { CONTRACT } from "../../contracts";
import { refilled } from "../../core";

/** What each user adds to the experience's request-unit quota a minute (1000 + 120 x users). */
export const UNITS_PER_USER = CONTRACT.Budgets.MemoryStore[1];
/**
 * The part of this server's share kept for reads (top, scores, around); writes have the rest.
 * Writes also take the read bucket's units above half of it, so a server that reads little writes
 * at its whole share, and one whose reads cost more than their part never starves its writes.
 */
export const READ_SHARE = 0.5;

interface Bucket {
	tokens?: number;
	updated?: number;
	readonly part: number;
}

/**
 * This server's share of the experience's MemoryStore quota: the per-user term
 * for its own players (120 x players a minute, one player's worth at least, so
 * a server whose players left can still drain; the base 1000 is left as the
 * experience's headroom), as two buckets of a minute each. Reads get
 * READ_SHARE; writes the rest plus the read bucket's units above half of it.
 * Reads spend after the fact (a range read costs what it returns), so their
 * bucket may go into debt, which only delays later reads.
 */
export class Quota {
	private readonly reads: Bucket = { part: READ_SHARE };
	private readonly writes: Bucket = { part: 1 - READ_SHARE };

	constructor(
		private readonly players: Players,
		/** The time source of the refill: the attach's Clock (os.clock for a call without one). */
		public clock: () => number,
	) {}

	/** Units a minute this server claims. */
	share(): number {
		return UNITS_PER_USER * math.max(1, this.players.GetPlayers().size());
	}

	/** Read units held now (negative: in debt). */
	readable(whole = this.share()): number {
		return this.level(this.reads, whole);
	}

	/** Write units available now: the write bucket, then the read bucket's upper half. */
	writable(): number {
		const whole = this.share();
		return (
			math.max(0, this.level(this.writes, whole)) + math.max(0, this.readable(whole) - (whole * READ_SHARE) / 2)
		);
	}

	spendWrite() {
		if (this.level(this.writes) >= 1) this.writes.tokens! -= 1;
		else this.reads.tokens = this.readable() - 1;
	}

	spendRead(units: number) {
		this.reads.tokens = this.readable() - units;
	}

	/** The experience's quota ran out (TotalRequestsOverLimit): nothing is left this minute. */
	empty() {
		this.writes.tokens = math.min(this.level(this.writes), 0);
		this.reads.tokens = math.min(this.readable(), 0);
	}

	private level(bucket: Bucket, whole = this.share()): number {
		const size = whole * bucket.part;
		const now = this.clock();
		const since = bucket.updated === undefined ? 0 : now - bucket.updated;
		bucket.tokens = refilled(bucket.tokens, since, size, size);
		bucket.updated = now;
		return bucket.tokens;
	}
}
