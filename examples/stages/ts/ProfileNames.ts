import { NameResolverStage, StageFactory, Topics, userIdOf } from "@rbxts/leaderboards/extend";

/** A player's profile as this game saves it (ProfileService's layout: the game's fields under Data). */
interface Profile {
	Data?: { DisplayName?: string; Username?: string };
}

interface Names {
	DisplayName: string;
	Username: string;
}

/** The most players' names kept: past it the cache starts over. */
const KEEP = 1000;

/**
 * A NameResolver that names players from the game's own profile data instead of UserService: the
 * names each player had when they last joined, which the game saves in their profile (data store
 * `store`, key "Player_<UserId>"). Players in this server are named first, from their Player; the
 * rest from their profiles, one GetAsync each while the data store's read budget lasts (the others
 * stay unnamed until a later call). Names, and ids with no profile, are remembered; a failed read
 * leaves the entry unnamed, and the next call tries again.
 */
export function profileNames(store: string): StageFactory<NameResolverStage> {
	return (context) => {
		// The services attach was given (options.Players and options.DataStoreService: a spec's doubles).
		const { players, dataStores } = context.settings;
		const profiles = dataStores.GetDataStore(store);
		let known = new Map<number, Names>();
		let kept = 0;
		const missing = new Set<number>();

		const namesOf = (id: number): Names | undefined => {
			const player = players.GetPlayerByUserId(id);
			if (player) return { DisplayName: player.DisplayName, Username: player.Name };
			if (known.has(id) || missing.has(id)) return known.get(id);
			if (dataStores.GetRequestBudgetForRequestType(Enum.DataStoreRequestType.GetAsync) < 1) return undefined;
			const [ok, profile] = pcall(() => profiles.GetAsync<Profile>(`Player_${id}`)[0]);
			if (!ok) return undefined;
			const data = profile?.Data;
			if (data?.DisplayName === undefined || data.Username === undefined) {
				missing.add(id);
				return undefined;
			}
			if (kept >= KEEP) {
				known = new Map();
				kept = 0;
			}
			const names = { DisplayName: data.DisplayName, Username: data.Username };
			known.set(id, names);
			kept += 1;
			return names;
		};

		// An erased player's names are not kept.
		context.kernel.Bus.subscribe(Topics.Erasing, (_, key) => {
			const id = userIdOf(key);
			if (id === undefined) return;
			if (known.delete(id)) kept -= 1;
			missing.delete(id);
		});

		return {
			Name: "Game.ProfileNames",
			names(entries) {
				for (const entry of entries) {
					// Keys that are not UserIds (guilds, NPCs) are left alone.
					const id = userIdOf(entry.Key);
					const names = id !== undefined ? namesOf(id) : undefined;
					if (names) {
						entry.DisplayName = names.DisplayName;
						entry.Username = names.Username;
					}
				}
				return entries;
			},
		};
	};
}
