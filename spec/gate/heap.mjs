// luau-web's WebAssembly module defines a fixed memory of about 17 MB and was
// built without memory growth, so a Luau heap past that aborts with "Cannot
// enlarge memory arrays". jest alone takes 7 MB. Before luau-web instantiates
// its module, this rewrites the limits in the binary's memory section to a
// larger initial size. Emscripten's sbrk reads the heap size from the live
// buffer, so the extra memory is simply there to allocate.

const PAGE = 65536;

function readU32(bytes, at) {
	let value = 0;
	let shift = 0;
	for (;;) {
		const byte = bytes[at++];
		value |= (byte & 0x7f) << shift;
		if ((byte & 0x80) === 0) return [value >>> 0, at];
		shift += 7;
	}
}

function writeU32(value) {
	const out = [];
	do {
		let byte = value & 0x7f;
		value >>>= 7;
		if (value !== 0) byte |= 0x80;
		out.push(byte);
	} while (value !== 0);
	return out;
}

// Returns a copy of the module with every defined memory's minimum (and
// maximum, when it has one) raised to `pages`.
export function withMemory(binary, pages) {
	const bytes = new Uint8Array(binary.buffer ?? binary, binary.byteOffset ?? 0, binary.byteLength);
	const parts = [bytes.subarray(0, 8)];
	let at = 8;
	let changed = false;
	while (at < bytes.length) {
		const id = bytes[at];
		const [size, contentStart] = readU32(bytes, at + 1);
		const end = contentStart + size;
		if (id === 5) {
			let cursor = contentStart;
			let count;
			[count, cursor] = readU32(bytes, cursor);
			const content = [...writeU32(count)];
			for (let i = 0; i < count; i++) {
				const flags = bytes[cursor++];
				let min;
				[min, cursor] = readU32(bytes, cursor);
				let max;
				if (flags & 1) [max, cursor] = readU32(bytes, cursor);
				content.push(flags, ...writeU32(Math.max(min, pages)));
				if (flags & 1) content.push(...writeU32(Math.max(max, pages)));
			}
			parts.push(Uint8Array.of(5, ...writeU32(content.length), ...content));
			changed = true;
		} else {
			parts.push(bytes.subarray(at, end));
		}
		at = end;
	}
	if (!changed) return binary;
	const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
	let offset = 0;
	for (const part of parts) {
		out.set(part, offset);
		offset += part.length;
	}
	return out;
}

// Makes the next WebAssembly module instantiated from bytes get `megabytes` of memory.
export function raiseHeap(megabytes) {
	const instantiate = WebAssembly.instantiate;
	WebAssembly.instantiate = function (source, imports) {
		if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
			source = withMemory(source, Math.ceil((megabytes * 1024 * 1024) / PAGE));
		}
		return instantiate.call(this, source, imports);
	};
}
