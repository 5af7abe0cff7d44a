import { Logger, Priority, sleep } from "../../../../kernel";
import { PendingWrite, StageContext, Topics } from "../../contracts";
import { storeOf } from "../../core";

const log = Logger.scope("Leaderboards");

// A write whose backend call has not returned. `thread` runs the call: a backend
// that calls destroy() from it must not wait on itself. `held`: past
// RequestSeconds, what went back to the queue, until the write returns or the
// hold ends.
export interface Flight {
	thread?: thread;
	held?: { write: PendingWrite; restored: PendingWrite; timer: Promise<void> };
}

// The writes in flight and the ones held past RequestSeconds: what inFlight(), unresolved() and
// landed() count, and when a held key is released to the queue again.
export class Flights {
	// Writes whose backend call has not returned; `unreturned` counts those not given up on (Set.size() walks).
	private readonly flights = new Set<Flight>();
	private unreturned = 0;
	// Writes in flight: started and neither returned nor past RequestSeconds.
	private flying = 0;
	// Resolves when `flying` drops to 0.
	private allLanded?: Promise<void>;
	private land?: () => void;

	// `released`: a held key went back to the queue's order (its write returned or was given up on).
	constructor(
		private readonly context: StageContext,
		private readonly released: () => void,
	) {}

	inFlight(): number {
		return this.flying;
	}

	unresolved(): number {
		return this.unreturned;
	}

	landed(): Promise<void> {
		return this.allLanded ?? Promise.resolve();
	}

	isWriting(thread: thread): boolean {
		for (const flight of this.flights) if (flight.thread === thread) return true;
		return false;
	}

	// Counted before the backend runs: a backend that calls destroy() from its write must find it in flight.
	start(): Flight {
		const flight: Flight = {};
		this.flights.add(flight);
		this.unreturned += 1;
		this.flying += 1;
		if (this.flying === 1) this.allLanded = new Promise<void>((resolve) => (this.land = resolve));
		return flight;
	}

	// The write's backend call returned (`landed`, or not); a held write's late answer settles its key.
	returned(flight: Flight, write: PendingWrite, landed: boolean) {
		const { stats, kernel } = this.context;
		this.flights.delete(flight);
		// Given up on, it counts nowhere: what it carried went back to the queue then.
		if (!write.Superseded) this.unreturned -= 1;
		const held = flight.held;
		if (!held) return;
		flight.held = undefined;
		held.timer.cancel();
		// Counted failed at its deadline; a late success counts in Written too.
		if (landed) stats.Written += 1;
		kernel.Bus.publish(Topics.Settled, held.restored, landed);
		this.released();
	}

	// The write resolved (returned, or passed RequestSeconds): it stops counting as in flight.
	resolved() {
		this.flying -= 1;
		if (this.flying === 0) this.land?.();
	}

	// A write past RequestSeconds: its key waits RequestSeconds more for the
	// answer (applied exactly by settle), then is given up on; at once when `now`.
	hold(flight: Flight, write: PendingWrite, restored: PendingWrite, now: boolean) {
		const { kernel, settings } = this.context;
		log.debug(
			`write ${storeOf(write)} ${write.Key} passed RequestSeconds: counted failed, retried once it returns or in ${settings.RequestSeconds} s`,
		);
		const timer = sleep(kernel.Scheduler, settings.RequestSeconds, Priority.Background);
		flight.held = { write, restored, timer };
		timer.andThen(() => this.giveUp(flight));
		if (now) this.giveUp(flight);
	}

	// A drain is the last chance to write a held key: no more waiting on any late request.
	giveUpAll() {
		for (const flight of this.flights) this.giveUp(flight);
	}

	// Stops waiting on a held write: a transform of it that runs from now on
	// writes nothing, and its key is written again by a later window.
	private giveUp(flight: Flight) {
		const held = flight.held;
		if (!held) return;
		flight.held = undefined;
		held.timer.cancel();
		held.write.Superseded = true;
		this.unreturned -= 1;
		this.context.kernel.Bus.publish(Topics.Settled, held.restored, false);
		this.released();
	}
}
