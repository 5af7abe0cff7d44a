import { Backend } from "../contracts";
import { callable, fail, flag, positiveInteger, refuse } from "./checks";

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
