// luau-web 1.4.0's getmetatable was shipped with a debug line left in (luau-interop,
// VM/src/lbaselib.cpp:96: printf("1: %s, tag: %d", ...), no newline): every getmetatable
// of a value that has a metatable writes about 19 bytes to C's stdout. Emscripten's glue
// keeps fd 1's bytes, one array element a byte, until a newline (printCharBuffers[1]),
// which never comes: at 1,000 servers the array passed V8's largest FixedArray in about
// an hour and V8 aborted the process ("Fatal JavaScript invalid size error 169220804").
// This takes fd 1's writes before the glue does, drops that debug text, and writes the
// rest to stdout a line at a time, as the glue would have.

// A record, up to the tag's last digit: the next record's "1: " or any non-digit follows it
// (the records run together, "tag: 1291: (null), ..."). A record cut off by the end of
// a write waits for the next one.
const DEBUG = /1: (?:\(null\)|[^\n]*?), tag: -?\d+?(?=1: |\D)/g;

// Call before luau-web instantiates its module.
export function filterStdout(write = (text) => process.stdout.write(text)) {
	const instantiate = WebAssembly.instantiate;
	WebAssembly.instantiate = function (source, imports) {
		// Emscripten passes one object as both "env" and "wasi_snapshot_preview1".
		const wasi = imports?.wasi_snapshot_preview1;
		let memory;
		if (wasi?.fd_write) {
			const fdWrite = wasi.fd_write;
			const decoder = new TextDecoder();
			let pending = "";
			wasi.fd_write = (fd, iov, iovcnt, pnum) => {
				if (fd !== 1 || !memory) return fdWrite(fd, iov, iovcnt, pnum);
				const view = new DataView(memory.buffer);
				let written = 0;
				for (let i = 0; i < iovcnt; i++) {
					const ptr = view.getUint32(iov + 8 * i, true);
					const len = view.getUint32(iov + 8 * i + 4, true);
					pending += decoder.decode(new Uint8Array(memory.buffer, ptr, len), { stream: true });
					written += len;
				}
				pending = pending.replace(DEBUG, "");
				const end = pending.lastIndexOf("\n");
				if (end >= 0) {
					write(pending.slice(0, end + 1));
					pending = pending.slice(end + 1);
				}
				view.setUint32(pnum, written, true);
				return 0;
			};
		}
		return instantiate.call(this, source, imports).then((result) => {
			memory = (result.instance ?? result).exports.memory;
			return result;
		});
	};
}
