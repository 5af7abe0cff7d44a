import { Entry, Standing } from "../../plugins/leaderboards";
import { count, counted } from "../../spec/gate/format";
import { Counters, Frame, LossKind, SimulationConfig, Summary } from "./simulation";

const WIDTH = 40;

function pad(text: string, width: number): string {
	const [length] = utf8.len(text);
	const size = typeIs(length, "number") ? length : text.size();
	return size >= width ? text : text + string.rep(" ", width - size);
}

function percent(value: number): string {
	return string.format("%.0f%%", value * 100);
}

function rows(entries: ReadonlyArray<Entry | Standing>, format: (value: number) => string, count = 10): string[] {
	const lines = new Array<string>();
	for (let i = 0; i < count; i++) {
		const entry = entries[i];
		lines.push(
			entry
				? `${pad(entry.Rank !== undefined ? tostring(entry.Rank) : "-", 4)}${pad(entry.DisplayName ?? entry.Key, 21)}${entry.Value !== undefined ? format(entry.Value) : ""}`
				: "",
		);
	}
	return lines;
}

// Where the followed player stands: "#12 with 40", "40 (past the top page)", "no kills yet", or "unknown".
function standingOf(me?: Standing): string {
	if (!me) return "unknown (read failed)";
	if (me.Value === undefined) return "no kills yet";
	return me.Rank !== undefined
		? `#${me.Rank} with ${count(me.Value)}`
		: `${count(me.Value)} (past the top page: no rank)`;
}

/** The counters that tell the story, as lines. */
export function counterLines(counters: Counters): string[] {
	const perSubmit = counters.submits > 0 ? counters.writes / counters.submits : 0;
	return [
		`submits ${count(counters.submits)}   backend writes ${count(counters.writes)} (${string.format("%.3f", perSubmit)} per submit)   write budget used ${percent(counters.budgetUsed)}`,
		`top() calls ${count(counters.topCalls)}   backend reads ${count(counters.backendReads)}   names lookups ${count(counters.namesCalls)} (${counted(counters.namesResults, "user")})`,
		`failed writes ${count(counters.failed)}   dropped ${count(counters.dropped)}   players online ${count(counters.online)}`,
	];
}

function progress(config: SimulationConfig, minute: number): string {
	const done = math.clamp(math.floor((minute / config.minutes) * WIDTH), 0, WIDTH);
	return `[${string.rep("#", done)}${string.rep("-", WIDTH - done)}] ${string.format("%.1f", minute)}/${config.minutes} min`;
}

function clock(seconds: number): string {
	const whole = math.max(0, math.floor(seconds));
	return string.format("%02d:%02d:%02d", math.floor(whole / 3600), math.floor((whole % 3600) / 60), whole % 60);
}

function dayTitle(frame: Frame): string {
	return `DailyKills ${frame.day} (top 3; a new day in ${clock(frame.secondsToNewDay)})`;
}

/** The run's first line: the backend and the configuration. */
export function title(config: SimulationConfig): string {
	const backend = config.backend === "memorystore" ? "MemoryStore sorted maps" : "OrderedDataStores";
	return `Leaderboards demo on ${backend}: ${counted(config.servers, "server")} x ${counted(config.players, "player")}, ${counted(config.minutes, "minute")}, seed ${config.seed}, fail rate ${config.failRate}`;
}

/** A whole screen, for a terminal that redraws. */
export function screen(config: SimulationConfig, frame: Frame): string {
	const kills = rows(frame.kills, (value) => count(value));
	const times = rows(frame.bestTimes, (value) => string.format("%.3f s", value / 1000));
	const lines = [
		title(config),
		progress(config, frame.counters.minute),
		"",
		`${pad("Kills (top 10)", WIDTH)}BestTime (top 10)`,
	];
	for (let i = 0; i < 10; i++) lines.push(pad(kills[i], WIDTH) + times[i]);
	lines.push("", `${dayTitle(frame)}`);
	const daily = rows(frame.dailyKills, (value) => count(value));
	for (let i = 0; i < 3; i++) lines.push(daily[i]);
	const followed = frame.followed;
	lines.push("", `${followed.name} on Kills: ${standingOf(followed.me)}`);
	lines.push(`${pad("Around them (2 either side)", WIDTH)}${followed.name} and friends (top 5)`);
	const around = rows(followed.around ?? [], (value) => count(value), 5);
	const friends = rows(followed.friends ?? [], (value) => count(value), 5);
	for (let i = 0; i < 5; i++) lines.push(pad(around[i], WIDTH) + friends[i]);
	lines.push("");
	for (const line of counterLines(frame.counters)) lines.push(line);
	return "\x1b[H\x1b[2J" + lines.join("\n");
}

/** One plain line, for CI logs and pipes. */
export function plainLine(config: SimulationConfig, frame: Frame): string {
	const c = frame.counters;
	const leader = frame.kills[0];
	const today = frame.dailyKills[0];
	return `[${string.format("%5.1f", c.minute)}/${config.minutes} min] submits ${count(c.submits)}, writes ${count(c.writes)}, top() ${count(c.topCalls)} / reads ${count(c.backendReads)}, names ${count(c.namesCalls)}, failed ${count(c.failed)}, dropped ${count(c.dropped)}; Kills leader ${leader ? `${leader.DisplayName ?? leader.Key} ${count(leader.Value)}` : "-"}; DailyKills ${frame.day} leader ${today ? `${today.DisplayName ?? today.Key} ${count(today.Value)}` : "-"}; ${frame.followed.name} ${standingOf(frame.followed.me)}, ${frame.followed.friends?.size() ?? "?"} on their friends board`;
}

/** The closing summary, as lines. */
export function summaryLines(summary: Summary): string[] {
	const lines = ["", "Summary", ...counterLines(summary.counters)];
	summary.servers.forEach((server, index) => {
		const drain = server.drain;
		lines.push(
			drain
				? `server ${index + 1}: closed ${server.complete ? "within" : "past"} the close budget; drain ${drain.Complete ? "complete" : `incomplete (${drain.Error})`}, ${count(drain.Remaining)} remaining, ${count(drain.Failed)} failed during the drain`
				: `server ${index + 1}: no drain result`,
		);
	});
	lines.push(
		`model check: ${count(summary.checked)} values expected (best scores, and kill counts on the daily board for ${summary.days.join(" and ")}), ${count(summary.checked - summary.mismatches.size())} on the boards, ${count(summary.mismatches.size())} missing`,
	);
	for (const mismatch of summary.mismatches)
		lines.push(
			`  ${mismatch.board} ${mismatch.user}: expected ${mismatch.expected}, stored ${mismatch.stored ?? "nothing"}: ${mismatch.reason}`,
		);
	for (const line of verdictLines(summary)) lines.push(line);
	return lines;
}

// The verdict's width: it reads whole in an 80-column terminal.
const VERDICT_COLUMNS = 80;

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
		if (lines[last].size() + 1 + text.size() <= VERDICT_COLUMNS) lines[last] = `${lines[last]} ${text}`;
		else lines.push(`  ${text}`);
	});
	return lines;
}
