import { Board } from "./board";

// The manifest (docs/manifest.md, the contract a tool outside the game reads): what the stages ask of
// it (the runtime that reads and writes it: core/manifest.ts). Its records' shapes are the contract
// with tools outside the game (./outside, generated from outside/contract.json).

/**
 * The manifest's store and its records. Reads skip GetAsync's cache (another server's write must be
 * seen); every request has RequestSeconds. A Reset board's period is noted before its first write on
 * this server, so an erasure never misses a store a value reached.
 */
export interface Manifest {
	/** This server, as leases name it. */
	readonly server: string;
	/** The manifest is kept (options.Manifest). */
	enabled(): boolean;
	/** Unix seconds, as leases and records count them. */
	now(): number;
	/** Yields. A record: (true, value or nil) or (false, why). */
	read(key: string): LuaTuple<[boolean, unknown]>;
	/** Yields. UpdateAsync: `transform(old)` returns the new record, or nil to write nothing; (ok, why). */
	update(key: string, transform: (old: unknown) => unknown): LuaTuple<[boolean, unknown]>;
	/** A store name as the manifest writes it: Prefix .. Storage[@Id] (a MemoryStore board's maps without the shard). */
	fullName(board: Board, periodId?: string): string;
	/** Yields. A Reset board's periods ever written (periods:<Storage>), ascending; undefined when unread. */
	periods(board: Board): string[] | undefined;
	/**
	 * Yields the first time a period of a Reset board is written on this server: its id is added to
	 * periods:<Storage> (a read, and an UpdateAsync only when missing). false when that failed: the write waits.
	 */
	note(board: Board, storage: string): boolean;
	/** Yields. Writes the layout when it differs from the stored one (one read at every start). */
	publishLayout(): boolean;
}
