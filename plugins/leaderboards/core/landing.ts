import { Settings } from "../contracts";

/**
 * The longest a value submitted now takes to land or be given up on: the wait for its window
 * (FlushSeconds), then its write's RequestSeconds and the hold past it (RequestSeconds more). A read
 * that must see every value submitted before a moment (a period's final standings, an erasure's
 * sweep) comes at least this long after it.
 */
export function landingSeconds(settings: Settings): number {
	return settings.FlushSeconds + 2 * settings.RequestSeconds;
}
