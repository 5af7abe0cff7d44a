// leaderboards remove <board> <user> [--period P | --all-periods] [--yes] [--dry-run]
import { BoardError, boardNamed } from "../boards.mjs";
import { confirm, count, formatNumber } from "../output.mjs";

/** @param {import("../main.mjs").Context} context */
export async function remove({ cloud, manifest, args, values, print, say, warn, stdin, stderr }) {
	const board = boardNamed(await manifest.layout(), cloud, args.board);
	board.checkReadable();
	if (values["all-periods"] && values.period !== undefined)
		throw new BoardError("--period and --all-periods name the periods twice: give one");
	const periods = values["all-periods"]
		? await board.allPeriods(manifest)
		: [board.period(values.period, cloud.now())];
	const found = [];
	for (const period of periods) {
		const stored = await board.get(period.store, args.user);
		if (stored !== undefined)
			found.push({
				...period,
				place: board.placeOf(period.store, args.user),
				value: board.encoding.decode(stored),
				stored,
			});
	}
	const plan = {
		board: board.name,
		user: args.user,
		dryRun: values["dry-run"] === true,
		stores: found.map((f) => ({ period: f.id ?? null, store: f.place, value: f.value, stored: f.stored })),
	};
	if (found.length === 0) {
		print.json({ ...plan, removed: [] });
		say(`${args.user} is not on ${board.name} in ${count(periods.length, "store")} read: nothing to remove`);
		return 0;
	}
	say(
		`${values["dry-run"] ? "Would remove" : "Will remove"} ${args.user} from ${board.name}:\n` +
			found.map((f) => `  ${f.place}  value ${formatNumber(f.value)}`).join("\n"),
	);
	if (!(await confirm("Remove?", { yes: values.yes, dryRun: values["dry-run"], input: stdin, output: stderr }))) {
		print.json({ ...plan, removed: [] });
		if (values["dry-run"]) {
			say("dry run: nothing removed");
			return 0;
		}
		warn("nothing removed");
		return 1;
	}
	const removed = [];
	for (const f of found) if (await board.remove(f.store, args.user)) removed.push(f.place);
	print.json({ ...plan, removed });
	say(`removed ${args.user} from ${count(removed.length, "store")} of ${board.name}`);
	return 0;
}
