/** How loud a record is, quietest first. */
export type LogLevel = "debug" | "info" | "warn" | "error";

const RANK: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/** One logged line, as a sink receives it. */
export interface LogRecord {
	readonly level: LogLevel;
	readonly scope: string;
	readonly message: string;
}

/** Where records go. Sinks run in order; one that errors does not stop the others. */
export type LogSink = (record: LogRecord) => void;

/**
 * A logger that prefixes every line with its scope: `[BoardService] ...`.
 * Its members are plain functions, called with a dot (`Log.warn(...)`) from Luau.
 */
export interface ScopedLogger {
	debug: (...args: unknown[]) => void;
	info: (...args: unknown[]) => void;
	warn: (...args: unknown[]) => void;
	error: (...args: unknown[]) => void;
}

/** The output sink: print for debug and info, warn for warn and error (error() would throw). */
export const outputSink: LogSink = (record) => {
	const line = `[${record.scope}] ${record.message}`;
	if (RANK[record.level] >= RANK.warn) warn(line);
	else print(line);
};

let threshold: LogLevel = "info";
let sinks: LogSink[] = [outputSink];

function join(args: unknown[]): string {
	const parts = new Array<string>();
	for (const arg of args) parts.push(tostring(arg));
	return parts.join(" ");
}

function emit(level: LogLevel, scope: string, args: unknown[]) {
	if (RANK[level] < RANK[threshold]) return;
	const record: LogRecord = { level, scope, message: join(args) };
	for (const sink of [...sinks]) {
		const [ok, problem] = pcall(sink, record);
		if (!ok) warn(`[Logger] a sink errored: ${problem}`);
	}
}

/** Scoped loggers, a level threshold and pluggable sinks, shared by the whole server. */
export namespace Logger {
	/** A logger whose lines carry `scope`. */
	export function scope(name: string): ScopedLogger {
		return {
			debug: (...args: unknown[]) => emit("debug", name, args),
			info: (...args: unknown[]) => emit("info", name, args),
			warn: (...args: unknown[]) => emit("warn", name, args),
			error: (...args: unknown[]) => emit("error", name, args),
		};
	}

	/** Records below this level are dropped. Default "info". */
	export function setLevel(level: LogLevel) {
		threshold = level;
	}

	export function getLevel(): LogLevel {
		return threshold;
	}

	/** Adds a sink; returns a function that removes it. */
	export function addSink(sink: LogSink): () => void {
		sinks.push(sink);
		return () => {
			const index = sinks.indexOf(sink);
			if (index !== -1) sinks.remove(index);
		};
	}

	/**
	 * Replaces every sink (the output sink included) until the returned restore
	 * function runs: what a spec uses to assert on logs without printing them.
	 */
	export function useSinks(replacement: LogSink[]): () => void {
		const previous = sinks;
		sinks = [...replacement];
		return () => {
			sinks = previous;
		};
	}
}
