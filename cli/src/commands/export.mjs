// leaderboards export <board> --format csv|json [--period P] [--output FILE]
// Streams every row, best first; a progress bar on a terminal, by how far the rows
// have come between the best and the worst stored number (two extra requests).
import { createWriteStream } from "node:fs";
import { BoardError, boardNamed } from "../boards.mjs";
import { CONTRACT } from "../contract.mjs";
import { Progress, count } from "../output.mjs";

/** @param {string} text */
const csvCell = (text) => (/[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

/** @param {import("../main.mjs").Context} context */
export async function exportBoard({ cloud, manifest, args, values, note, stdout }) {
	if (!values.format) throw new BoardError("export needs --format csv or --format json");
	const board = boardNamed(await manifest.layout(), cloud, args.board);
	board.checkReadable();
	const period = board.period(values.period, cloud.now());
	const file = values.output ? createWriteStream(values.output) : undefined;
	/** @type {NodeJS.WritableStream} */
	const sink = file ?? stdout;
	/**
	 * Resolves when the sink takes more (at once, or once it drains).
	 * @param {string} text
	 * @returns {Promise<void> | undefined}
	 */
	const write = (text) =>
		sink.write(text) ? undefined : new Promise((resolve) => sink.once("drain", () => resolve()));
	const progress = new Progress(`export ${board.name}${period.id ? ` ${period.id}` : ""}`);
	const range = progress.live ? await board.range(period.store) : undefined;
	const json = values.format === "json";
	await write(
		json
			? `{"board":${JSON.stringify(board.name)},"period":${JSON.stringify(period.id ?? null)},"store":${JSON.stringify(period.store)},"encoding":${JSON.stringify(board.encoding.kind)},"rows":[`
			: "rank,user,value,stored\n",
	);
	let rows = 0;
	const pageSize = CONTRACT.PageSize;
	for await (const row of board.rows(period.store, { pageSize })) {
		rows += 1;
		const ranked = { rank: rows, ...row };
		await write(
			json
				? `${rows > 1 ? "," : ""}\n${JSON.stringify(ranked)}`
				: `${rows},${csvCell(row.user)},${row.value},${row.stored}\n`,
		);
		const spread = range && range.best !== range.worst ? Math.abs(range.best - range.worst) : undefined;
		progress.update({
			rows,
			pages: Math.ceil(rows / pageSize),
			fraction: range && spread ? Math.abs(range.best - row.stored) / spread : undefined,
		});
	}
	if (json) await write(`${rows > 0 ? "\n" : ""}]}\n`);
	progress.done();
	if (file)
		await new Promise((resolve, reject) =>
			file.end(/** @param {Error | null} [error] */ (error) => (error ? reject(error) : resolve(undefined))),
		);
	note(`exported ${count(rows, "row")} of ${period.store}${values.output ? ` to ${values.output}` : ""}`);
	return 0;
}
