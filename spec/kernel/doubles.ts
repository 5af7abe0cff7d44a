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
