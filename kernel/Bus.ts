import { Logger } from "./Logger";

const log = Logger.scope("Bus");

/** A handler receives the topic first, then what was published. */
export type BusHandler = (topic: string, ...args: unknown[]) => void;

/**
 * The payloads of known topics, by name: a plugin declares its own by merging
 * into this interface (`declare module` on this file), and subscribe, once,
 * publish and wait then type those topics' arguments. Any other topic carries
 * unknown[], except in a declared topic's namespace, where a name not declared
 * is a typo and does not compile. Types only: nothing of it exists at run time.
 */
export interface BusTopics {}

/** What a known topic publishes. */
export type Payload<K extends keyof BusTopics> = Extract<BusTopics[K], unknown[]>;

/** A handler of a known topic, its payload typed. */
export type TopicHandler<K extends keyof BusTopics> = (topic: K, ...args: Payload<K>) => void;

/** The namespaces of the known topics: "Leaderboard" for "Leaderboard.Updated". */
export type TopicNamespace = keyof BusTopics extends infer K ? (K extends `${infer N}.${string}` ? N : never) : never;

/**
 * Any topic but the known ones (those take their typed payload, never unknown[]), and
 * none in a known topic's namespace: "Leaderboard.Updatd" does not compile, while a
 * game's own "Combat.Kill" does (declared in BusTopics, it is typed and guarded too).
 */
export type OtherTopic<T extends string> = T extends keyof BusTopics
	? never
	: T extends `${TopicNamespace}.${string}`
		? never
		: T;

/** A subscription. disconnect() is idempotent. */
export interface BusConnection {
	readonly connected: boolean;
	disconnect(): void;
}

class Subscription implements BusConnection {
	connected = true;

	constructor(
		private readonly list: Subscription[],
		readonly handler: BusHandler,
	) {}

	disconnect() {
		if (!this.connected) return;
		this.connected = false;
		const index = this.list.indexOf(this);
		if (index !== -1) this.list.remove(index);
	}
}

/**
 * Topics with handlers. publish never yields and never fails: each handler runs
 * on its own thread, so one that errors is logged with the topic and one that
 * yields holds no one.
 *
 * Snapshot rule: a publish reaches the handlers connected when it began and still
 * connected when their turn comes. A handler subscribed during a publish first
 * hears the next one; a handler disconnected during a publish, before its turn,
 * does not hear it.
 */
export class Bus {
	private readonly topics = new Map<string, Subscription[]>();

	/** Calls handler(topic, ...args) for every publish on topic until disconnected. */
	subscribe<K extends keyof BusTopics>(topic: K, handler: TopicHandler<K>): BusConnection;
	subscribe<T extends string>(topic: OtherTopic<T>, handler: BusHandler): BusConnection;
	subscribe(topic: string, handler: BusHandler): BusConnection {
		let list = this.topics.get(topic);
		if (!list) {
			list = [];
			this.topics.set(topic, list);
		}
		const subscription = new Subscription(list, handler);
		list.push(subscription);
		return subscription;
	}

	/** Like subscribe, for the next publish only. */
	once<K extends keyof BusTopics>(topic: K, handler: TopicHandler<K>): BusConnection;
	once<T extends string>(topic: OtherTopic<T>, handler: BusHandler): BusConnection;
	once(topic: string, handler: BusHandler): BusConnection {
		const connection = this.subscribe(topic, (...args) => {
			connection.disconnect();
			handler(...args);
		});
		return connection;
	}

	/** Delivers to every handler of topic, each on its own thread. */
	publish<K extends keyof BusTopics>(topic: K, ...args: Payload<K>): void;
	publish<T extends string>(topic: OtherTopic<T>, ...args: unknown[]): void;
	publish(topic: string, ...args: unknown[]) {
		const list = this.topics.get(topic);
		if (!list || list.size() === 0) return;
		for (const subscription of [...list]) {
			if (!subscription.connected) continue;
			task.spawn(() => {
				const [ok, problem] = pcall(subscription.handler, topic, ...args);
				if (!ok) log.error(`handler for ${topic} errored: ${problem}`);
			});
		}
	}

	/**
	 * Resolves with the next publish's arguments on topic; rejects with
	 * "Bus.wait timed out on <topic>" after timeout seconds when given.
	 * Cancelling it disconnects.
	 */
	wait<K extends keyof BusTopics>(topic: K, timeout?: number): Promise<Payload<K>>;
	wait<T extends string>(topic: OtherTopic<T>, timeout?: number): Promise<unknown[]>;
	wait(topic: string, timeout?: number): Promise<unknown[]> {
		return new Promise<unknown[]>((resolve, reject, onCancel) => {
			let timer: thread | undefined;
			const connection = this.once(topic, (_, ...args) => {
				if (timer) task.cancel(timer);
				resolve(args);
			});
			if (timeout !== undefined) {
				timer = task.delay(timeout, () => {
					connection.disconnect();
					reject(`Bus.wait timed out on ${topic}`);
				});
			}
			onCancel(() => {
				connection.disconnect();
				if (timer) task.cancel(timer);
			});
		});
	}
}
