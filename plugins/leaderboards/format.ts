// A display formatter for big values, offered and not imposed: boards store and
// return plain numbers, and a game shows them its own way or through this.

/**
 * Short-scale suffixes a power of 1,000 apart, from 10^3 ("K") to 10^99 ("DTg"):
 * `format(1.23e45, { Suffixes: SHORT_SUFFIXES })` is "1.23 QaDe".
 */
export const SHORT_SUFFIXES: ReadonlyArray<string> = [
	"K",
	"M",
	"B",
	"T",
	"Qa",
	"Qi",
	"Sx",
	"Sp",
	"Oc",
	"No",
	"De",
	"UDe",
	"DDe",
	"TDe",
	"QaDe",
	"QiDe",
	"SxDe",
	"SpDe",
	"OcDe",
	"NoDe",
	"Vg",
	"UVg",
	"DVg",
	"TVg",
	"QaVg",
	"QiVg",
	"SxVg",
	"SpVg",
	"OcVg",
	"NoVg",
	"Tg",
	"UTg",
	"DTg",
];

/** format()'s options. Every field is optional. */
export interface FormatOptions {
	/** One suffix per power of 1,000 from 10^3 (SHORT_SUFFIXES, or the game's own); past the list, or none given, "1.23e45". */
	Suffixes?: ReadonlyArray<string>;
	/** Significant digits shown, 1 to 15. Default 3. */
	Digits?: number;
}

// A number with `decimals` decimals, trailing zeros (and a bare point) dropped.
function trimmed(value: number, decimals: number): string {
	const text = string.format(`%.${math.max(0, decimals)}f`, value);
	if (text.find(".", 1, true)[0] === undefined) return text;
	return text.gsub("0+$", "")[0].gsub("%.$", "")[0];
}

// The decimal exponent and mantissa (1 <= m < 10) of a positive number, the mantissa rounded to `digits`.
function scientific(value: number, digits: number): LuaTuple<[number, number]> {
	let exponent = math.floor(math.log10(value));
	let mantissa = value / 10 ** exponent;
	// log10 and the power may land a step off near a power of ten.
	if (mantissa < 1) {
		mantissa *= 10;
		exponent -= 1;
	}
	const scale = 10 ** (digits - 1);
	mantissa = math.floor(mantissa * scale + 0.5) / scale;
	if (mantissa >= 10) {
		mantissa /= 10;
		exponent += 1;
	}
	return $tuple(mantissa, exponent);
}

// Options of the wrong kind fall back to the defaults: format() is for display and never errors.
function digitsOf(options: FormatOptions | undefined): number {
	const digits = typeIs(options, "table") ? options.Digits : undefined;
	if (!typeIs(digits, "number") || digits !== digits) return 3;
	return math.clamp(math.floor(digits), 1, 15);
}

function suffixesOf(options: FormatOptions | undefined): ReadonlyArray<string> | undefined {
	const suffixes = typeIs(options, "table") ? options.Suffixes : undefined;
	return typeIs(suffixes, "table") ? suffixes : undefined;
}

/**
 * A value for display: `Digits` (default 3) significant digits and the suffix of its power of 1,000
 * ("1.23 QaDe"), past the suffixes given an exponent ("1.23e45"); below 1,000 the value as it is
 * (fractions to `Digits` significant digits). Never errors:
 * NaN and infinities come back as tostring writes them, and options of the wrong
 * kind fall back to the defaults.
 */
export function format(value: number, options?: FormatOptions): string {
	if (!typeIs(value, "number") || value !== value || math.abs(value) === math.huge) return tostring(value);
	const digits = digitsOf(options);
	const suffixes = suffixesOf(options);
	const sign = value < 0 ? "-" : "";
	const size = math.abs(value);
	if (size === 0) return "0";
	if (size < 1000) {
		if (size % 1 === 0) return sign + string.format("%d", size);
		const [mantissa, exponent] = scientific(size, digits);
		if (mantissa * 10 ** exponent < 1000) return sign + trimmed(mantissa * 10 ** exponent, digits - 1 - exponent);
	}
	const [mantissa, exponent] = scientific(size, digits);
	const group = math.floor(exponent / 3);
	const suffix = suffixes?.[group - 1];
	if (typeIs(suffix, "string")) {
		const shown = mantissa * 10 ** (exponent - 3 * group);
		return `${sign}${trimmed(shown, digits - 1 - (exponent - 3 * group))} ${suffix}`;
	}
	return `${sign}${trimmed(mantissa, digits - 1)}e${exponent}`;
}
