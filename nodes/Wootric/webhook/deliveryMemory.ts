/**
 * What the webhook triggers of one n8n process remember of the items they emitted, so that the
 * service's repeated delivery of an event does not start the workflow twice in that process.
 *
 * Invariant: a noted key is always either in flight, with the promise of its delivery's answer
 * (whether n8n started its execution), or settled: its execution started. So a delivery that finds
 * some of its keys noted (a copy of it, or another delivery of the same event: a comment's change
 * that stands for its response's Response Created too) finds for each either a start to wait for or
 * one that happened, never a gap between them. What holds it: noting keys and registering their
 * answer is one synchronous call (claimKeys), and a key whose execution did not start (n8n answered
 * it could not, or the delivery's connection closed unanswered) is taken back out as that answer
 * settles, before anything waiting on it goes on; a delivery waiting on it, or the service's retry,
 * then starts it (after a hang-up, possibly a second time: n8n may have started it). A delivery
 * with some keys in flight for another waits for that answer before it is answered itself
 * (receive.ts): the service stops sending it once answered 2xx, and the other's retry may come too
 * late. While its entry lasts, a key starts a node's workflow at most once more than such hang-ups.
 * An entry lasts the node's Max Age after the later of its delivery's sending and its arrival: a
 * repeat older than that is refused by its age (receive.ts).
 *
 * What it does not decide: whether an event is new, which follows from the delivery alone
 * (receive.ts). It only folds repeats within one process; across a restart, or at a second webhook
 * process, a repeat starts the workflow again with the same key, for the system downstream to fold.
 * Not static data: n8n reads a webhook's static data from the database when a request arrives and
 * writes it back when the request is done, without a lock, so concurrent deliveries would each
 * start from the same memory and the last write would erase the others.
 *
 * Bound: MAX_ENTRIES live keys in the process, over every node, and one in-flight answer per key a
 * delivery n8n is still answering (gone with that answer). Expired keys go as new ones are
 * noted, wherever they stand (one node's 7-day key noted early holds none of them back); only when
 * more keys than the bound are live does the one closest to its expiry go (of equal expiries, the
 * oldest noted). The expiry queue holds at most twice as many items as there are keys (it is
 * rebuilt when keys taken back out leave more); `npm run bench` measures the bytes a key takes.
 */
const MAX_ENTRIES = 100_000;

/** `<node>|<idempotency key>` → its expiry (ms) and the order it was noted in. */
const entries = new Map<string, Expiry>();

interface Expiry {
	entry: string;
	expires: number;
	noted: number;
}
let notedSoFar = 0;

/**
 * The expiries, soonest first, as a binary heap. An item whose entry was noted again, taken back out
 * or forgotten since is stale: skipped when it comes up.
 */
let queue: Expiry[] = [];

const sooner = (a: Expiry, b: Expiry) =>
	a.expires < b.expires || (a.expires === b.expires && a.noted < b.noted);

function push(item: Expiry): void {
	queue.push(item);
	for (let index = queue.length - 1; index > 0; ) {
		const parent = (index - 1) >> 1;
		if (!sooner(queue[index], queue[parent])) break;
		[queue[index], queue[parent]] = [queue[parent], queue[index]];
		index = parent;
	}
}

function pop(): Expiry | undefined {
	const top = queue[0];
	const last = queue.pop();
	if (queue.length === 0 || last === undefined) return top;
	queue[0] = last;
	for (let index = 0; ; ) {
		const [left, right] = [2 * index + 1, 2 * index + 2];
		let first = index;
		if (left < queue.length && sooner(queue[left], queue[first])) first = left;
		if (right < queue.length && sooner(queue[right], queue[first])) first = right;
		if (first === index) break;
		[queue[index], queue[first]] = [queue[first], queue[index]];
		index = first;
	}
	return top;
}

const isLive = (item: Expiry) => entries.get(item.entry) === item;

const entryKey = (node: string, key: string) => `${node}|${key}`;

/** Drops every expired key, then the soonest to expire while more than the bound are live. */
function prune(now: number): void {
	while (queue.length > 0) {
		const top = queue[0];
		if (isLive(top) && top.expires > now && entries.size <= MAX_ENTRIES) break;
		pop();
		if (isLive(top)) entries.delete(top.entry);
	}
	if (queue.length > 2 * Math.max(entries.size, 1_000)) {
		queue = [];
		for (const item of entries.values()) push(item);
	}
}

/**
 * The key's new entry if it is new to the node, noted until `expires` (ms). A key noted before and
 * expired since is new again. Only claimKeys calls it, which registers the answer at once.
 */
function noteKey(node: string, key: string, expires: number, now: number): Expiry | undefined {
	const entry = entryKey(node, key);
	const noted = entries.get(entry);
	if (noted !== undefined && noted.expires > now) return undefined;
	const item = { entry, expires, noted: ++notedSoFar };
	entries.set(entry, item);
	push(item);
	prune(now);
	return item;
}

/**
 * The keys whose delivery n8n is still answering: whether it started its execution, once known.
 * Bound: one entry per key of a delivery n8n is answering, each gone with its answer or with its
 * connection, however that ends.
 */
const inFlight = new Map<string, Promise<boolean>>();

/** What a delivery's keys are to it (claimKeys). */
export interface Claim {
	/** The keys new to the node, noted now: this delivery starts them, its answer registered. */
	fresh: string[];
	/**
	 * The answers of the other deliveries still starting the rest of its keys, to wait for before
	 * claiming again (a key whose execution did not start is taken back out by then, and is fresh to
	 * this delivery). Empty: each of the rest was started before, and this delivery starts none.
	 */
	twins: Array<Promise<boolean>>;
}

/**
 * Notes the keys new to the node until `expires` (ms) and registers `answer` (whether n8n started
 * their execution) for them, in one synchronous step: the invariant's gap cannot open. A key whose
 * execution did not start is taken back out once `answer` says so, so that the next delivery of its
 * event (a delivery waiting on it, or the service's retry) starts the workflow. A delivery claims
 * again after waiting: the keys it claimed before are its own, in flight with its `answer`, neither
 * fresh nor a twin.
 */
export function claimKeys(
	node: string,
	keys: string[],
	expires: number,
	now: number,
	answer: Promise<boolean>,
): Claim {
	const fresh: string[] = [];
	const twins = new Set<Promise<boolean>>();
	for (const key of keys) {
		const item = noteKey(node, key, expires, now);
		if (item === undefined) {
			const holder = inFlight.get(entryKey(node, key));
			if (holder !== undefined && holder !== answer) twins.add(holder);
			continue;
		}
		fresh.push(key);
		inFlight.set(item.entry, answer);
		void answer.then((started) => {
			if (inFlight.get(item.entry) === answer) inFlight.delete(item.entry);
			// Unless the key expired meanwhile and another delivery noted it again.
			if (!started && isLive(item)) entries.delete(item.entry);
		});
	}
	return { fresh, twins: [...twins] };
}

/** Forgets every key of a node (a test listen starting afresh or ending). */
export function forgetNode(node: string): void {
	const prefix = `${node}|`;
	for (const key of entries.keys()) if (key.startsWith(prefix)) entries.delete(key);
}

/** How many keys the process holds (the bench and the tests of the bound read it). */
export const rememberedKeys = () => entries.size;
