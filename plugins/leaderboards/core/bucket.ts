/**
 * A token bucket's level: `tokens` (undefined: never spent, so full), refilled at `perMinute` for the
 * `since` seconds since they were counted, up to `capacity`. Every request budget of the library
 * (the backends' shares, the records' announcements) refills by this rule.
 */
export function refilled(tokens: number | undefined, since: number, perMinute: number, capacity: number): number {
	return math.min(capacity, (tokens ?? capacity) + (math.max(0, since) * perMinute) / 60);
}
