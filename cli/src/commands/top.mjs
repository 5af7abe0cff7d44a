// leaderboards top <board> [--period P] [--count N]
import { boardNamed } from "../boards.mjs";
import { formatNumber, table } from "../output.mjs";

/** @param {import("../main.mjs").Context} context */
export async function top({ cloud, manifest, args, values, print }) {
	const board = boardNamed(await manifest.layout(), cloud, args.board);
	board.checkReadable();
	const period = board.period(values.period, cloud.now());
	const rows = await board.top(period.store, values.count ?? 10);
	print.json({
		board: board.name,
		period: period.id ?? null,
		store: period.store,
		encoding: board.encoding.kind,
		rows,
	});
	print.text(
		`${board.name}${period.id ? ` ${period.id}` : ""} (${period.store}), top ${rows.length}:\n` +
			(rows.length === 0
				? "  (no rows)"
				: table(
						["rank", "user", "value"],
						rows.map((row) => [row.rank, row.user, formatNumber(row.value)]),
					)),
	);
	return 0;
}
