/**
 * Where a trigger event stream stands between polls, kept in the workflow's static data: the newest
 * second read of the time the stream watches (`since`: created_at, or updated_at for Updated Response) and
 * the records already read at or after the window start. The next poll asks for `[gte] = window start`
 * and skips those: a same-second cluster larger than a page is never cut, and nothing is read twice. It is
 * advanced only after a poll succeeded, so a failed poll repeats its window instead of losing it.
 */
export interface EventCursor {
	since: number;
	/** The records already read (emitted or filtered out) in the window the next poll re-reads. */
	seen: ReadRecord[];
	/** [id, created second] of new responses read but not complete yet (Wait Until Complete): read again until they are. */
	pending?: Array<[number, number]>;
	/** Seconds whose unreadable records the user was told of, so a re-read window does not tell again. */
	told?: number[];
}

/**
 * [id, second] of a record read; for Updated Response also a digest of its content, since a record can
 * change twice within one updated_at second, once before a poll read it and once after.
 */
export type ReadRecord = [id: number, second: number, version?: string];

/** The most ids a cursor remembers (a lookback over a very busy account); the newest are kept. */
const MAX_REMEMBERED_IDS = 20_000;

export function startCursor(since: number): EventCursor {
	return { since, seen: [] };
}

export function isEventCursor(value: unknown): value is EventCursor {
	const cursor = value as EventCursor | undefined;
	return typeof cursor?.since === 'number' && Array.isArray(cursor.seen);
}

/**
 * A second this long past (by this machine's clock) gets no new records: the service stamps a record
 * with the time it stores it, and a minute covers its commit and a clock that is somewhat off.
 */
export const CLOSED_AFTER_SECONDS = 60;

/**
 * The first second a poll at `now` asks for: `since` again (records may still arrive in it), or after it
 * once it is closed, so that an idle poll does not re-read a large cluster at `since`; the lookback before
 * that, or the oldest response still pending.
 */
export function windowStart(cursor: EventCursor, lookbackSeconds: number, now: number): number {
	const from = lookbackSeconds > 0 ? cursor.since - lookbackSeconds : now - cursor.since >= CLOSED_AFTER_SECONDS ? cursor.since + 1 : cursor.since;
	return Math.min(from, ...(cursor.pending ?? []).map(([, second]) => second));
}

/**
 * Whether a record was read already: its id, or with a version (Updated Response, which emits every
 * change) the same version or a later second.
 */
export function wasRead(cursor: EventCursor): (record: ReadRecord) => boolean {
	const seen = new Map(cursor.seen.map((entry) => [entry[0], entry]));
	return ([id, second, version]) => {
		const read = seen.get(id);
		if (!read || version === undefined) return read !== undefined;
		return read[1] > second || (read[1] === second && read[2] === version);
	};
}

export interface PollProgress {
	/** The records read and done with. */
	read: ReadRecord[];
	/** [id, second] of the responses still waiting to be complete. */
	pending: Array<[number, number]>;
	/** Seconds told unreadable in this poll: the cursor moves past them (their records cannot be reached anyway). */
	told: number[];
}

/** The cursor after a poll at `now`; pure, so a failed poll simply does not call it. */
export function advanceCursor(cursor: EventCursor, progress: PollProgress, lookbackSeconds: number, now: number): EventCursor {
	const seconds = [...progress.read, ...progress.pending].map(([, second]) => second);
	const since = Math.max(cursor.since, ...seconds, ...progress.told.map((second) => second + 1));
	const next: EventCursor = { since, seen: [] };
	if (progress.pending.length > 0) next.pending = progress.pending;
	const keepFrom = windowStart(next, lookbackSeconds, now);
	const byId = new Map<number, ReadRecord>();
	for (const entry of [...cursor.seen, ...progress.read]) if (entry[1] >= keepFrom) byId.set(entry[0], entry);
	next.seen = [...byId.values()].sort((a, b) => a[1] - b[1] || a[0] - b[0]).slice(-MAX_REMEMBERED_IDS);
	const told = [...(cursor.told ?? []), ...progress.told].filter((second) => second >= keepFrom);
	if (told.length > 0) next.told = [...new Set(told)];
	return next;
}
