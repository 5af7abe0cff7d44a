// `node bench/environments.mjs`: what the gate's per-module environments cost.
// Roblox runs a script with its globals from the real environment, where Luau
// resolves built-ins (type, math.floor) once and calls them on a fast path.
// The gate's loader gives every module its own globals table through setfenv,
// which turns those fast paths off. This loads bench/environments.luau both
// ways in luau-web (the gate's VM) and times each case, the two alternating,
// median of 7 runs of 200,000 iterations, in microseconds per iteration.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { LuauState } from "luau-web";

const N = 200_000;
const RUNS = 7;
const source = readFileSync(join(dirname(fileURLToPath(import.meta.url)), "environments.luau"), "utf8");

let state;
state = await LuauState.createAsync({
	__clock: () => performance.now() / 1000,
	__load: (text, name) => state.loadstring(text, name, true),
	__source: source,
});
const driver = state.loadstring(
	`local N, RUNS = ...
	local roblox = __load(__source, "=roblox")(N)
	local fenced = __load(__source, "=gate")
	-- As the gate's loader does: a flat table of the globals. (Read without
	-- getfenv, which would turn the fast paths off for this environment too.)
	setfenv(fenced, { type = type, math = math, tostring = tostring, setmetatable = setmetatable })
	local gate = fenced(N)
	local function seconds(fn)
		local started = __clock()
		fn()
		return __clock() - started
	end
	local function median(times)
		table.sort(times)
		return times[(RUNS + 1) // 2] / N * 1e6
	end
	-- One untimed pass of every case first: the first timings otherwise carry the warm-up.
	for i, case in roblox do
		case[2]()
		gate[i][2]()
	end
	local lines = {}
	for i, case in roblox do
		local plain, under = {}, {}
		for run = 1, RUNS do
			plain[run] = seconds(case[2])
			under[run] = seconds(gate[i][2])
		end
		local a, b = median(plain), median(under)
		table.insert(lines, string.format("| %s | %.3f | %.3f | %.2fx |", case[1], a, b, b / a))
	end
	return table.concat(lines, "\\n")`,
	"=environments",
	true,
);
const [table] = await driver(N, RUNS);
console.log("| case | as Roblox runs it (µs) | under the gate's setfenv (µs) | ratio |\n|---|---|---|---|\n" + table);
