import type { Failure, IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { eventQuery, STREAMS, versionOf, type EventName, type Stream } from '../events';
import {
	answerId,
	declaring,
	IgnoredParametersError,
	listAll,
	OutOfTimeError,
	PER_PAGE,
	wootricSeconds,
	type ListRequest,
	type ParamHash,
	type UnreadableRecords,
} from '../transport';
import {
	advanceCursor,
	newFrom,
	SETTLE_SECONDS,
	sightingsOf,
	toldKey,
	type PollProgress,
	type ReadRecord,
	type Sighting,
	type StreamCursor,
} from './cursor';
import { changedWhileRead, emitTimedOut, readMovedPastStop } from './closing-look';
import type { EndUserProfiles } from './end-users';
import type { TriggerSettings } from './settings';
import { EventDecisions } from './event-decisions';
import { CLOSING_REQUESTS, type PollClock } from './poll-clock';
import { ReadPosition, type PositionMark } from './read-position';

/** A poll reads at most this many records per endpoint; the rest waits for the next poll. */
const MAX_RECORDS_PER_POLL = 10_000;
/**
 * The fewest requests of an endpoint's rate limit a poll needs to read on: inside a second it
 * stopped in, the page before the first it has not read (the check) and that page; then its closing
 * look (CLOSING_REQUESTS). See docs/polling-trigger.md, "The least a poll needs".
 */
const LEAST_REQUESTS = 2 + CLOSING_REQUESTS;

export interface Found {
	event: EventName;
	second: number;
	record: IDataObject;
}

/** What one endpoint's part of a poll found, and its cursor after it. */
interface StreamRead {
	found: Found[];
	unreadable: UnreadableRecords[];
	cursor: StreamCursor;
	/**
	 * Why the end users' reads kept this endpoint from reading anything past its cursor: the poll
	 * fails with it when no endpoint emits, so that a poll never ends silently with records owed.
	 */
	heldBack?: Error;
}

/**
 * The time a poll reads an endpoint along: updated_at, which brings new records and every change;
 * or, where Wootric ignores the `updated` filter (an older variant of its API), created_at, which
 * brings new records only.
 */
type Reading = 'updated' | 'created';

/** What one poll reads one endpoint with (readStream, StreamReading). */
interface StreamPoll {
	context: IPollFunctions;
	stream: Stream;
	cursor: StreamCursor;
	settings: TriggerSettings;
	/** The poll's time: when its reading ends, and n8n's end of the poll (its closing look's). */
	clock: PollClock;
	/** Include End User: read as the pages are, within the same time. */
	endUsers?: EndUserProfiles;
}

/**
 * The records of one endpoint stored or changed since its cursor, sorted into the watched events,
 * and the cursor after them (see cursor.ts). Read along updated_at; where Wootric ignores that
 * reading (IgnoredParametersError), along created_at, noted in the cursor so that later polls go
 * straight there, unless Response Updated or Wait Until Complete need the changes: then the poll
 * fails with what Wootric ignored.
 */
export async function readStream(poll: StreamPoll): Promise<StreamRead> {
	const { context, stream, cursor, settings } = poll;
	const needsChanges =
		stream === 'responses' &&
		(settings.events.includes('responseUpdated') || settings.waitUntilComplete);
	const read = (reading: Reading) => readAlong(reading, poll);
	if (cursor.by === 'created' && !needsChanges) return await read('created');
	const alongUpdated = await read('updated').catch(refusal);
	if (!(alongUpdated instanceof IgnoredParametersError)) return alongUpdated;
	// The user has to change the events: the poll's settings are what cannot work.
	if (needsChanges)
		throw declaring(
			new NodeOperationError(
				context.getNode(),
				`${alongUpdated.message}. Response Updated and Wait Until Complete need Wootric's updated filter and sort_key=updated_at, ` +
					'which this Wootric account does not apply; Response Created without Wait Until Complete, and Decline Created, read by creation time instead.',
			),
			{ cause: 'configuration-invalid' },
		);
	const alongCreated = await read('created').catch(refusal);
	if (!(alongCreated instanceof IgnoredParametersError)) return alongCreated;
	throw declaring(
		new NodeOperationError(
			context.getNode(),
			`Wootric ignored the trigger's filters by both times, so it cannot tell what is new. ${alongUpdated.message}. ${alongCreated.message}.`,
		),
		{ cause: 'configuration-invalid' },
	);
}

/**
 * The endpoint's rate limit left the poll fewer requests than it needs to read on (LEAST_REQUESTS),
 * and it resets after the poll's time: the poll fails, saying so and declaring the reset, which
 * n8n's durable poller waits for.
 */
function tooFewRequests({ context, stream }: StreamPoll, limited: OutOfTimeError): Error {
	const { path } = STREAMS[stream];
	return declaring(
		new NodeOperationError(
			context.getNode(),
			`Wootric's rate limit for GET ${path} left this poll too few requests to read on: it needs ${LEAST_REQUESTS - 1} within the limit's window (a page and its closing look), ${LEAST_REQUESTS} inside a second of more records than that (and the page before, to check it)`,
			{
				description:
					'Other clients of the Wootric account spend the same limit. The trigger goes on when a poll gets that many; until then it reads nothing new.',
			},
		),
		(limited as { failure?: Failure }).failure ?? { cause: 'rate-limited' },
	);
}

/**
 * A request out of the poll's time, as the poll's failure: for the rate limit, too few requests
 * (tooFewRequests); for a server error whose retry would end after the poll's time, that error.
 */
function outOfRequests(poll: StreamPoll, outOfTime: OutOfTimeError): Error {
	return outOfTime.httpCode === '429' ? tooFewRequests(poll, outOfTime) : outOfTime;
}

/** A read Wootric refused by ignoring its parameters, as a value; any other failure fails the poll. */
function refusal(error: unknown): IgnoredParametersError {
	if (error instanceof IgnoredParametersError) return error;
	throw error;
}

/**
 * One endpoint's records read along `reading` from the cursor on. Throws, leaving the cursor as it
 * was, if a request fails. Records no filter can reach are reported (once) and passed by; a record
 * without a readable time stands with the one before it.
 */
async function readAlong(reading: Reading, poll: StreamPoll): Promise<StreamRead> {
	const look = new StreamReading(reading, poll);
	const end = await look.readPages();
	// A rate limit that resets after the poll's time ended the reading (of a page, or of the end
	// users of one): what was read past the cursor stands; with nothing read past it, the poll fails,
	// declaring when the limit resets. Not for the end users' limit, which the other endpoint's
	// reading may have spent in this poll: then this endpoint keeps its cursor, and the next poll,
	// after the reset, reads on.
	if (!look.readPastCursor() && end.onEndUsers)
		return {
			found: [],
			unreadable: look.unreadable,
			cursor: poll.cursor,
			heldBack: end.endUsersLacking,
		};
	if (end.outOfTime && !look.readPastCursor()) throw end.outOfTime;
	// Stopped on the page before where an earlier poll stopped inside a second: no further.
	if (end.outOfTime && !look.wentOn()) throw outOfRequests(poll, end.outOfTime);
	// The limit spent before the closing look could end the poll: too few requests too.
	const readThrough = await look.closeLook(end.stopped).catch((error: unknown) => {
		throw error instanceof OutOfTimeError ? outOfRequests(poll, error) : error;
	});
	const next = advanceCursor(poll.cursor, look.progress(readThrough, end.stopped));
	return {
		found: look.found,
		unreadable: look.unreadable,
		cursor: reading === 'created' ? { ...next, by: 'created' } : next,
		// Past records it knew, to the first new one whose end user it could not read. Having read
		// records it did not know and emits nothing for (the filters leave them out), it keeps its
		// place instead: the next poll starts at that record, which a failed poll would meet again as
		// late in its time as this one did.
		heldBack: look.found.length === 0 && !look.readUnknown() ? end.endUsersLacking : undefined,
	};
}

/** How the pages of a reading ended. */
interface PagesEnd {
	/** Before the list's end: the next poll goes on from where this one stopped. */
	stopped: boolean;
	/** The endpoint's rate limit, resetting after the poll's time, which stopped it. */
	outOfTime?: OutOfTimeError;
	/** The end users' reads (Include End User) ran out of the poll's time, which stopped it. */
	onEndUsers: boolean;
	/** Why they did: their rate limit, or the poll's time (EndUserProfiles.whyLacking). */
	endUsersLacking?: Error;
}

/** Where the reading stood before one record of a page: what taking it back goes back to. */
interface Standing {
	found: number;
	position: PositionMark;
	decisions: number;
}

/**
 * One endpoint's reading in one poll, in its steps: read the pages (readPages), deciding each
 * sighting's events as it is read (EventDecisions); close the look (closeLook); build the progress
 * the cursor moves by (progress). Where it stands is its ReadPosition's; the cursor's lists its
 * decisions leave, its EventDecisions'.
 *
 * Invariant: every event in `found` is of a record the position read, and the decisions are those
 * on the records it read. A record taken back (its end user not read in the poll's time) is taken
 * back from the three at once (restore), so that the next poll reads it as if this one never had.
 * Bound: one poll of one endpoint: `found` holds the events of at most MAX_RECORDS_PER_POLL records
 * past the cursor, with Lookback's window and the closing look's.
 */
class StreamReading {
	readonly found: Found[] = [];
	readonly unreadable: UnreadableRecords[] = [];
	/** Every unreadable range met, to tell each once (cursor.told). */
	private readonly told: string[] = [];
	/** The service's time of its first answer (UNIX seconds). */
	private answeredAt?: number;
	private readonly position: ReadPosition;
	private readonly decisions: EventDecisions;

	private readonly context: IPollFunctions;
	private readonly cursor: StreamCursor;
	private readonly settings: TriggerSettings;
	private readonly clock: PollClock;
	private readonly endUsers?: EndUserProfiles;
	private readonly path: string;
	private readonly newEvent: EventName;
	private readonly byCreated: boolean;
	private readonly sighting: (entry: ReadRecord, createdSecond: number) => Sighting;
	/** Records created from this second on are new to this poll (with Lookback's window). */
	private readonly emitFrom: number;
	private readonly listing: Pick<
		ListRequest,
		'path' | 'query' | 'onUnreadable' | 'onServiceTime' | 'giveUpAt'
	>;
	/**
	 * Invalidated responses too: one invalidated while a poll pages leaves the list like a deleted
	 * one, and shifts the pages after it.
	 */
	private readonly everyRecord: ParamHash;

	constructor(
		private readonly reading: Reading,
		{ context, stream, cursor, settings, clock, endUsers }: StreamPoll,
	) {
		this.context = context;
		this.cursor = cursor;
		this.settings = settings;
		this.clock = clock;
		this.endUsers = endUsers;
		const { path, newEvent } = STREAMS[stream];
		this.path = path;
		this.newEvent = newEvent;
		this.byCreated = reading === 'created';
		this.sighting = sightingsOf(cursor);
		this.emitFrom = newFrom(cursor, settings.lookbackSeconds);
		const position = new ReadPosition(
			cursor,
			`${reading}_at`,
			this.byCreated ? this.emitFrom : cursor.complete + 1,
		);
		this.position = position;
		this.decisions = new EventDecisions(cursor, settings, {
			newEvent,
			emitFrom: this.emitFrom,
			now: () => this.now(),
			storedBefore: (id, second) => position.storedBefore(id, second),
		});
		this.listing = {
			path,
			query: eventQuery(newEvent, settings.filter),
			onUnreadable: (records: UnreadableRecords) => {
				const key = toldKey(records.updated, records.created);
				this.told.push(key);
				if (!cursor.told?.includes(key)) this.unreadable.push(records);
			},
			onServiceTime: (second: number) => (this.answeredAt ??= second),
			giveUpAt: clock.giveUpAt,
		};
		this.everyRecord = eventQuery(newEvent, { ...settings.filter, includeExcluded: true });
	}

	/** Whether the reading got past the cursor's last complete second. */
	readPastCursor(): boolean {
		return this.position.readPastCursor();
	}

	/** Whether the reading read a record no earlier poll had read up to. */
	wentOn(): boolean {
		return this.position.wentOn();
	}

	/** Whether the reading read a record the cursor did not know, in that state. */
	readUnknown(): boolean {
		return this.position.readUnknown(this.sighting);
	}

	/**
	 * Reads the pages oldest first, each record's events decided as it comes, until the list ends,
	 * the poll has read its share (MAX_RECORDS_PER_POLL, or its reading's time: PollClock), or a rate
	 * limit that resets after the poll's time stops it. Stopped by the end users' limit, the page is
	 * taken back from the first record whose end user was not read.
	 */
	async readPages(): Promise<PagesEnd> {
		const ranOut: { error?: OutOfTimeError } = {};
		// When the next page was asked for: the time to it is a list answer's (or less, read ahead).
		let askedAt = Date.now();
		try {
			for await (const page of untilOutOfTime(this.pages(), ranOut)) {
				this.clock.noteAnswer('list', askedAt);
				this.decisions.settle();
				const readBefore = this.position.count;
				const before = this.readPage(page);
				if (!this.position.resumedWhereItStopped(readBefore)) {
					// Something left the second before this page since: the pages skipped may hold a
					// record not read. The next poll reads the second from its first page.
					if (before.length > 0) this.restore(before[0]);
					return { stopped: true, onEndUsers: false };
				}
				const lacking = await this.endUsersLacking(before);
				if (lacking) return lacking;
				// Oldest first, so whatever is left starts after what was read: the next poll carries
				// on from there. Never within Lookback's window: stopped there, the next poll would
				// start it again.
				if (
					this.position.readPastCursor() &&
					(this.position.readPast(MAX_RECORDS_PER_POLL) || !this.clock.mayStart('list'))
				)
					return { stopped: true, onEndUsers: false };
				askedAt = Date.now();
			}
			return { stopped: ranOut.error !== undefined, outOfTime: ranOut.error, onEndUsers: false };
		} finally {
			this.decisions.settle();
		}
	}

	/**
	 * Reads the end users of what the page just read (`before`: where the reading stood before each
	 * of its records) found (Include End User). Where one was not read in the poll's time, the
	 * reading is taken back to before the record that found it, and stops.
	 */
	private async endUsersLacking(before: Standing[]): Promise<PagesEnd | undefined> {
		if (!this.endUsers) return undefined;
		const pageFound = before[0]?.found ?? this.found.length;
		const foundInPage = this.found.slice(pageFound);
		// What this page's own read of its end users got, whatever the other endpoint's reading
		// does with the reads they share.
		const endUsers = await this.endUsers.read(foundInPage.map(({ record }) => record));
		const lacking = foundInPage.findIndex(({ record }) => endUsers.lacks(record));
		if (lacking === -1) return undefined;
		// The record that found it: the last to start at or before it.
		this.restore(before.filter((standing) => standing.found <= pageFound + lacking).pop()!);
		return {
			stopped: true,
			onEndUsers: true,
			endUsersLacking: this.endUsers.whyLacking(endUsers),
		};
	}

	/**
	 * Along updated_at from the first second not read for good. Along created_at, Lookback's window is
	 * read again on every poll (a record stored late shows nowhere else), every record listed (those
	 * the filter leaves out are dropped in readPage), and with no sort_key or `updated` split, which a
	 * variant without that index does not take.
	 */
	private pages(): AsyncGenerator<IDataObject[]> {
		const common = {
			...this.listing,
			order: 'asc' as const,
			giveUpAt: () => this.clock.readingEndsAt,
			keepRequests: CLOSING_REQUESTS,
		};
		return this.byCreated
			? listAll(this.context, {
					...common,
					query: this.everyRecord,
					created: { gte: this.emitFrom },
					sortKey: null,
				})
			: listAll(this.context, {
					...common,
					updated: { gte: this.cursor.complete + 1 },
					sortKey: 'updated_at',
					startPage: this.position.startPage,
				});
	}

	/** Reads the records of a page; returns where the reading stood before each one it read. */
	private readPage(page: IDataObject[]): Standing[] {
		const before: Standing[] = [];
		for (const record of page) {
			if (
				this.byCreated &&
				!this.settings.filter.includeExcluded &&
				record.excluded_from_calculations
			)
				continue;
			before.push(this.standing());
			const second = this.position.secondOf(record);
			const created = wootricSeconds(record.created_at) ?? second;
			const entry = this.entryOf(record, second);
			this.position.place(entry, second);
			const sighted = this.sighting(entry, created);
			if (!sighted.known)
				this.emit(this.decisions.eventsOf(record, created, sighted), record, created, second);
		}
		return before;
	}

	private standing(): Standing {
		return {
			found: this.found.length,
			position: this.position.mark(),
			decisions: this.decisions.mark(),
		};
	}

	/** Back to where the reading stood before a record: as if it had not read from there on. */
	private restore(standing: Standing): void {
		this.found.length = standing.found;
		this.position.restore(standing.position);
		this.decisions.undoTo(standing.decisions);
	}

	/**
	 * The closing look, after the pages: records that moved past where the reading stopped, or while
	 * it paged, and responses Wait Until Complete held that are due now. Returns the last second the
	 * poll read all of.
	 */
	async closeLook(stopped: boolean): Promise<number> {
		const unannouncedFrom =
			stopped && !this.byCreated ? await this.announceMovedPastStop() : Infinity;
		// Along created_at no change moves a record.
		const movedFrom =
			!this.byCreated && this.position.count >= PER_PAGE
				? await changedWhileRead(
						this.context,
						{ path: this.path, query: this.everyRecord, giveUpAt: this.clock.giveUpAt },
						this.position.records,
						{ since: this.now() - SETTLE_SECONDS, mayGoOn: () => this.clock.mayClose() },
					)
				: Infinity;
		await this.emitHeldDue();
		const stoppedAt = this.position.lastSecond;
		return Math.min(stopped ? stoppedAt - 1 : Infinity, movedFrom - 1, unannouncedFrom - 1);
	}

	/**
	 * Reads and announces the records new before where the reading stopped that a change moved past
	 * it (readMovedPastStop). Returns the creation second of the first it leaves unannounced (its end
	 * user not read in the poll's time), Infinity if none: the cursor stays complete only through the
	 * second before it, so that the next poll reads each again as new.
	 */
	private async announceMovedPastStop(): Promise<number> {
		const { endUsers, position } = this;
		const moved = (
			await readMovedPastStop(
				this.context,
				this.listing,
				{ from: this.emitFrom, stop: position.lastSecond },
				position.records,
			)
		).flatMap((record) => {
			const updated = wootricSeconds(record.updated_at) ?? position.lastSecond;
			const created = wootricSeconds(record.created_at) ?? updated;
			const entry = this.entryOf(record, updated);
			const sighted = this.sighting(entry, created);
			// The others are changes, which the next poll reads there.
			return sighted.isNew ? [{ record, created, updated, entry, sighted }] : [];
		});
		const endUsersRead = await endUsers?.read(moved.map(({ record }) => record));
		let unannouncedFrom = Infinity;
		for (const { record, created, updated, entry, sighted } of moved) {
			if (endUsersRead?.lacks(record)) {
				unannouncedFrom = Math.min(unannouncedFrom, created);
				continue;
			}
			position.add(entry);
			this.emit(this.decisions.eventsOf(record, created, sighted), record, created, updated);
		}
		return unannouncedFrom;
	}

	/**
	 * With Wait Until Complete turned off since, what it held is due now. A held response is emitted
	 * as it is now, which may be newer than what the pages showed: the next poll must know that
	 * state, or take it for a change.
	 */
	private async emitHeldDue(): Promise<void> {
		const { settings } = this;
		await emitTimedOut(
			this.context,
			{ ...this.listing, endUsers: this.endUsers },
			this.decisions.held,
			settings.waitUntilComplete ? this.now() - settings.newForSeconds : Infinity,
			(record, created) => {
				const second = wootricSeconds(record[`${this.reading}_at`]) ?? created;
				this.position.add(this.entryOf(record, second));
				this.emit(this.decisions.eventsOfHeld(record, created), record, created, second);
			},
		);
	}

	/**
	 * What the reading read and decided, for the cursor to move by (advanceCursor); `stopped`: it
	 * stopped before the list's end, inside its last second.
	 */
	progress(readThrough: number, stopped: boolean): PollProgress {
		return {
			stoppedIn: stopped && !this.byCreated ? this.position.stoppedIn() : undefined,
			answeredAt: this.now(),
			read: [...this.position.records],
			readThrough,
			...this.decisions.lists(),
			told: this.told,
		};
	}

	private now(): number {
		return this.answeredAt ?? Math.floor(Date.now() / 1000);
	}

	private emit(events: EventName[], record: IDataObject, created: number, second: number): void {
		for (const event of events)
			this.found.push({ event, second: event === this.newEvent ? created : second, record });
	}

	/**
	 * How a record read at `second` is remembered. Along created_at it is kept in `recent` until its
	 * updated_at (when it was stored, or later) has settled too: only then does its id vouch for
	 * `storedThrough` (see cursor.ts).
	 */
	private entryOf(record: IDataObject, second: number): ReadRecord {
		return [
			this.idOf(record),
			this.byCreated ? Math.max(second, wootricSeconds(record.updated_at) ?? second) : second,
			versionOf(record),
		];
	}

	/**
	 * A record's id, which the cursor knows it by: a record without one cannot be kept track of, so
	 * the poll fails, naming the endpoint, and the next one reads it again.
	 */
	private idOf(record: IDataObject): number {
		const id = answerId(record.id);
		if (id !== undefined) return id;
		throw declaring(
			new NodeOperationError(
				this.context.getNode(),
				`Wootric answered GET ${this.path} with a record without a readable id (${String(JSON.stringify(record.id)).slice(0, 40)}): the trigger cannot keep track of it`,
			),
			{ cause: 'temporarily-unavailable' },
		);
	}
}

/**
 * `pages` until a rate limit that resets after the poll's time (OutOfTimeError) ends them: then
 * `ranOut.error` holds it. Any other failure fails the poll.
 */
async function* untilOutOfTime(
	pages: AsyncGenerator<IDataObject[]>,
	ranOut: { error?: OutOfTimeError },
): AsyncGenerator<IDataObject[]> {
	try {
		for (;;) {
			const next = await pages.next().catch(outOfTime);
			if (next instanceof OutOfTimeError) {
				ranOut.error = next;
				return;
			}
			if (next.done) return;
			yield next.value;
		}
	} finally {
		// Stopped early by the reader: the list's own clean-up, as a for-await's break runs it.
		await pages.return(undefined);
	}
}

/** A request given up for the poll's time, as a value; any other failure fails the poll. */
function outOfTime(error: unknown): OutOfTimeError {
	if (error instanceof OutOfTimeError) return error;
	throw error;
}
