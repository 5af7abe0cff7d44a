// One number format for everything the gate's programs print (bench, demo,
// soak): counts with thousands separators from 1,000 up, a noun that agrees
// with its count ("1 user", "2 users"), fractions at a fixed number of digits.
// Identifiers (seeds, user ids, years) are not counts and print as they are.

/** A count with thousands separators: 1,000 and 12,345; a fraction keeps its digits (1,234.5). */
export function count(value: number): string {
	const [sign, whole, fraction] = tostring(value).match("^(%-?)(%d+)(.*)$") as LuaTuple<[string?, string?, string?]>;
	if (whole === undefined) return tostring(value);
	const [grouped] = whole.reverse().gsub("(%d%d%d)", "%1,");
	return sign + grouped.reverse().gsub("^,", "")[0] + fraction;
}

/** A count and its noun, agreeing: "1 user", "2,000 users" (`plural` for nouns that do not take an s). */
export function counted(value: number, noun: string, plural = `${noun}s`): string {
	return `${count(value)} ${value === 1 ? noun : plural}`;
}

/** A number at `digits` decimals, its whole part grouped: 1,234.50; a whole number prints whole. */
export function decimal(value: number, digits = 2): string {
	if (value === math.floor(value) && math.abs(value) < 1e15) return count(value);
	const text = string.format(`%.${digits}f`, math.abs(value));
	const [whole, fraction] = text.match("^(%d+)(.*)$") as LuaTuple<[string, string]>;
	return (value < 0 ? "-" : "") + count(tonumber(whole)!) + fraction;
}
