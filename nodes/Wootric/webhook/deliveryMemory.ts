/**
 * What the webhook triggers of one n8n process remember of the items they emitted, so that the
 * service's repeated delivery of an event does not start the workflow twice in that process.
 *
 * Invariant: while its entry lasts, an idempotency key (events.ts) starts a node's workflow at most
 * once. Checking and noting a key is one synchronous step, so deliveries arriving together cannot
 * both pass. An entry lasts the node's Max Age after the later of its delivery's sending and its
 * arrival: a repeat older than that is refused by its age (receive.ts). A key whose execution n8n
 * answered it could not start, or whose delivery's connection closed before n8n answered it, is
 * taken back out, so that the service's retry starts it (after such a hang-up, possibly a second
 * time: n8n may have started it); a copy arriving while n8n has not yet answered waits for that
 * answer, for a bounded time (noteStarting, receive.ts).
 *
 * What it does not decide: whether an event is new, which follows from the delivery alone
 * (receive.ts). It only folds repeats within one process; across a restart, or at a second webhook
 * process, a repeat starts the workflow again with the same key, for the system downstream to fold.
 * Not static data: n8n reads a webhook's static data from the database when a request arrives and
 * writes it back when the request is done, without a lock, so concurrent deliveries would each
 * start from the same memory and the last write would erase the others.
 *
 * Bound: MAX_ENTRIES live keys in the process, over every node. Expired keys go as new ones are
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
 * Whether the key is new to the node: notes it until `expires` (ms) if it is. A key noted before
 * and expired since is new again.
 */
export function noteKey(node: string, key: string, expires: number, now: number): boolean {
	const entry = entryKey(node, key);
	const noted = entries.get(entry);
	if (noted !== undefined && noted.expires > now) return false;
	const item = { entry, expires, noted: ++notedSoFar };
	entries.set(entry, item);
	push(item);
	prune(now);
	return true;
}

/**
 * The keys whose delivery n8n is still answering: whether it started its execution, once known.
 * A copy of that delivery waits for it before it is told there is nothing to start, since a key
 * whose execution did not start is taken back out, and the copy must then start it. Bound: one
 * entry per delivery n8n is answering, each gone with its answer or with its connection, however
 * that ends.
 */
const inFlight = new Map<string, Promise<boolean>>();

/**
 * Notes that the keys' execution starts with `started`: a key whose execution did not start is
 * taken back out, so that the next delivery of its event (a copy waiting, or the service's retry)
 * starts the workflow.
 */
export function noteStarting(node: string, keys: string[], started: Promise<boolean>): void {
	for (const key of keys) {
		const entry = entryKey(node, key);
		inFlight.set(entry, started);
		void started.then((didStart) => {
			if (inFlight.get(entry) === started) inFlight.delete(entry);
			if (!didStart) entries.delete(entry);
		});
	}
}

/** Whether the key's execution started, once n8n has answered its delivery; undefined if it has. */
export function whenStarted(node: string, key: string): Promise<boolean> | undefined {
	return inFlight.get(entryKey(node, key));
}

/** Forgets every key of a node (a test listen starting afresh or ending). */
export function forgetNode(node: string): void {
	const prefix = `${node}|`;
	for (const key of entries.keys()) if (key.startsWith(prefix)) entries.delete(key);
}

/** How many keys the process holds (the bench and the tests of the bound read it). */
export const rememberedKeys = () => entries.size;
