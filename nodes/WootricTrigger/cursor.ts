/**
 * Where a trigger event stream stands between polls, kept in the workflow's static data: the newest
 * created_at second emitted (`since`) and the ids already read at or after `since − lookback`. The next poll
 * asks for `created[gte] = since − lookback` and skips those ids: a same-second cluster larger than a page is
 * never cut, and nothing is read twice. It is advanced only after a poll succeeded, so a failed poll
 * repeats its window instead of losing it.
 */
export interface EventCursor {
	since: number;
	/** [id, created_at second] of the records already read in the window the next poll re-reads. */
	seen: Array<[number, number]>;
}

/** The most ids a cursor remembers (a lookback over a very busy account); the newest are kept. */
const MAX_REMEMBERED_IDS = 20_000;

export function startCursor(since: number): EventCursor {
	return { since, seen: [] };
}

export function isEventCursor(value: unknown): value is EventCursor {
	const cursor = value as EventCursor | undefined;
	return typeof cursor?.since === 'number' && Array.isArray(cursor.seen);
}

/** The first second the next poll asks for. */
export function windowStart(cursor: EventCursor, lookbackSeconds: number): number {
	return cursor.since - lookbackSeconds;
}

export function seenIds(cursor: EventCursor): Set<number> {
	return new Set(cursor.seen.map(([id]) => id));
}

/** The cursor after a poll read `records` ([id, second]); pure, so a failed poll simply does not call it. */
export function advanceCursor(cursor: EventCursor, records: Array<[number, number]>, lookbackSeconds: number): EventCursor {
	const since = records.reduce((newest, [, second]) => Math.max(newest, second), cursor.since);
	const keepFrom = since - lookbackSeconds;
	const byId = new Map<number, number>();
	for (const [id, second] of [...cursor.seen, ...records]) if (second >= keepFrom) byId.set(id, second);
	const seen = [...byId].sort((a, b) => a[1] - b[1] || a[0] - b[0]).slice(-MAX_REMEMBERED_IDS);
	return { since, seen };
}
