import { LogRecord, Logger } from "../../kernel";

/** A step signal a spec fires by hand, counting its listeners. */
export function manualStep() {
	const handlers = new Array<() => void>();
	const signal = {
		Connect(handler: () => void) {
			handlers.push(handler);
			return {
				Connected: true,
				Disconnect() {
					const index = handlers.indexOf(handler);
					if (index !== -1) handlers.remove(index);
				},
			};
		},
	} as unknown as RBXScriptSignal;
	return {
		signal,
		fire: () => {
			for (const handler of [...handlers]) handler();
		},
		listeners: () => handlers.size(),
	};
}

/** A clock that moves only when told to. */
export function manualClock(start = 0) {
	let now = start;
	return {
		clock: () => now,
		advance: (seconds: number) => {
			now += seconds;
		},
	};
}

/** Captures log records instead of printing them; call the result to restore. */
export function captureLogs() {
	const records = new Array<LogRecord>();
	const restore = Logger.useSinks([(record) => records.push(record)]);
	return {
		records,
		restore,
		messages: (level?: string) =>
			records.filter((r) => level === undefined || r.level === level).map((r) => `[${r.scope}] ${r.message}`),
	};
}

/** A Scheduler's wake a spec fires by hand: the alarms armed, each at its time on `clock`. */
export function manualWake(clock: () => number) {
	const alarms = new Array<{ at: number; callback: () => void; cancelled: boolean }>();
	const wake = (seconds: number, callback: () => void) => {
		const alarm = { at: clock() + seconds, callback, cancelled: false };
		alarms.push(alarm);
		return () => (alarm.cancelled = true);
	};
	const armed = () => alarms.filter((alarm) => !alarm.cancelled);
	return {
		wake,
		/** When the armed alarms are due, in arming order. */
		armed: () => armed().map((alarm) => alarm.at),
		/** How many alarms were ever armed. */
		arms: () => alarms.size(),
		/** Runs the alarms due by now, as the engine's timer would. */
		fire: () => {
			for (const alarm of armed())
				if (alarm.at <= clock()) {
					alarm.cancelled = true;
					alarm.callback();
				}
		},
	};
}
