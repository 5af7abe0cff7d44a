import { PlayerLookup } from "../../contracts";

/**
 * The user ids of the player's friends who played this game (Player:GetFriendsWhoPlayedAsync,
 * documented for friend leaderboards "to avoid fetching scores for the entire friends list"): a
 * double's PlayerLookup answers itself, else the Player on this server asks. Undefined when neither
 * can (the player is on no server here, a double without the method); throws where the engine does
 * (a failed request, an engine without the method). Yields.
 */
export function friendsWhoPlayed(players: PlayerLookup, userId: number): number[] | undefined {
	// A real Players errors on a member it lacks, so only a double's own method is looked up.
	if (!typeIs(players, "Instance"))
		return players.GetFriendsWhoPlayedAsync && idsOf(players.GetFriendsWhoPlayedAsync(userId));
	const player = players.GetPlayerByUserId(userId);
	return player && idsOf(player.GetFriendsWhoPlayedAsync());
}

// The whole-number ids of an answer, undefined when it is not a list.
function idsOf(answer: unknown): number[] | undefined {
	if (!typeIs(answer, "table")) return undefined;
	const ids = new Array<number>();
	for (const id of answer as unknown[]) if (typeIs(id, "number") && id % 1 === 0) ids.push(id);
	return ids;
}
