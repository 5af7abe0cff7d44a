import { Backend } from "./backend";
import { Board } from "./board";
import { Store } from "./store";

/** What names() needs of UserService (a spec may hand it a double). */
export interface UserLookup {
	GetUserInfosByUserIdsAsync(userIds: Array<number>): Array<{ Id: number; Username: string; DisplayName: string }>;
}

/** What names() and friends() need of Players (a spec may hand it a double). */
export interface PlayerLookup {
	GetPlayerByUserId(userId: number): Player | undefined;
	/** Needed by friends(): pages of { Id, Username, DisplayName }. */
	GetFriendsAsync?(userId: number): FriendPages;
	/**
	 * Optional, for a double: the user ids of the player's friends who played this game, as
	 * Player:GetFriendsWhoPlayedAsync answers. On Players, friends() asks the Player on this server.
	 */
	GetFriendsWhoPlayedAsync?(userId: number): number[];
}

/** attach's options, checked and with every default applied. */
export interface Settings {
	readonly boards: ReadonlyMap<string, Board>;
	/** Board names in name order: the order windows walk them. */
	readonly boardNames: ReadonlyArray<string>;
	readonly FlushSeconds: number;
	readonly WritesPerFlush: number;
	readonly MaxWriteAttempts: number;
	readonly ShutdownSeconds: number;
	readonly RequestSeconds: number;
	readonly WritesInFlight: number;
	/** The attach's backend (options.Backend, else the OrderedDataStore one): boards without a Backend of their own use it. */
	readonly backend: Backend;
	/** That backend wrapped once: its capabilities resolved, every call given the clock and its deadline. A board's own is Board.Store. */
	readonly store: Store;
	readonly clock: () => number;
	readonly unixTime: () => number;
	readonly skipLoop: boolean;
	readonly userService: UserLookup;
	readonly players: PlayerLookup;
	/** Shared pages and record announcements on (SharePages). */
	readonly sharePages: boolean;
	/** StorePrefix: the shared pages' hash map and the records' topic are named after it. */
	readonly storePrefix: string;
	readonly memoryStore: MemoryStoreService;
	readonly messaging: MessagingService;
	/** The manifest is kept (Manifest). */
	readonly manifest: boolean;
	readonly dataStores: DataStoreService;
}
