/** An entry of a DeadlineHeap: ordered by `due`, then by `sequence`. */
export interface HeapEntry {
	due: number;
	sequence: number;
	/** Where the entry sits in its heap; -1 once it has left. */
	index: number;
}

function before(a: HeapEntry, b: HeapEntry) {
	return a.due < b.due || (a.due === b.due && a.sequence < b.sequence);
}

/** A binary min-heap that tracks positions, so removing any entry is O(log n). */
export class DeadlineHeap<T extends HeapEntry> {
	private readonly items = new Array<T>();
	private count = 0;

	size() {
		return this.count;
	}

	peek(): T | undefined {
		return this.count > 0 ? this.items[0] : undefined;
	}

	push(entry: T) {
		entry.index = this.count;
		this.items[this.count] = entry;
		this.count += 1;
		this.up(entry.index);
	}

	pop(): T | undefined {
		if (this.count === 0) return undefined;
		const top = this.items[0];
		this.remove(top);
		return top;
	}

	/** Removes entry if it is still in the heap. */
	remove(entry: T) {
		const index = entry.index;
		if (index < 0 || index >= this.count || this.items[index] !== entry) return;
		const lastIndex = this.count - 1;
		const last = this.items[lastIndex];
		this.items.remove(lastIndex);
		this.count = lastIndex;
		entry.index = -1;
		if (index === lastIndex) return;
		this.items[index] = last;
		last.index = index;
		this.down(index);
		this.up(last.index);
	}

	private swap(i: number, j: number) {
		const a = this.items[i];
		const b = this.items[j];
		this.items[i] = b;
		this.items[j] = a;
		a.index = j;
		b.index = i;
	}

	private up(index: number) {
		while (index > 0) {
			const parent = (index - 1) >> 1;
			if (!before(this.items[index], this.items[parent])) return;
			this.swap(index, parent);
			index = parent;
		}
	}

	private down(index: number) {
		for (;;) {
			const left = index * 2 + 1;
			const right = left + 1;
			let smallest = index;
			if (left < this.count && before(this.items[left], this.items[smallest])) smallest = left;
			if (right < this.count && before(this.items[right], this.items[smallest])) smallest = right;
			if (smallest === index) return;
			this.swap(index, smallest);
			index = smallest;
		}
	}
}
