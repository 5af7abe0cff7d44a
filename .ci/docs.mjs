#!/usr/bin/env node
// Checks README.md and docs/*.md, fast, before npm test builds anything:
//
//   - every relative link resolves: the file exists, and an #anchor names a
//     heading of that page (as GitHub and the docs site, VitePress, both spell it);
//     docs pages link only to docs pages (the site holds nothing else);
//   - every Luau and TypeScript code block is either marked `<!-- fragment -->`
//     (an excerpt that does not run on its own) or `<!-- file: path -->`, and then
//     its lines are that file's, in order (a line `-- ...` or `// ...` skips lines),
//     so the example is the code the specs run; a block of another language (a
//     workflow) with `<!-- file: path -->` is checked the same way, and one marked
//     `<!-- commands in: path -->` has each command in a line of that file (the
//     commands the fixture games run);
//   - no line outside code blocks is over 300 characters, so a page reads at a phone's
//     width and a table cell stays short (docs/design.md is the original, verbatim, and
//     docs/benchmarks.md's table rows are the bench's own Markdown: both exempt);
//   - every repository path a page names in code marks (`spec/docs/figures.spec.ts`) exists,
//     and every spec docs/how-it-works.md's promise table names (`leaderboards/bounds`,
//     then `reserve` in the same folder) is a spec file, so a promise never points at a
//     spec that went;
//   - each call's section in docs/reference.md opens with its doc comment's first sentence
//     (plugins/leaderboards/attach.ts, format.ts), so the summaries say one thing;
//   - the figures README.md and docs/index.md quote are the ones in the blocks the
//     commands generate: docs/demo.md holds the demo's own output (rechecked against a
//     fresh run by .ci/figures.mjs) and docs/benchmarks.md the bench table (its cheap
//     rows rechecked at full size by spec/docs/figures.spec.ts).
//
//   node .ci/docs.mjs          exit 1 naming each problem, 0 when none

import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const docs = join(root, "docs");
const pages = [
	join(root, "README.md"),
	...readdirSync(docs)
		.filter((f) => f.endsWith(".md"))
		.map((f) => join(docs, f)),
];
const CODE = new Set(["lua", "luau", "ts", "typescript"]);
const problems = [];

// GitHub's heading ids: lower case, punctuation dropped, spaces to hyphens.
function githubSlug(text) {
	return text
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s_-]/gu, "")
		.replace(/\s/g, "-");
}

// VitePress's (@mdit-vue/shared slugify): punctuation and spaces to one hyphen, trimmed.
function siteSlug(text) {
	return text
		.normalize("NFKD")
		.replace(/[\u0300-\u036F\u0000-\u001f]/g, "")
		.replace(/[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'“”‘’<>,.?/]+/g, "-")
		.replace(/-{2,}/g, "-")
		.replace(/^-+|-+$/g, "")
		.replace(/^(\d)/, "_$1")
		.toLowerCase();
}

// The text of a heading as rendered: code spans and links reduced to their text.
function headingText(line) {
	return line
		.replace(/^#+\s+/, "")
		.replace(/`([^`]*)`/g, "$1")
		.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1");
}

// Lines outside fenced blocks, with their fence state, and the blocks themselves.
function parse(text) {
	const lines = text.split("\n");
	const prose = [];
	const blocks = [];
	let open;
	lines.forEach((line, index) => {
		const fence = /^(\s*)(`{3,})(\S*)/.exec(line);
		if (open) {
			if (fence && fence[2].length >= open.fence.length && line.trim() === fence[2]) {
				blocks.push(open);
				open = undefined;
			} else open.lines.push(line);
		} else if (fence) {
			let before = index - 1;
			while (before >= 0 && lines[before].trim() === "") before--;
			open = { fence: fence[2], lang: fence[3], line: index + 1, marker: lines[before]?.trim() ?? "", lines: [] };
		} else prose.push({ line, number: index + 1 });
	});
	return { prose, blocks };
}

const anchorsOf = new Map();
function anchors(file) {
	if (!anchorsOf.has(file)) {
		const github = new Map();
		const site = new Set();
		for (const { line } of parse(readFileSync(file, "utf8")).prose) {
			if (!/^#{1,6}\s/.test(line)) continue;
			const text = headingText(line);
			// GitHub numbers repeated headings: -1, -2, ...
			const slug = githubSlug(text);
			const seen = github.get(slug) ?? 0;
			github.set(seen === 0 ? slug : `${slug}-${seen}`, 0);
			github.set(slug, seen + 1);
			site.add(siteSlug(text));
		}
		anchorsOf.set(file, { github: new Set(github.keys()), site });
	}
	return anchorsOf.get(file);
}

function checkLinks(page, prose) {
	const inDocs = dirname(page) === docs;
	for (const { line, number } of prose) {
		const text = line.replace(/`[^`]*`/g, "");
		for (const [, target] of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
			if (/^[a-z]+:/i.test(target)) continue;
			const where = `${relative(root, page)}:${number}`;
			const [path, anchor] = target.split("#");
			const file = path === "" ? page : resolve(dirname(page), path);
			if (!existsSync(file)) {
				problems.push(`${where}: ${target}: no such file`);
				continue;
			}
			if (inDocs && dirname(file) !== docs) {
				problems.push(`${where}: ${target}: a docs page links outside docs/ (the site does not hold it)`);
				continue;
			}
			if (anchor === undefined) continue;
			if (!file.endsWith(".md")) {
				problems.push(`${where}: ${target}: an anchor into a file that is not a page`);
				continue;
			}
			const { github, site } = anchors(file);
			if (!github.has(anchor) || !site.has(anchor))
				problems.push(
					`${where}: ${target}: no heading "${anchor}" in ${relative(root, file)} (${github.has(anchor) ? "the site" : "GitHub"} would miss it)`,
				);
		}
	}
}

// The block's lines are the file's, in order (indentation aside: an excerpt from inside a
// function is shown at the page's margin); `-- ...` or `// ...` skips any number of the file's lines.
function matches(block, source) {
	const lines = source.split("\n").map((line) => line.trim());
	const wanted = block.map((line) => line.trim());
	const elided = (line) => /^(--|\/\/) \.\.\.$/.test(line);
	// From block line i, with the file at `at`; `free`: the next line may be anywhere after `at`.
	const from = (i, at, free) => {
		if (i === wanted.length) return true;
		if (elided(wanted[i])) return from(i + 1, at, true);
		if (!free) return lines[at] === wanted[i] && from(i + 1, at + 1, false);
		for (let k = lines.indexOf(wanted[i], at); k >= 0; k = lines.indexOf(wanted[i], k + 1))
			if (from(i + 1, k + 1, false)) return true;
		return false;
	};
	return from(0, 0, true);
}

// Each command of the block (a `# comment` after it aside) is in a line of the file: a workflow
// step or a script the fixture games run (.ci/games.mjs), so the page shows what CI runs.
function checkCommands(where, block, file) {
	const path = join(root, file);
	if (!existsSync(path)) return problems.push(`${where}: ${file}: no such file`);
	const lines = readFileSync(path, "utf8").split("\n");
	for (const command of block.lines.map((line) => line.replace(/\s+#.*$/, "").trim()).filter(Boolean))
		if (!lines.some((line) => line.includes(command)))
			problems.push(`${where}: the command ${command} is not in ${file} (what the fixtures run)`);
}

const LONGEST_LINE = 300;

function checkLineLengths(page, prose) {
	const name = relative(root, page);
	if (name === "docs/design.md") return;
	for (const { line, number } of prose) {
		if (name === "docs/benchmarks.md" && line.startsWith("|")) continue;
		if (line.length > LONGEST_LINE)
			problems.push(
				`${name}:${number}: a line of ${line.length} characters (at most ${LONGEST_LINE} outside code blocks: split the sentence or the cell)`,
			);
	}
}

function checkBlocks(page, blocks) {
	for (const block of blocks) {
		const where = `${relative(root, page)}:${block.line}`;
		const commandsIn = /^<!-- commands in: (\S+) -->$/.exec(block.marker)?.[1];
		if (commandsIn) {
			checkCommands(where, block, commandsIn);
			continue;
		}
		const file = /^<!-- file: (\S+) -->$/.exec(block.marker)?.[1];
		// Luau and TypeScript blocks always; any other block (a workflow, a shell script) when it names its file.
		if (!CODE.has(block.lang) && !file) continue;
		if (block.marker === "<!-- fragment -->") continue;
		if (!file) {
			problems.push(
				`${where}: a ${block.lang} block needs <!-- file: path --> (the file it is from) or <!-- fragment -->`,
			);
			continue;
		}
		const path = join(root, file);
		if (!existsSync(path)) problems.push(`${where}: ${file}: no such file`);
		else if (!matches(block.lines, readFileSync(path, "utf8")))
			problems.push(`${where}: the block is not ${file} (copy the file's lines again)`);
	}
}

// The phrases the front pages quote, built from the generated blocks' figures.
function quotedPhrases() {
	const demo = readFileSync(join(docs, "demo.md"), "utf8");
	const bench = readFileSync(join(docs, "benchmarks.md"), "utf8");
	const grouped = (figure) => Number(figure.replace(/,/g, "")).toLocaleString("en-US");
	const find = (text, pattern, what) => {
		const match = pattern.exec(text);
		if (!match) problems.push(`docs: ${what} is not where the front pages' figures come from`);
		return match ?? [];
	};
	const [, topCalls, reads] = find(
		demo,
		/top\(\) calls ([\d,]*\d),? +backend reads ([\d,]*\d)/,
		"the demo's top() calls",
	);
	const [, expected] = find(demo, /model check: ([\d,]+) values expected/, "the demo's model check");
	const [, callers, read] = find(
		bench,
		/\| Read fan-out: ([\d,]+) concurrent top\(\) callers \| ([\d,]+) backend read/,
		"the bench's read fan-out row",
	);
	const [, drainPlayers, seconds, drained, allowed] = find(
		bench,
		/\| Drain: [^|]*, ([\d,]+) players, ShutdownSeconds ([\d,]+) \| ([\d,]+) written[^|]*\|[^|]*\|[^|]*\| ≥ 95% of ([\d,]+)/,
		"the bench's drain row",
	);
	const budgetRows = [
		...bench.matchAll(
			/\| Budget use under backlog[^|]*\| [\d,]+ of [\d,]+ writes \(([\d.]+)%\)[^|]*\|[^|]*write-through: [^|]*?([\d,]+) dropped/g,
		),
	];
	const used = budgetRows.map((m) => Number(m[1]));
	const dropped = budgetRows.map((m) => Number(m[2].replace(/,/g, "")));
	const both = [
		`use ${Math.min(...used)}-${Math.max(...used)}% of the write budget`,
		`${grouped(String(Math.min(...dropped)))} to ${grouped(String(Math.max(...dropped)))}`,
		`${grouped(callers)} concurrent top() callers cost ${read} backend read`,
		`${grouped(topCalls)} top() calls and ${reads} backend reads`,
		`${grouped(drained)} writes in ${seconds} s where a ${drainPlayers}-player server's budget allows ${grouped(allowed)}`,
		`${grouped(expected)} values a model of the game expects`,
	];
	const [, perPlayer, left] = find(
		bench,
		/\| Writes a player costs: [^|]*\| ([\d.]+) writes a minute a player \([\d,]+ writes\), ([\d.]+)% of the OrderedWrite budget left/,
		"the bench's writes a player costs row",
	);
	return new Map([
		[
			join(root, "README.md"),
			[
				...both,
				`costs ${perPlayer} writes a minute a player and leaves ${Math.round(Number(left))}% of the budget`,
			],
		],
		[join(docs, "index.md"), both],
	]);
}

// The first sentence, as read: code marks and links' targets dropped, whitespace collapsed, up to the first ". ".
const firstSentence = (text) => {
	const plain = text
		.replace(/`/g, "")
		.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
		.replace(/\s+/g, " ")
		.trim();
	const stop = plain.indexOf(". ");
	return stop < 0 ? plain : plain.slice(0, stop + 1);
};

// Each public member's doc comment in the declaring files, by name.
function docComments() {
	const comments = new Map();
	for (const file of ["plugins/leaderboards/attach.ts", "plugins/leaderboards/format.ts"]) {
		const source = readFileSync(join(root, file), "utf8");
		for (const [, body, name] of source.matchAll(
			/\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*(?:export (?:function|const) |readonly )?(\w+)[<(:]/g,
		))
			comments.set(name, body.replace(/^\s*\* ?/gm, " "));
	}
	return comments;
}

function checkSummaries() {
	const comments = docComments();
	const text = readFileSync(join(docs, "reference.md"), "utf8");
	const boards = text.slice(
		text.indexOf("\n## The boards\n"),
		text.indexOf("\n## ", text.indexOf("\n## The boards\n") + 1),
	);
	for (const [, name, after] of boards.matchAll(/\n### (\w+)\n\n```\n[^\n]*\n```\n\n([\s\S]*?)\n\n/g)) {
		const comment = comments.get(name);
		if (!comment) {
			problems.push(`docs/reference.md: ${name} has no doc comment in attach.ts or format.ts to match`);
			continue;
		}
		const [page, code] = [firstSentence(after), firstSentence(comment)];
		if (page !== code)
			problems.push(`docs/reference.md: ${name} says "${page}" where its doc comment says "${code}"`);
	}
}

const ROOTS = /^(spec|bench|cli|\.ci|plugins|kernel|examples)\/[^\s(*<]*$/;

function checkPaths(page, prose) {
	for (const { line, number } of prose)
		for (const [, path] of line.matchAll(/`([^`]+)`/g))
			if (
				ROOTS.test(path) &&
				!existsSync(join(root, path.replace(/:\d+$/, ""))) &&
				!existsSync(join(root, `spec/${path}.spec.ts`)) // a spec by its short name (cli/erasure)
			)
				problems.push(`${relative(root, page)}:${number}: ${path}: no such file or folder`);
}

// The third cell of each row under "## Which spec checks which promise": `folder/name` a spec file,
// a bare `name` one in the last folder named, "the model test" and `gate/*` as they read.
function checkPromiseTable() {
	const page = join(docs, "how-it-works.md");
	const text = readFileSync(page, "utf8");
	const start = text.indexOf("\n## Which spec checks which promise\n");
	if (start < 0) return problems.push("docs/how-it-works.md: no section ## Which spec checks which promise");
	const section = text.slice(start, text.indexOf("\n## ", start + 1));
	let specs = 0;
	for (const row of section.split("\n").filter((line) => line.startsWith("| ["))) {
		let folder;
		for (const [, name] of row
			.split(" | ")
			.at(-1)
			.matchAll(/`([^`]+)`/g)) {
			if (name.includes("*") || name.startsWith("spec/") || name.startsWith(".ci/")) continue;
			if (name.includes("/")) folder = name.split("/")[0];
			const file = `spec/${name.includes("/") ? name : `${folder}/${name}`}.spec.ts`;
			specs += 1;
			if (!existsSync(join(root, file)))
				problems.push(`docs/how-it-works.md: the promise table names ${name}: no ${file}`);
		}
	}
	if (specs === 0) problems.push("docs/how-it-works.md: the promise table names no spec");
}

checkSummaries();
checkPromiseTable();
for (const page of pages) {
	const { prose, blocks } = parse(readFileSync(page, "utf8"));
	checkLinks(page, prose);
	checkLineLengths(page, prose);
	checkPaths(page, prose);
	checkBlocks(page, blocks);
}
for (const [page, phrases] of quotedPhrases()) {
	// As read: line breaks and code marks do not count.
	const text = readFileSync(page, "utf8").replace(/`/g, "").replace(/\s+/g, " ");
	for (const phrase of phrases)
		if (!text.includes(phrase))
			problems.push(`${relative(root, page)}: quotes a figure its source no longer gives: "${phrase}"`);
}
if (problems.length > 0) {
	process.stderr.write(`docs: ${problems.length} problem(s)\n${problems.join("\n")}\n`);
	process.exit(1);
}
process.stdout.write(`docs: ${pages.length} pages, every link, anchor and code block checked\n`);
