// leaderboards rank <board> <user> [--period P] [--limit N]
import { boardNamed } from "../boards.mjs";
import { formatNumber } from "../output.mjs";

/** @param {import("../main.mjs").Context} context */
export async function rank({ cloud, manifest, args, values, print, warn }) {
	const board = boardNamed(await manifest.layout(), cloud, args.board);
	board.checkReadable();
	const period = board.period(values.period, cloud.now());
	const limit = values.limit ?? 10_000;
	const found = await board.rank(period.store, args.user, limit);
	const where = `${board.name}${period.id ? ` ${period.id}` : ""}`;
	if (!found) {
		print.json({ board: board.name, period: period.id ?? null, store: period.store, user: args.user, rank: null });
		warn(`${args.user} is not on ${where} (${period.store})`);
		return 1;
	}
	print.json({
		board: board.name,
		period: period.id ?? null,
		store: period.store,
		user: args.user,
		rank: found.rank ?? null,
		beyond: found.beyond,
		value: found.value,
		stored: found.stored,
	});
	const place =
		found.rank !== undefined ? `rank ${formatNumber(found.rank)}` : `past rank ${formatNumber(limit)} (--limit)`;
	print.text(`${args.user} on ${where}: ${place}, value ${formatNumber(found.value)}`);
	return 0;
}
