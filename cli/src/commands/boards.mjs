// leaderboards boards: what the manifest lists.
import { boardsOf } from "../boards.mjs";
import { count, table } from "../output.mjs";

/** @param {import("../main.mjs").Context} context */
export async function boards({ cloud, manifest, values, print }) {
	const layout = await manifest.layout();
	const now = cloud.now();
	const list = [];
	for (const board of [...boardsOf(layout, cloud).values()].sort((a, b) => (a.name < b.name ? -1 : 1))) {
		const config = board.config;
		const entry = {
			name: board.name,
			backend: board.backend,
			storage: board.storage,
			prefix: board.prefix,
			shards: board.shards,
			encoding: board.encoding.kind,
			values: config.Values ?? "Plain",
			tieBreak: config.TieBreak ?? null,
			ascending: board.ascending,
			sum: config.Sum === true,
			keepBest: config.KeepBest === true,
			reset: board.reset ?? null,
			resetOffset: board.rule ? board.rule.ResetOffset : null,
			weekStart: board.reset === "Weekly" ? (board.rule?.WeekStart ?? null) : null,
			current: /** @type {{ id: string | null | undefined, store: string }} */ (board.period("current", now)),
			previous: board.rule ? board.period("previous", now) : null,
			periods: board.rule && values.periods ? await manifest.periods(board.storage) : null,
		};
		entry.current.id ??= null;
		list.push(entry);
	}
	print.json({
		manifest: manifest.store,
		storePrefix: layout.StorePrefix ?? null,
		updated: layout.Updated ?? null,
		boards: list,
	});
	print.text(
		`${count(list.length, "board")} in ${manifest.store}:\n` +
			table(
				["board", "backend", "encoding", "reset", "current store", ...(values.periods ? ["periods"] : [])],
				list.map((b) => [
					b.name,
					b.backend + (b.shards > 1 ? ` x${b.shards}` : ""),
					b.encoding,
					b.reset ?? "all-time",
					b.current.store,
					...(values.periods ? [b.periods ? b.periods.join(" ") : ""] : []),
				]),
			),
	);
	return 0;
}
