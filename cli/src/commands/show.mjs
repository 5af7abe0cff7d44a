// leaderboards show <user>: every board and period that holds the user.
import { boardsOf } from "../boards.mjs";
import { formatNumber, table } from "../output.mjs";

/** @param {import("../main.mjs").Context} context */
export async function show({ cloud, manifest, args, print, warn }) {
	const boards = [...boardsOf(await manifest.layout(), cloud).values()].sort((a, b) => (a.name < b.name ? -1 : 1));
	const rows = [];
	let stores = 0;
	for (const board of boards) {
		if (!board.readable) {
			warn(`${board.name} is on a ${board.backend} backend: not read`);
			continue;
		}
		for (const period of await board.allPeriods(manifest)) {
			stores += 1;
			const stored = await board.get(period.store, args.user);
			if (stored !== undefined)
				rows.push({
					board: board.name,
					period: period.id ?? null,
					store: period.store,
					value: board.encoding.decode(stored),
					stored,
				});
		}
	}
	print.json({ user: args.user, stores, rows });
	print.text(
		rows.length === 0
			? `${args.user} is on no board (${stores} ${stores === 1 ? "store" : "stores"} read)`
			: `${args.user} is on:\n` +
					table(
						["board", "period", "value", "store"],
						rows.map((row) => [row.board, row.period ?? "all-time", formatNumber(row.value), row.store]),
					),
	);
	return 0;
}
