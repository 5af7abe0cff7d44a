import { BackendCall } from "../../contracts";
import { Ledger } from "./ledger";
import { Quota } from "./quota";
import { Ranges } from "./range";
import { Shards } from "./shards";

/** The longest an item may live, and the default: 3,888,000 s (45 days). */
export const MAX_EXPIRATION = 3_888_000;

/** What one MemoryStore backend's reads and writes share: its quota share, shards, ranged reads and sum ledger. */
export interface MemoryParts {
	readonly quota: Quota;
	readonly shards: Shards;
	readonly ranges: Ranges;
	readonly ledger: Ledger;
	/** Seconds an item lives after its last write (Expiration). */
	readonly expiration: number;
}

/** Time is the attach's Clock, from each call's context (os.clock for a call made without one). */
export function clocked(parts: MemoryParts, call?: BackendCall) {
	if (call) parts.quota.clock = call.Clock;
}
