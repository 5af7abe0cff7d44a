// .ci/timers.mjs's rule on small files: a loop that waits each turn on a wait destroy() does not cancel is
// found wherever it is, and one that waits on the stage's Timers is not.
import assert from "node:assert/strict";
import { test } from "node:test";
import { problemsOf } from "../timers.mjs";

const LOOP = "a loop that waits each turn on a wait destroy() does not cancel";
// The lines of the file a loop was found on.
const loopsIn = (text) =>
	problemsOf("stage.ts", text)
		.filter((problem) => problem.includes(LOOP))
		.map((problem) => Number(problem.split(":")[1]));

test("a task.wait loop in a function passed to task.spawn by name", () => {
	const text = ["function poll() {", "\twhile (true) {", "\t\ttask.wait(1);", "\t}", "}", "task.spawn(poll);"];
	assert.deepEqual(loopsIn(text.join("\n")), [2]);
	// The wait itself is a raw engine timer too.
	assert.ok(problemsOf("stage.ts", text.join("\n")).some((problem) => problem.startsWith("stage.ts:3: task.wait()")));
});

test("a loop in a method that task.spawn calls, waiting through another method's sleep()", () => {
	const text = [
		"class Stage {",
		"\tstart() {",
		"\t\ttask.spawn(() => this.renew());",
		"\t}",
		"\tprivate renew() {",
		"\t\tfor (;;) {",
		"\t\t\tif (!this.pause(20)) return;",
		"\t\t}",
		"\t}",
		"\tprivate pause(seconds: number) {",
		"\t\treturn sleep(this.scheduler, seconds).await()[0];",
		"\t}",
		"}",
	];
	assert.deepEqual(loopsIn(text.join("\n")), [6]);
});

test("a loop in a method waiting through an arrow property and a function, even when they call each other", () => {
	const text = [
		"const settle = (seconds: number) => delayed(seconds);",
		"function delayed(seconds: number): void {",
		"\tif (seconds > 1) settle(seconds - 1);",
		"\twait(seconds);",
		"}",
		"class Stage {",
		"\tprivate readonly retry = () => settle(2);",
		"\trun() {",
		"\t\tdo this.retry();",
		"\t\twhile (this.failing);",
		"\t}",
		"}",
	];
	assert.deepEqual(loopsIn(text.join("\n")), [9]);
});

test("a loop waiting on Timers.sleep, or on what it joins, is the one idiom", () => {
	const text = [
		"class Stage {",
		"\trun() {",
		"\t\tfor (let wait = 0; this.turn(wait); wait = 2) this.removeOne();",
		"\t\tfor (const lookup of this.waits) lookup.wait();",
		"\t}",
		"\tprivate turn(seconds: number) {",
		"\t\treturn this.timers.sleep(seconds).await()[0];",
		"\t}",
		"}",
	];
	assert.deepEqual(problemsOf("stage.ts", text.join("\n")), []);
});
