import { Backend } from "./contracts";
import { shown } from "./core";

// The checks every option of attach shares, each naming the field at fault and what came, and the
// backend contract's.

// Raised without a position: attach() raises it again at the game's call, however deep the check.
export function refuse(problem: string): never {
	error(`Leaderboards.attach: ${problem}`, 0);
}

export function fail(field: string, problem: string, value: unknown): never {
	refuse(`${field} ${problem} (got ${shown(value)})`);
}

// A function, or a table with __call (a jest.fn mock, jest's fake os.clock).
export function callable(value: unknown): boolean {
	if (typeIs(value, "function")) return true;
	const meta = typeIs(value, "table") ? getmetatable(value) : undefined;
	return typeIs(meta, "table") && (meta as { __call?: unknown }).__call !== undefined;
}

export function positive(field: string, value: unknown, fallback: number): number {
	if (value === undefined) return fallback;
	if (!typeIs(value, "number") || value !== value || value <= 0 || value === math.huge)
		fail(field, "must be a positive number", value);
	return value;
}

export function positiveInteger(field: string, value: unknown, fallback: number): number {
	if (value === undefined) return fallback;
	if (!typeIs(value, "number") || value <= 0 || value % 1 !== 0) fail(field, "must be a positive integer", value);
	return value;
}

export function wholeNumber(field: string, value: unknown, fallback: number): number {
	if (value === undefined) return fallback;
	if (!typeIs(value, "number") || value < 0 || value % 1 !== 0)
		fail(field, "must be a whole number, 0 or more", value);
	return value;
}

export function flag(field: string, value: unknown, fallback: boolean): boolean {
	if (value === undefined) return fallback;
	if (!typeIs(value, "boolean")) fail(field, "must be a boolean", value);
	return value;
}

export function checkKeys(field: string, value: object, known: ReadonlySet<string>) {
	for (const [key] of pairs(value)) {
		if (!known.has(key as string)) fail(`${field}.${key}`, "is not an option", key);
	}
}

/**
 * The keys of T as a set, from a row naming every one: leaving a key of T out (or naming one T lacks)
 * does not compile, so a new option is known to attach's checks as soon as it is declared.
 */
export function keysOf<T>(row: { readonly [K in keyof Required<T>]: unknown }): ReadonlySet<string> {
	const keys = new Set<string>();
	for (const [key] of pairs(row)) keys.add(key as string);
	return keys;
}

// What each member of a backend must be when present. A row a member of Backend: leaving one out does
// not compile, so a member added to the contract is checked at attach (a typo'd table fails there, not
// at the first window that calls it).
type Member = "function" | "flag" | "positive integer" | "string" | "table";
const MEMBERS: { readonly [K in keyof Required<Backend>]: Member } = {
	submit: "function",
	sums: "flag",
	set: "function",
	sorted: "function",
	budget: "function",
	budgetRate: "function",
	scores: "function",
	readBudget: "function",
	remove: "function",
	removeBudget: "function",
	around: "function",
	integers: "flag",
	maxKeyLength: "positive integer",
	refuseName: "function",
	kind: "string",
	sharePages: "flag",
	layout: "table",
};

function checkMember(field: string, member: Member, value: unknown) {
	if (member === "function" && !callable(value)) fail(field, "must be a function", value);
	else if (member === "flag") flag(field, value, false);
	else if (member === "positive integer") positiveInteger(field, value, 0);
	else if (member === "string" && !typeIs(value, "string")) fail(field, "must be a string", value);
	else if (member === "table" && !typeIs(value, "table")) fail(field, "must be a table", value);
}

/** The backend contract, checked at attach: `field` names it in errors ("options.Backend"). */
export function backendOf(field: string, backend: unknown): Backend {
	if (!typeIs(backend, "table")) fail(field, "must be a table of functions", backend);
	const b = backend as Backend;
	if (!callable(b.sorted)) fail(field, "needs sorted()", b.sorted);
	for (const [name, member] of pairs(MEMBERS)) {
		const value = b[name];
		if (value !== undefined) checkMember(`${field}.${name}`, member, value);
	}
	if (b.submit === undefined && b.set === undefined) refuse(`${field} needs submit() or set()`);
	return b;
}
