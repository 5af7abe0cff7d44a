import { HttpService } from "@rbxts/services";
import { BenchRow, markdownTable } from "./measure";
import { schedulerRow } from "./scheduler";

/**
 * `npm run bench`: every row measured in this run, printed as a Markdown table
 * (or JSON with --json). --quick runs tiny sizes (the bench smoke spec does).
 */
export function main(args: string[]): number {
	const quick = args.includes("--quick");
	const rows = new Array<BenchRow>();
	rows.push(schedulerRow(quick ? { small: 10, large: 100 } : { small: 100, large: 100_000 }));
	if (args.includes("--json")) print(HttpService.JSONEncode(rows));
	else print(markdownTable(rows));
	return 0;
}
