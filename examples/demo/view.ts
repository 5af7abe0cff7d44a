import { Entry, Standing } from "../../plugins/leaderboards";
import { count, counted } from "../../spec/gate/format";
import { CLIENT_BOARD, ClientBoard } from "./client";
import { Counters, Frame, LossKind, SimulationConfig, Summary, Totals, isScale } from "./simulation";

/** Lines the demo prints outside the live view (piped lines, the summary) fit this many columns. */
export const COLUMNS = 80;
/** A board column's width: two boards side by side in 80 columns. */
const HALF = 40;
/** The Luau heap `npm run demo` gives the gate (package.json: run.mjs --heap), in megabytes. */
export const DEMO_HEAP = 2048;
/** Board rows the views show at most. */
const TOP = 10;

/** A terminal's size in characters. */
export interface Size {
	readonly columns: number;
	readonly rows: number;
}

function width(text: string): number {
	const [length] = utf8.len(text);
	return typeIs(length, "number") ? length : text.size();
}

function pad(text: string, size: number): string {
	const length = width(text);
	return length >= size ? text : text + string.rep(" ", size - length);
}

/** The text cut to `columns` characters. */
export function clip(text: string, columns: number): string {
	if (width(text) <= columns) return text;
	const cut = utf8.offset(text, columns + 1);
	return cut !== undefined ? text.sub(1, cut - 1) : text.sub(1, columns);
}

/**
 * The text in lines of at most `columns`, broken at spaces; lines after the first
 * are indented (a word longer than a line is cut).
 */
export function wrap(text: string, columns = COLUMNS, indent = "  "): string[] {
	if (width(text) <= columns) return [text];
	const lines = new Array<string>();
	// The first line keeps its own indentation.
	let line = (text.match("^%s*")[0] as string | undefined) ?? "";
	for (const [match] of text.gmatch("%S+")) {
		const word = tostring(match);
		const joined = line.match("^%s*$")[0] !== undefined ? line + word : `${line} ${word}`;
		if (width(joined) <= columns || line.match("^%s*$")[0] !== undefined) line = clip(joined, columns);
		else {
			lines.push(line);
			line = clip(indent + word, columns);
		}
	}
	if (line.match("^%s*$")[0] === undefined) lines.push(line);
	return lines;
}

/** Each line wrapped (see wrap). */
export function wrapAll(lines: ReadonlyArray<string>, columns = COLUMNS, indent = "  "): string[] {
	const wrapped = new Array<string>();
	for (const line of lines) for (const part of wrap(line, columns, indent)) wrapped.push(part);
	return wrapped;
}

function percent(value: number): string {
	return string.format("%.0f%%", value * 100);
}

function seconds(value?: number): string {
	return value === undefined ? "-" : string.format("%.1f s", value);
}

function rows(entries: ReadonlyArray<Entry | Standing>, format: (value: number) => string, size: number): string[] {
	const lines = new Array<string>();
	for (let i = 0; i < size; i++) {
		const entry = entries[i];
		lines.push(
			entry
				? `${pad(entry.Rank !== undefined ? tostring(entry.Rank) : "-", 4)}${pad(entry.DisplayName ?? entry.Key, 21)}${entry.Value !== undefined ? format(entry.Value) : ""}`
				: "",
		);
	}
	return lines;
}

// Two columns side by side, each cut to its half of the terminal.
function beside(left: string, right: string, columns: number): string {
	const half = math.min(HALF, math.floor(columns / 2));
	return clip(pad(clip(left, half - 1), half) + right, columns);
}

// Where the followed player stands: "#12 with 40", "40 (past the top page)", "no kills yet", or "unknown".
function standingOf(me?: Standing): string {
	if (!me) return "unknown (read failed)";
	if (me.Value === undefined) return "no kills yet";
	return me.Rank !== undefined
		? `#${me.Rank} with ${count(me.Value)}`
		: `${count(me.Value)} (past the top page: no rank)`;
}

const kills = (value: number) => count(value);
const time = (value: number) => string.format("%.3f s", value / 1000);

/** The counters that tell the story, as lines (each within 80 columns, wrapped when a count is huge). */
export function counterLines(counters: Counters): string[] {
	const perSubmit = counters.submits > 0 ? counters.writes / counters.submits : 0;
	return wrapAll([
		`submits ${count(counters.submits)}, backend writes ${count(counters.writes)} (${string.format("%.3f", perSubmit)} a submit), write budget used ${percent(counters.budgetUsed)}`,
		`top() calls ${count(counters.topCalls)}, backend reads ${count(counters.backendReads)}, names lookups ${count(counters.namesCalls)} (${counted(counters.namesResults, "user")})`,
		`failed writes ${count(counters.failed)}, dropped ${count(counters.dropped)}, players online ${count(counters.online)}`,
	]);
}

/** What every server submitted and wrote (scale mode). */
function submitsLine(counters: Counters): string {
	const perSubmit = counters.submits > 0 ? counters.writes / counters.submits : 0;
	return `submits ${count(counters.submits)}, writes ${count(counters.writes)} (${string.format("%.3f", perSubmit)} a submit), failed ${count(counters.failed)}, dropped ${count(counters.dropped)}`;
}

/** The experience's totals (scale mode) beyond the counters, as lines within 80 columns. */
export function totalsLines(totals: Totals): string[] {
	const { messages, peakUse, records } = totals;
	return wrapAll([
		`store requests: backend reads (lists) ${count(totals.lists)}, key reads ${count(totals.reads)}; shared pages: ${counted(totals.pageRefreshes, "refresh", "refreshes")} of ${counted(totals.pages, "page")}`,
		`MemoryStore requests ${count(totals.memoryCalls)} (${count(totals.memoryRefused)} refused); messages ${count(messages.published)} published,`,
		`  ${count(messages.delivered)} delivered, ${count(messages.lost)} lost, ${count(messages.refused)} refused`,
		`throttled: ${count(totals.queued)} queued; dropped ${count(totals.droppedServer)} at the server level, ${count(totals.droppedExperience)} at the experience level`,
		`busiest minute, share of the experience's limits: reads ${percent(peakUse.read)}, writes ${percent(peakUse.write)},`,
		`  lists ${percent(peakUse.list)}, MemoryStore ${percent(peakUse.memory)}`,
		`records on Kills: ${count(records.records)}; ${count(records.seen)} on every server's page, ${count(records.neverSeen)} never seen,`,
		`  ${count(records.displaced)} displaced, ${count(records.superseded)} superseded; seen or not, in ${seconds(records.p50)} (median),`,
		`  ${seconds(records.p99)} (p99), ${seconds(records.max)} at worst (one never seen: its age when play stopped)`,
		`the gate's Luau heap: at most ${count(math.ceil(totals.heapMegabytes))} MB (npm run demo gives it ${count(DEMO_HEAP)} MB)`,
	]);
}

function progress(config: SimulationConfig, minute: number): string {
	const done = math.clamp(math.floor((minute / config.minutes) * HALF), 0, HALF);
	return `[${string.rep("#", done)}${string.rep("-", HALF - done)}] ${string.format("%.1f", minute)}/${count(config.minutes)} min`;
}

function clock(seconds: number): string {
	const whole = math.max(0, math.floor(seconds));
	return string.format("%02d:%02d:%02d", math.floor(whole / 3600), math.floor((whole % 3600) / 60), whole % 60);
}

function leader(entries: ReadonlyArray<Entry>): string {
	const first = entries[0];
	return first ? `${first.DisplayName ?? first.Key} ${count(first.Value)}` : "-";
}

/** The run's first line: the backend and the configuration (within 80 columns for the default runs). */
export function title(config: SimulationConfig): string {
	const backend = config.backend === "memorystore" ? "MemoryStore" : "OrderedDataStores";
	const failures = config.failRate > 0 ? `, fail rate ${config.failRate}` : "";
	return `Leaderboards demo on ${backend}: ${counted(config.servers, "server")} x ${counted(config.players, "player")}, ${count(config.minutes)} min, seed ${config.seed}${failures}`;
}

/** The full view: one server's boards, the followed player, the counters (31 rows). */
function fullView(config: SimulationConfig, frame: Frame, columns: number): string[] {
	const lines = [title(config), progress(config, frame.counters.minute), ""];
	lines.push(beside("Kills (top 10)", "BestTime (top 10)", columns));
	const left = rows(frame.kills, kills, TOP);
	const right = rows(frame.bestTimes, time, TOP);
	for (let i = 0; i < TOP; i++) lines.push(beside(left[i], right[i], columns));
	lines.push("", `DailyKills ${frame.day} (top 3; a new day in ${clock(frame.secondsToNewDay)})`);
	for (const line of rows(frame.dailyKills, kills, 3)) lines.push(line);
	const followed = frame.followed;
	if (followed) {
		lines.push("", `${followed.name} on Kills: ${standingOf(followed.me)}`);
		lines.push(beside("Around them (2 either side)", `${followed.name} and friends (top 5)`, columns));
		const around = rows(followed.around ?? [], kills, 5);
		const friends = rows(followed.friends ?? [], kills, 5);
		for (let i = 0; i < 5; i++) lines.push(beside(around[i], friends[i], columns));
	}
	lines.push("");
	for (const line of counterLines(frame.counters)) lines.push(line);
	return lines;
}

/** The compact view (23 rows at 24): both boards, today's top 3 beside the followed player, the counters. */
function compactView(config: SimulationConfig, frame: Frame, size: Size): string[] {
	const counters = counterLines(frame.counters);
	// Rows: title, progress, a blank, the boards' header and rows, a blank, today's header and 3 rows, a blank, the counters.
	const top = math.clamp(size.rows - 1 - (10 + counters.size()), 1, TOP);
	const lines = [
		title(config),
		`${progress(config, frame.counters.minute)}, new day in ${clock(frame.secondsToNewDay)}`,
	];
	lines.push("", beside(`Kills (top ${top})`, `BestTime (top ${top})`, size.columns));
	const left = rows(frame.kills, kills, top);
	const right = rows(frame.bestTimes, time, top);
	for (let i = 0; i < top; i++) lines.push(beside(left[i], right[i], size.columns));
	const followed = frame.followed;
	lines.push(
		"",
		beside(
			`DailyKills ${frame.day} (top 3)`,
			followed ? `${followed.name}: ${standingOf(followed.me)}` : "",
			size.columns,
		),
	);
	// The followed player with one neighbour either side.
	const around = followed?.around ?? [];
	const at = around.findIndex((row) => row.Key === followed?.me?.Key);
	const near = at < 0 ? [] : around.filter((_, i) => math.abs(i - at) <= 1);
	const daily = rows(frame.dailyKills, kills, 3);
	const neighbours = rows(near, kills, 3);
	for (let i = 0; i < 3; i++) lines.push(beside(daily[i], neighbours[i], size.columns));
	lines.push("");
	for (const line of counters) lines.push(line);
	return lines;
}

/** The scale view: the experience's totals, then the top of Kills and today's board. */
function scaleView(config: SimulationConfig, frame: Frame, size: Size): string[] {
	const totals = frame.totals!;
	const lines = [title(config), progress(config, frame.counters.minute), ""];
	lines.push(
		`Experience: ${counted(totals.servers, "server")}, ${counted(frame.counters.online, "player")} online, new day in ${clock(frame.secondsToNewDay)}`,
	);
	lines.push(submitsLine(frame.counters));
	for (const line of totalsLines(totals)) lines.push(line);
	const top = math.clamp(size.rows - 1 - (lines.size() + 2), 1, TOP);
	lines.push("", beside(`Kills (top ${top})`, `DailyKills ${frame.day} (top ${top})`, size.columns));
	const left = rows(frame.kills, kills, top);
	const right = rows(frame.dailyKills, kills, top);
	for (let i = 0; i < top; i++) lines.push(beside(left[i], right[i], size.columns));
	return lines;
}

/** Rows the full view takes: a terminal needs one more (the line the cursor waits on). */
export const FULL_ROWS = 31;

/**
 * The live view for a terminal of `size`: the full view when it fits (80 x 32 and
 * up), else the compact one; the experience's totals in scale mode. No line is
 * wider than the terminal, and the view leaves its last row free, so redrawing
 * it in place never scrolls.
 */
export function liveView(config: SimulationConfig, frame: Frame, size: Size): string[] {
	const full = size.rows > FULL_ROWS && size.columns >= COLUMNS;
	const lines = frame.totals
		? scaleView(config, frame, size)
		: full
			? fullView(config, frame, size.columns)
			: compactView(config, frame, size);
	const shown = new Array<string>();
	for (const line of lines) if (shown.size() < size.rows - 1) shown.push(clip(line, size.columns));
	return shown;
}

/**
 * The escape codes that draw `lines` over the view drawn before (`previous` rows
 * tall, 0 for none): the cursor back to the view's first row, each row erased
 * and drawn again, rows the old view had beyond the new one erased. The screen is
 * never cleared (terminals such as tmux keep a cleared screen in their scrollback),
 * and only the first view scrolls the terminal.
 */
export function redraw(lines: ReadonlyArray<string>, previous: number): string {
	const extra = math.max(0, previous - lines.size());
	const erased = string.rep("\n\x1b[2K", extra);
	return `${previous > 0 ? `\x1b[${previous}F` : ""}\x1b[2K${lines.join("\n\x1b[2K")}${erased}${extra > 0 ? `\x1b[${extra}A` : ""}`;
}

/**
 * Plain lines, for CI logs and pipes: each within 80 columns, whole at an hour of 1,000 servers' counts
 * (wrapped at words only past them).
 */
export function plainLines(config: SimulationConfig, frame: Frame): string[] {
	const c = frame.counters;
	const head = `[${string.format("%5.1f", c.minute)}/${count(config.minutes)} min]`;
	const lines = [
		`${head} submits ${count(c.submits)}, writes ${count(c.writes)}, failed ${count(c.failed)}, dropped ${count(c.dropped)}`,
	];
	const totals = frame.totals;
	if (totals) {
		const { messages, records } = totals;
		lines.push(
			`  backend reads (lists) ${count(totals.lists)}, key reads ${count(totals.reads)}, page refreshes ${count(totals.pageRefreshes)}`,
			`  throttled ${count(totals.queued)}, dropped ${count(totals.droppedServer + totals.droppedExperience)}; MemoryStore ${count(totals.memoryCalls)} (${count(totals.memoryRefused)} refused)`,
			`  messages ${count(messages.published)} published, ${count(messages.delivered)} delivered, ${count(messages.lost)} lost`,
			`  records ${count(records.records)}, on every server in ${seconds(records.p50)} (median), ${seconds(records.p99)} (p99)`,
			`  Kills leader ${leader(frame.kills)}; DailyKills ${frame.day} leader ${leader(frame.dailyKills)}`,
		);
	} else {
		lines.push(
			`  top() ${count(c.topCalls)}, backend reads ${count(c.backendReads)}, names lookups ${count(c.namesCalls)}`,
			`  Kills leader ${leader(frame.kills)}; DailyKills ${frame.day} leader ${leader(frame.dailyKills)}`,
		);
		const followed = frame.followed;
		if (followed)
			lines.push(
				`  ${followed.name}: ${standingOf(followed.me)}, ${followed.friends?.size() ?? "?"} on their friends board`,
			);
	}
	return wrapAll(lines, COLUMNS, "    ");
}

// One line for the servers' closes and drains.
function serverLine(name: string, server: Summary["servers"][number]): string {
	const drain = server.drain;
	if (!drain) return `${name}: no drain result`;
	return `${name}: closed ${server.complete ? "within" : "past"} the close budget; drain ${drain.Complete ? "complete" : `incomplete (${drain.Error})`}, ${count(drain.Remaining)} remaining, ${count(drain.Failed)} failed`;
}

/** One client's board: what the spectator's client held of Kills, and whether it is server 1's page. */
export function clientLines(client: ClientBoard): string[] {
	const page = client.same ? "server 1's last page" : "NOT server 1's last page";
	const lines = wrap(
		`a client on server 1: ${count(client.received)} bytes in ${count(client.events)} events, ${page}:`,
	);
	if (client.rows.isEmpty()) return [...lines, `  ${CLIENT_BOARD}: no rows yet`];
	// A row is never broken: those that do not fit go on the next line, under the first.
	let line = `  ${CLIENT_BOARD}`;
	const indent = string.rep(" ", line.size());
	for (const row of client.rows) {
		const text = `${row.Rank}. ${row.DisplayName ?? row.Key} ${count(row.Value)}`;
		if (line !== indent && width(`${line}   ${text}`) > COLUMNS) {
			lines.push(line);
			line = indent;
		}
		line = clip(`${line}   ${text}`, COLUMNS);
	}
	lines.push(line);
	return lines;
}

// Servers named one by one in the summary at most; past it, one line for all and the ones in trouble.
const NAMED_SERVERS = 8;

/** The closing summary, as lines within 80 columns. */
export function summaryLines(summary: Summary): string[] {
	const lines = ["", "Summary", ...counterLines(summary.counters)];
	if (isScale(summary.config)) for (const line of totalsLines(summary.totals)) lines.push(line);
	const servers = summary.servers;
	if (servers.size() <= NAMED_SERVERS)
		servers.forEach((server, index) => {
			for (const line of wrap(serverLine(`server ${index + 1}`, server))) lines.push(line);
		});
	else {
		const troubled = servers.filter((server) => !server.complete || !server.drain?.Complete);
		lines.push(
			`${counted(servers.size(), "server")}: ${count(servers.size() - troubled.size())} closed within the close budget with their drain complete`,
		);
		let named = 0;
		servers.forEach((server, index) => {
			if (named >= NAMED_SERVERS || !troubled.includes(server)) return;
			named += 1;
			for (const line of wrap(serverLine(`  server ${index + 1}`, server), COLUMNS, "    ")) lines.push(line);
		});
		if (troubled.size() > named) lines.push(`  and ${count(troubled.size() - named)} more`);
	}
	if (summary.client) for (const line of clientLines(summary.client)) lines.push(line);
	const lost = summary.mismatches.size();
	lines.push(
		`model check: ${count(summary.checked)} values expected, ${count(summary.checked - lost)} on the boards, ${count(lost)} missing`,
		summary.days.isEmpty()
			? "  (best scores; no kills yet, so no daily kill counts)"
			: `  (best scores, and daily kill counts for ${summary.days.join(" and ")})`,
	);
	for (const mismatch of summary.mismatches) {
		const text = `  ${mismatch.board} ${mismatch.user}: expected ${mismatch.expected}, stored ${mismatch.stored ?? "nothing"}: ${mismatch.reason}`;
		for (const line of wrap(text, COLUMNS, "    ")) lines.push(line);
	}
	for (const line of verdictLines(summary)) lines.push(line);
	return lines;
}

// Each kind of loss as the verdict counts it (each lost value is named above with its full reason).
const LOSS_LABELS: Record<LossKind, string> = {
	dropped: "dropped (MaxWriteAttempts)",
	deadline: "drain deadline",
	"no progress": "drain gave up",
	"drain error": "drain error",
	unexplained: "unexplained",
};

/**
 * The run's verdict, the summary's last line: "OK" only when every expected
 * value is stored; otherwise "LOSSES", the count and the reasons by kind
 * (wrapped, indented, when they do not fit 80 columns).
 */
export function verdictLines(summary: Summary): string[] {
	if (summary.ok)
		return [`OK: every expected value is stored (${count(summary.checked)} of ${count(summary.checked)})`];
	const reasons = summary.losses.map((loss) => `${count(loss.count)} ${LOSS_LABELS[loss.kind]}`);
	const lines = [`LOSSES: ${count(summary.mismatches.size())} of ${count(summary.checked)} lost:`];
	reasons.forEach((reason, index) => {
		const text = index < reasons.size() - 1 ? `${reason},` : reason;
		const last = lines.size() - 1;
		if (lines[last].size() + 1 + text.size() <= COLUMNS) lines[last] = `${lines[last]} ${text}`;
		else lines.push(`  ${text}`);
	});
	return lines;
}
