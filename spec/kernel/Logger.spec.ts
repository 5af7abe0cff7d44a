import { afterEach, describe, expect, it } from "@rbxts/jest-globals";
import { Logger } from "../../kernel";
import { captureLogs } from "./doubles";

describe("Logger", () => {
	afterEach(() => Logger.setLevel("info"));

	it("prefixes the scope and joins the arguments", () => {
		const logs = captureLogs();
		Logger.scope("BoardService").warn("drain incomplete:", 3, "left");
		logs.restore();
		expect(logs.messages()).toEqual(["[BoardService] drain incomplete: 3 left"]);
		expect(logs.records[0].level).toBe("warn");
	});

	it("drops records below the threshold", () => {
		const logs = captureLogs();
		const log = Logger.scope("S");
		log.debug("hidden");
		Logger.setLevel("debug");
		log.debug("shown");
		Logger.setLevel("error");
		log.warn("hidden too");
		log.error("loud");
		logs.restore();
		expect(logs.messages()).toEqual(["[S] shown", "[S] loud"]);
	});

	it("adds and removes sinks; a sink that errors does not stop the others", () => {
		const logs = captureLogs();
		const extra = new Array<string>();
		Logger.addSink(() => error("broken sink"));
		const remove = Logger.addSink((record) => extra.push(record.message));
		Logger.scope("S").info("one");
		remove();
		Logger.scope("S").info("two");
		logs.restore();
		expect(extra).toEqual(["one"]);
		expect(logs.messages()).toEqual(["[S] one", "[S] two"]);
	});
});
