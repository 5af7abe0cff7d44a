import { ExperienceShare, PER_USER, RequestKind } from "./share";

/** What the default backend needs of DataStoreService (a spec may hand it another). */
export interface OrderedStores {
	GetOrderedDataStore(name: string): OrderedDataStore;
	GetRequestBudgetForRequestType(requestType: Enum.DataStoreRequestType): number;
}

const REQUEST_TYPES: Record<keyof typeof PER_USER, Enum.DataStoreRequestType> = {
	Read: Enum.DataStoreRequestType.OrderedRead,
	Write: Enum.DataStoreRequestType.OrderedWrite,
	List: Enum.DataStoreRequestType.OrderedList,
	Remove: Enum.DataStoreRequestType.OrderedRemove,
};

/**
 * The server level's default rates a minute, base + per player (the data store
 * limits page); the engine does not tell a game's own (SetRateLimitForRequestType).
 * Raised, the budget refills faster than rate() says and a drain reserve sized
 * from it is larger than it needs; lowered, smaller (docs/shutdown.md).
 */
const SERVER_RATES: Record<keyof typeof PER_USER, [number, number]> = {
	Read: [60, 40],
	Write: [30, 5],
	List: [5, 2],
	Remove: [30, 5],
};

/**
 * Both levels of the ordered budgets as one: a request is sent only when this
 * server's budget (GetRequestBudgetForRequestType) and its share of the
 * experience's (ExperienceShare) both hold it, and it is spent from the share
 * when sent (the engine spends the server's).
 */
export class OrderedBudgets {
	constructor(
		private readonly stores: OrderedStores,
		readonly share: ExperienceShare,
	) {}

	/** Requests of a type both levels allow now; "Refresh": lists of a shared page's refresh (the share's base part). */
	available(kind: RequestKind): number {
		const requestType = REQUEST_TYPES[kind === "Refresh" ? "List" : kind];
		return math.min(this.stores.GetRequestBudgetForRequestType(requestType), this.share.available(kind));
	}

	/** `count` requests of a kind fit both levels, and the server's budget holds `reserve` more besides. */
	allows(kind: RequestKind, count: number, reserve = 0): boolean {
		const requestType = REQUEST_TYPES[kind === "Refresh" ? "List" : kind];
		const server = this.stores.GetRequestBudgetForRequestType(requestType);
		return server >= count + reserve && this.share.available(kind) >= count;
	}

	/** Requests of a type a minute both levels refill at (the server's at its default rates). */
	rate(kind: keyof typeof PER_USER): number {
		const [base, perPlayer] = SERVER_RATES[kind];
		return math.min(base + perPlayer * this.share.players(), this.share.rate(kind));
	}

	spend(kind: RequestKind, count = 1) {
		this.share.spend(kind, count);
	}

	/** Runs a request; an error it raises is raised again, after the share heard it (experience throttling backs off). */
	send<T>(request: () => T): T {
		const [ok, result] = pcall(request);
		if (ok) return result;
		this.share.observe(result);
		error(result, 0);
	}
}
