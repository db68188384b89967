/**
 * What a webhook trigger node remembers of recent deliveries, so that the service's at-least-once
 * delivery emits each event once.
 *
 * Invariant: within the bound below, an event (its kind, record id and updated_at second) is handed
 * to the workflow at most once, and a response at most once as Response Created, whatever the order
 * its deliveries arrive in. Checking and noting a delivery is one synchronous step, so deliveries
 * arriving at the same time cannot both pass. A delivery whose execution n8n answered it could not
 * start is taken back out (receive.ts), so that the service's retry starts it.
 *
 * Where: the n8n process's memory, not the workflow's static data. n8n reads a webhook's static data
 * from the database when a request arrives and writes it back when the request is done, without a
 * lock, so concurrent deliveries would each start from the same memory and the last write would
 * erase the others. The cost: a restart forgets, so a repeat delivered across a restart is emitted
 * again; with several webhook processes (queue mode), each process remembers what it received.
 *
 * Bound: per node, the last REMEMBERED events and REMEMBERED responses emitted as created; at most
 * NODES memories (the least recently used is forgotten). Each "Listen for test event" starts its
 * test memory afresh, and that memory goes when the listen ends; production's stays while the
 * process runs.
 */
const REMEMBERED = 10_000;
const NODES = 200;

/** A set that forgets its oldest entries past a size. */
class RecentSet<T> {
	private readonly entries = new Set<T>();

	constructor(private readonly size: number) {}

	/** Whether the value was new: notes it, forgetting the oldest beyond the size. */
	add(value: T): boolean {
		if (this.entries.has(value)) return false;
		this.entries.add(value);
		if (this.entries.size > this.size) this.entries.delete(this.entries.values().next().value as T);
		return true;
	}

	has(value: T): boolean {
		return this.entries.has(value);
	}

	delete(value: T): void {
		this.entries.delete(value);
	}
}

export interface DeliveryMemory {
	/** `<event>:<id>:<updated second>` of every delivery received. */
	events: RecentSet<string>;
	/** Ids of responses already emitted as Response Created. */
	announced: RecentSet<number>;
}

const memories = new Map<string, DeliveryMemory>();

/** The memory of one node in one mode (listening for a test event does not touch production's). */
export function deliveryMemory(key: string): DeliveryMemory {
	let memory = memories.get(key);
	if (memory) memories.delete(key);
	else memory = { events: new RecentSet(REMEMBERED), announced: new RecentSet(REMEMBERED) };
	// Re-inserted: Map order is recency, the first key the least recently used.
	memories.set(key, memory);
	if (memories.size > NODES) memories.delete(memories.keys().next().value as string);
	return memory;
}

export function forgetDeliveries(key: string): void {
	memories.delete(key);
}
