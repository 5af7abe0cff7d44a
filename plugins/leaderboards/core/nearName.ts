// The name a typo most likely meant, for an unknown board's warning. The flag parsers keep their own,
// looser rules (spec/gate/command.ts, spec/gate/command.mjs, cli/src/options.mjs): a board name is
// short and chosen by the game, so only one slip or a case difference is a likely typo.

/** Whether a and b are one edit apart at most: an insertion, a deletion, a substitution or two neighbours swapped. */
function oneEditApart(a: string, b: string): boolean {
	const [long, short] = a.size() >= b.size() ? [a, b] : [b, a];
	if (long.size() - short.size() > 1) return false;
	let i = 1;
	while (i <= short.size() && long.sub(i, i) === short.sub(i, i)) i++;
	if (long.size() > short.size()) return long.sub(i + 1) === short.sub(i);
	const swapped = long.sub(i, i) === short.sub(i + 1, i + 1) && long.sub(i + 1, i + 1) === short.sub(i, i);
	return long.sub(i + 1) === short.sub(i + 1) || (swapped && long.sub(i + 2) === short.sub(i + 2));
}

/** The first of `names` that `word` misspells by one edit or by case alone, or undefined. */
export function nearName(word: string, names: ReadonlyArray<string>): string | undefined {
	const lower = word.lower();
	for (const name of names) if (name.lower() === lower) return name;
	// One edit of a one-letter word leaves nothing of it: no guess.
	if (word.size() < 2) return undefined;
	for (const name of names) if (oneEditApart(lower, name.lower())) return name;
	return undefined;
}
