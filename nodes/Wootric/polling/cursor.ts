/**
 * Where the trigger stands on one list endpoint (/v1/responses or /v1/declines), kept in static
 * data. Every poll reads the endpoint's records by `updated_at`, oldest first, from `complete + 1`
 * on: a new record shows there (its updated_at is when the service stored it), and so does every
 * change.
 *
 * Invariant: every record whose updated_at is at or before `complete` was read, as it is now, by a
 * read that the service answered (its Date header, the service's clock) at least SETTLE_SECONDS
 * after `complete`. The service makes a record readable within SETTLE_SECONDS of the time it stamps
 * on it, so nothing can still appear in those seconds: they are never read again. Records read in
 * later seconds are read again by the next poll and recognised by `recent` (id, second, version),
 * the only ids kept.
 *
 * So a record is new exactly when it is not in `recent` and either was created after `complete` or
 * has an id above `storedThrough` (Wootric numbers records in the order it stores them; only a
 * record stored late with an older created_at, which Lookback emits, needs that). A record read
 * for the first time is one event: new when it is new and within reach (`from`, Lookback), else a
 * change if its updated_at is not its created_at. A new record created at or before `complete` is taken for an import,
 * unchanged, unless a record with a higher id was read stamped SETTLE_SECONDS or more before its
 * updated_at (read-position.ts, storedBefore): then it was stored before, invalidated and left out
 * of the list, and its updated_at is a change. A record in `recent` in another state is a
 * change, whatever its seconds.
 *
 * A poll that stops early (a cap of records or of time) is complete through the second before the
 * one it stopped in. A record created in the seconds it read that changed past that second before
 * the read reached it is unread there, and its id may be below `storedThrough` now: the poll reads
 * such records by created_at before it ends (closing-look.ts, readMovedPastStop), so that each is read for
 * the first time, new, as above, and kept in `recent` at its later second. The next poll goes on
 * inside the stopped second (`stoppedIn`) only where that second was settled when read: a record
 * that enters a second before the records read there shifts them, which no check of one page sees.
 *
 * Where Wootric ignores the `updated` filter (`by: 'created'`), the same holds along created_at,
 * which brings new records only: `complete` counts created_at seconds, Lookback's window is read
 * again on every poll, and a record stays in `recent` until its updated_at (when it was stored, or
 * later) has settled too, so that the ids of settled seconds vouch for `storedThrough` as above.
 *
 * Bounds: `recent` holds the records stamped in the last SETTLE_SECONDS before the poll's answer
 * (plus, after a poll that stopped early, the second it stopped in and the new records read past
 * it, at most the records created in the seconds it read); `waiting` the new responses without a comment of the last
 * Treat as Complete After minutes (Wait Until Complete only); `unmatched` the new responses of those
 * minutes that the filters left out (none without filters), until those minutes have been read for
 * good; `told` one key per warning, while its second is young. Neither Lookback nor the time between
 * polls adds to them.
 */
export interface StreamCursor {
	/** The last updated_at (or, `by: 'created'`, created_at) second read for good (the invariant). */
	complete: number;
	/**
	 * The first created_at second that counts as new: activation, or Start From. Lookback never
	 * reaches before it.
	 */
	from: number;
	/** Every record with an id at or below this was readable when `complete` was read. */
	storedThrough: number;
	/** The records read in seconds after `complete`. */
	recent: ReadRecord[];
	/**
	 * [second, records read]: the last poll stopped inside the updated_at second `complete + 1`,
	 * having read that many of its records, the first ones in the service's order, all of them
	 * SETTLE_SECONDS or more after that second (the service's clock), when nothing could enter it
	 * any more. The next poll starts at the page before the first it has not read, and checks that
	 * page is all read (nothing left the second before it since), so that a second larger than what
	 * one poll may read is read across polls. Unset (a poll that stopped in a younger second too,
	 * where a record entering before the pages read would shift them unseen): from the second's
	 * first page.
	 */
	stoppedIn?: [second: number, read: number];
	/**
	 * 'created': Wootric ignored the `updated` filter (an older variant of its API), so the endpoint
	 * is read along created_at, and `complete` counts created_at seconds. Unset: along updated_at.
	 */
	by?: 'created';
	/**
	 * [id, created second] of new responses held until they are complete (Wait Until Complete); of an
	 * import stored late, also the updated_at second it arrived with (that state is no change).
	 */
	waiting?: Array<[id: number, created: number, arrived?: number]>;
	/**
	 * [id, last second it is new] of new responses that matched no filter when read, while a change
	 * can still make them match as new (Treat as Complete After; events/index.ts, responseEvents).
	 */
	unmatched?: Array<[id: number, lastNewSecond: number]>;
	/**
	 * `updated/created` seconds of records no filter could reach that the user was told of, while
	 * young.
	 */
	told?: string[];
}

/**
 * [id, updated second, version]: the version tells two states of a record within one second apart.
 */
export type ReadRecord = [id: number, second: number, version: string];

/**
 * How long after the second it stamps on a record the service may take to make it readable (its
 * commit), with the Date header's own whole second. A second this old by the service's clock gets
 * nothing new.
 */
export const SETTLE_SECONDS = 10;

export function isStreamCursor(value: unknown): value is StreamCursor {
	const cursor = value as StreamCursor | undefined;
	return (
		typeof cursor?.complete === 'number' &&
		typeof cursor.from === 'number' &&
		Array.isArray(cursor.recent)
	);
}

/** A cursor that emits records created at `from` or later, none before. */
export function startCursor(from: number): StreamCursor {
	return { complete: from - 1, from, storedThrough: 0, recent: [] };
}

/** How one record read in a poll stands against the cursor. */
export interface Sighting {
	/** Read before in this state (nothing to do). */
	known: boolean;
	/** Read before in another state: a change, whatever its seconds. */
	changed: boolean;
	/** Stored since the cursor's last complete read. */
	isNew: boolean;
}

/** Tells, for each record a poll reads, whether it is new, a change, or known already. */
export function sightingsOf(
	cursor: StreamCursor,
): (entry: ReadRecord, createdSecond: number) => Sighting {
	const recent = new Map(cursor.recent.map((entry) => [entry[0], entry]));
	return ([id, second, version], createdSecond) => {
		const before = recent.get(id);
		const known = before !== undefined && before[1] === second && before[2] === version;
		return {
			known,
			changed: before !== undefined && !known,
			isNew: before === undefined && (createdSecond > cursor.complete || id > cursor.storedThrough),
		};
	};
}

/**
 * The first created_at second a poll emits as new: after `complete` less the lookback, never before
 * `from`.
 */
export function newFrom(cursor: StreamCursor, lookbackSeconds: number): number {
	return Math.max(cursor.from, cursor.complete + 1 - lookbackSeconds);
}

export interface PollProgress {
	/** When the service answered the poll's first page (UNIX seconds). */
	answeredAt: number;
	/** Every record read, in the order read. */
	read: ReadRecord[];
	/**
	 * The last updated second the poll read all of: less than the last second read when it stopped
	 * early.
	 */
	readThrough: number;
	waiting?: Array<[number, number, number?]>;
	unmatched?: Array<[number, number]>;
	told: string[];
	/** Where the reading stopped inside a second, and how many of its records it had read. */
	stoppedIn?: [second: number, read: number];
}

/** The cursor after a poll; pure, so a failed poll simply does not call it. */
export function advanceCursor(cursor: StreamCursor, progress: PollProgress): StreamCursor {
	const complete = Math.max(
		cursor.complete,
		Math.min(progress.answeredAt - SETTLE_SECONDS, progress.readThrough),
	);
	const recent = new Map<number, ReadRecord>();
	let storedThrough = cursor.storedThrough;
	for (const entry of [...cursor.recent, ...progress.read]) {
		if (entry[1] > complete) recent.set(entry[0], entry);
		else if (entry[0] > storedThrough) storedThrough = entry[0];
	}
	const next: StreamCursor = {
		complete,
		from: cursor.from,
		storedThrough,
		recent: [...recent.values()],
	};
	if (progress.waiting && progress.waiting.length > 0) next.waiting = progress.waiting;
	// A change that could still make one new would be stamped after `complete`.
	const unmatched = (progress.unmatched ?? []).filter(([, lastNew]) => lastNew > complete);
	if (unmatched.length > 0) next.unmatched = unmatched;
	const told = [...new Set([...(cursor.told ?? []), ...progress.told])].filter(
		(key) => Number(key.split('/')[0]) > complete,
	);
	if (told.length > 0) next.told = told;
	// Only where the next poll starts in that second, and read settled (see stoppedIn): otherwise it
	// reads the second from its start.
	const stoppedSecond = progress.stoppedIn?.[0];
	if (stoppedSecond === complete + 1 && progress.answeredAt >= stoppedSecond + SETTLE_SECONDS)
		next.stoppedIn = progress.stoppedIn;
	return next;
}

/** The key a warning about one second is remembered by. */
export const toldKey = (updated: number | undefined, created: number | undefined) =>
	`${updated ?? ''}/${created ?? ''}`;
