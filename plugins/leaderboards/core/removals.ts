import { Kernel } from "../../../kernel";
import { Removals as RemovalsContract, Topics } from "../contracts";

/** Removals hidden from every read until they land, and keys being erased (contracts/removals.ts). */
export class Removals implements RemovalsContract {
	// Per board and key: math.huge until the removal lands, then the landing's number.
	private readonly hidden = new Map<string, Map<string, number>>();
	private landings = 0;
	// Keys being erased (erase()), on every board: math.huge until the erasure is done, then the landing's number.
	private readonly erasing = new Map<string, number>();
	underWay = 0;
	private readonly listeners = new Array<(board: string) => void>();

	constructor(kernel: Kernel) {
		kernel.Bus.subscribe(Topics.Removed, (_, board, key) => {
			const hidden = this.hidden.get(board);
			if (!hidden?.has(key)) return;
			this.landings += 1;
			hidden.set(key, this.landings);
			this.settled(board);
		});
		kernel.Bus.subscribe(Topics.Dropped, (_, board, key, value) => {
			if (value !== undefined || !this.hidden.get(board)?.delete(key)) return;
			this.settled(board);
		});
	}

	hide(board: string, key: string) {
		let hidden = this.hidden.get(board);
		if (!hidden) {
			hidden = new Map();
			this.hidden.set(board, hidden);
		}
		hidden.set(key, math.huge);
	}

	mark(): number {
		return this.landings;
	}

	hides(board: string, key: string, since?: number): boolean {
		const at = math.max(this.hidden.get(board)?.get(key) ?? -1, this.erasing.get(key) ?? -1);
		return at > (since ?? this.landings);
	}

	erase(key: string, boards: ReadonlyArray<string>) {
		if (this.erasing.get(key) !== math.huge) this.underWay += 1;
		this.erasing.set(key, math.huge);
		for (const board of boards) this.settled(board);
	}

	erased(key: string, boards: ReadonlyArray<string>) {
		if (this.erasing.get(key) !== math.huge) return;
		this.underWay -= 1;
		this.landings += 1;
		this.erasing.set(key, this.landings);
		for (const board of boards) this.settled(board);
	}

	isErasing(key: string): boolean {
		return this.underWay > 0 && this.erasing.get(key) === math.huge;
	}

	readFrom(board: string, since: number) {
		const hidden = this.hidden.get(board);
		if (!hidden) return;
		for (const [key, at] of hidden) if (at <= since) hidden.delete(key);
		if (hidden.isEmpty()) this.hidden.delete(board);
	}

	onSettled(listener: (board: string) => void) {
		this.listeners.push(listener);
	}

	private settled(board: string) {
		for (const listener of this.listeners) listener(board);
	}
}
