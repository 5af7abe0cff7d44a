// The loopback HTTP front of the gate's Open Cloud: a real HTTP server on
// 127.0.0.1 that a tool outside the gate (the moderation CLI, curl) talks to as
// it would talk to apis.roblox.com, answered by the gate's emulated Open Cloud
// (engine/opencloud.luau) through engine/front.luau.
//
// The host must never call into Luau from inside a host call (luau-web hangs on
// "concurrent lua execution"), and Node's event loop does not run while Luau
// does. So the HTTP server and the tool's processes live in a worker thread with
// an event loop of its own; it hands each request to the main thread through a
// MessagePort, and Luau polls for them once a frame through one host function,
// `front(command, json)`:
//
//   serve { port }           start the server (once) on 127.0.0.1:port (any free port when 0); returns { port }
//   poll { virtual, pace }   the requests and process exits since the last poll;
//                            while pacing, waits until wall time catches up with
//                            the virtual clock, so budgets that refill on the
//                            virtual clock refill at the rate a tool's wall clock sees
//   reply { id, status, body, date }   answers request id (date: Unix seconds for the Date header)
//   spawn { argv, env, input, timeout } starts `node argv...` in the project; returns { id }
//   invoke { module, argv, env, input } calls the module's main(argv, { env, stdout, stderr, stdin })
//                            in the worker, a program run without a process of its own (a process
//                            costs a third of a second of CPU to start on this machine); returns { id }
//   stop {}                  closes the server and kills the processes still running
//
// The main thread reads the port with receiveMessageOnPort (no event loop
// needed) and sleeps on a shared counter with Atomics.wait, which the worker
// bumps after each message, so a poll wakes as soon as a request arrives.

import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { dirname, resolve } from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath, pathToFileURL } from "node:url";
import { MessageChannel, Worker, isMainThread, receiveMessageOnPort, workerData } from "node:worker_threads";

const projectDir = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
// The longest a poll sleeps at once (milliseconds); frames are 1/64 s.
const MAX_SLEEP = 100;
// The wall clock in ms: run.mjs hands performance.now to the Luau VM as a clock of its own.
const wallNow = () => Number(process.hrtime.bigint()) / 1e6;
// A process the front started is killed past this many wall seconds unless told otherwise.
const PROCESS_TIMEOUT = 120;

/** The main thread's side: the host function `front(command, json)` for engine/front.luau. */
export function createFront() {
	let worker;
	let port;
	let signal;
	let running = 0; // processes started and not yet exited
	let base; // { wall, virtual } while pacing

	const events = [];
	function drain() {
		for (let message = receiveMessageOnPort(port); message; message = receiveMessageOnPort(port)) {
			if (message.message.kind === "exit") running -= 1;
			events.push(message.message);
		}
	}

	// Waits for the worker's answer to a command (serve), with the counter as the wake-up.
	function awaitKind(kind) {
		for (;;) {
			const seen = Atomics.load(signal, 0);
			drain();
			const at = events.findIndex((event) => event.kind === kind);
			if (at >= 0) return events.splice(at, 1)[0];
			Atomics.wait(signal, 0, seen, 1000);
		}
	}

	function start() {
		if (worker) return;
		const channel = new MessageChannel();
		signal = new Int32Array(new SharedArrayBuffer(4));
		port = channel.port1;
		worker = new Worker(new URL(import.meta.url), {
			workerData: { front: true, port: channel.port2, signal },
			transferList: [channel.port2],
		});
		worker.unref();
		port.unref();
	}

	const commands = {
		serve({ port: wanted }) {
			start();
			port.postMessage({ kind: "serve", port: wanted ?? 0 });
			const answer = awaitKind("listening");
			return answer.error ? { error: answer.error } : { port: answer.port };
		},
		poll({ virtual, pace }) {
			if (!worker) return [];
			const seen = Atomics.load(signal, 0);
			drain();
			const pacing = pace === "always" || (pace === "tool" && running > 0);
			if (!pacing) base = undefined;
			else if (events.length === 0) {
				base ??= { wall: wallNow(), virtual };
				const ahead = base.wall + (virtual - base.virtual) * 1000 - wallNow();
				if (ahead > 0) {
					Atomics.wait(signal, 0, seen, Math.min(ahead, MAX_SLEEP));
					drain();
				}
			}
			return events.splice(0);
		},
		reply(answer) {
			port.postMessage({ kind: "reply", ...answer });
		},
		spawn(request) {
			start();
			running += 1;
			const id = `p${Math.random().toString(36).slice(2)}`;
			port.postMessage({ kind: "spawn", id, ...request });
			return { id };
		},
		invoke(request) {
			start();
			running += 1;
			const id = `i${Math.random().toString(36).slice(2)}`;
			port.postMessage({ kind: "invoke", id, ...request });
			return { id };
		},
		stop() {
			if (!worker) return {};
			port.postMessage({ kind: "stop" });
			awaitKind("stopped");
			return {};
		},
	};

	return {
		call(command, payload) {
			const handler = commands[command];
			if (!handler) throw new Error(`front: no command ${command}`);
			const result = handler(payload ? JSON.parse(payload) : {});
			return result === undefined ? undefined : JSON.stringify(result);
		},
	};
}

// The worker's side: the HTTP server and the processes.
function runWorker({ port, signal }) {
	const answers = new Map(); // request id -> http.ServerResponse
	const processes = new Map(); // process id -> ChildProcess
	let server;
	let listening;
	let sequence = 0;

	const post = (message) => {
		port.postMessage(message);
		Atomics.add(signal, 0, 1);
		Atomics.notify(signal, 0);
	};

	function receive(request, response) {
		const chunks = [];
		request.on("data", (chunk) => chunks.push(chunk));
		request.on("end", () => {
			const url = new URL(request.url ?? "/", "http://127.0.0.1");
			sequence += 1;
			const id = `r${sequence}`;
			answers.set(id, response);
			response.on("close", () => answers.delete(id));
			post({
				kind: "request",
				id,
				method: request.method,
				path: url.pathname,
				query: Object.fromEntries(url.searchParams),
				apiKey: request.headers["x-api-key"],
				contentType: request.headers["content-type"],
				body: Buffer.concat(chunks).toString("utf8"),
			});
		});
	}

	function serve(wanted) {
		if (listening) return post({ kind: "listening", port: listening });
		server = createServer(receive);
		server.keepAliveTimeout = 1000;
		server.once("error", (error) => {
			server = undefined;
			post({ kind: "listening", error: `cannot listen on 127.0.0.1:${wanted}: ${error.message}` });
		});
		server.listen(wanted, "127.0.0.1", () => {
			listening = server.address().port;
			post({ kind: "listening", port: listening });
		});
	}

	function answer({ id, status, body, date }) {
		const response = answers.get(id);
		if (!response) return;
		answers.delete(id);
		const headers = { "content-type": "application/json; charset=utf-8" };
		if (typeof date === "number") headers.date = new Date(date * 1000).toUTCString();
		response.writeHead(status, headers);
		response.end(body);
	}

	function start({ id, argv, env, input, timeout }) {
		const child = spawn(process.execPath, argv, {
			cwd: projectDir,
			// Only what a shell would pass on, plus what the caller sets: never this process's environment.
			env: { PATH: process.env.PATH ?? "", ...(env ?? {}) },
			stdio: ["pipe", "pipe", "pipe"],
		});
		processes.set(id, child);
		let stdout = "";
		let stderr = "";
		child.stdout.on("data", (chunk) => (stdout += chunk));
		child.stderr.on("data", (chunk) => (stderr += chunk));
		child.stdin.on("error", () => {});
		child.stdin.end(input ?? "");
		const timer = setTimeout(() => child.kill("SIGKILL"), (timeout ?? PROCESS_TIMEOUT) * 1000);
		child.on("close", (code, signalName) => {
			clearTimeout(timer);
			processes.delete(id);
			post({ kind: "exit", id, code, signal: signalName, stdout, stderr });
		});
		child.on("error", (error) => {
			stderr += String(error);
		});
	}

	// A program's main(argv, io) in this thread: its exit code and what it wrote, as a process's.
	async function invoke({ id, module, argv, env, input }) {
		let stdout = "";
		let stderr = "";
		const sink = (append) => ({ write: (text) => (append(String(text)), true), once: () => {}, isTTY: false });
		let code;
		try {
			const { main } = await import(pathToFileURL(resolve(projectDir, module)).href);
			code = await main(argv, {
				env: { PATH: process.env.PATH ?? "", ...(env ?? {}) },
				stdout: sink((text) => (stdout += text)),
				stderr: sink((text) => (stderr += text)),
				stdin: Readable.from(input ? [input] : []),
			});
		} catch (error) {
			stderr += String(error?.stack ?? error);
			code = 1;
		}
		post({ kind: "exit", id, code, stdout, stderr });
	}

	function stop() {
		for (const child of processes.values()) child.kill("SIGKILL");
		for (const response of answers.values()) response.destroy();
		answers.clear();
		if (!server) return post({ kind: "stopped" });
		server.closeAllConnections();
		server.close(() => post({ kind: "stopped" }));
		server = undefined;
		listening = undefined;
	}

	port.on("message", (message) => {
		if (message.kind === "serve") serve(message.port);
		else if (message.kind === "reply") answer(message);
		else if (message.kind === "spawn") start(message);
		else if (message.kind === "invoke") invoke(message);
		else if (message.kind === "stop") stop();
	});
}

if (!isMainThread && workerData?.front) runWorker(workerData);
