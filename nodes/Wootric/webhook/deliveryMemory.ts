/**
 * What the webhook triggers of one n8n process remember of the items they emitted, so that the
 * service's repeated delivery of an event does not start the workflow twice in that process.
 *
 * Invariant: while its entry lasts, an idempotency key (events.ts) starts a node's workflow at most
 * once. Checking and noting a key is one synchronous step, so deliveries arriving together cannot
 * both pass. An entry lasts the node's Max Age after the later of its delivery's sending and its
 * arrival: a repeat older than that is refused by its age (receive.ts). A key whose execution n8n
 * answered it could not start is taken back out, so that the service's retry starts it.
 *
 * What it does not decide: whether an event is new, which follows from the delivery alone
 * (receive.ts). It only folds repeats within one process; across a restart, or at a second webhook
 * process, a repeat starts the workflow again with the same key, for the system downstream to fold.
 * Not static data: n8n reads a webhook's static data from the database when a request arrives and
 * writes it back when the request is done, without a lock, so concurrent deliveries would each
 * start from the same memory and the last write would erase the others.
 *
 * Bound: MAX_ENTRIES keys in the process, over every node (the oldest noted forgotten first), each
 * kept no longer than its expiry, or until an older entry with a later expiry (a node with a longer
 * Max Age) goes. About 350 bytes a key (`npm run bench`: 33 MiB for 100,000).
 */
const MAX_ENTRIES = 100_000;

/** `<node>|<idempotency key>` → when the entry expires (ms). Map order is the order noted. */
const entries = new Map<string, number>();

const entryKey = (node: string, key: string) => `${node}|${key}`;

/** Drops the expired entries at the front (the oldest noted), and any beyond the bound. */
function prune(now: number): void {
	for (const [key, expires] of entries) {
		if (expires > now && entries.size <= MAX_ENTRIES) break;
		entries.delete(key);
	}
}

/**
 * Whether the key is new to the node: notes it until `expires` (ms) if it is. A key noted before
 * and expired since is new again.
 */
export function noteKey(node: string, key: string, expires: number, now: number): boolean {
	const entry = entryKey(node, key);
	const noted = entries.get(entry);
	if (noted !== undefined && noted > now) return false;
	// Re-inserted at the end: the order is the order noted.
	entries.delete(entry);
	entries.set(entry, expires);
	prune(now);
	return true;
}

/** Takes a key back out, so that the next delivery of its event starts the workflow. */
export function forgetKey(node: string, key: string): void {
	entries.delete(entryKey(node, key));
}

/** Forgets every key of a node (a test listen starting afresh or ending). */
export function forgetNode(node: string): void {
	const prefix = `${node}|`;
	for (const key of entries.keys()) if (key.startsWith(prefix)) entries.delete(key);
}

/** How many keys the process holds (the bench and the tests of the bound read it). */
export const rememberedKeys = () => entries.size;
