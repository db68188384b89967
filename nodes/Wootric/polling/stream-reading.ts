import type { Failure, IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	changedSinceCreated,
	eventQuery,
	isComplete,
	responseEvents,
	STREAMS,
	versionOf,
	type EventName,
	type Stream,
} from '../events';
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
import { CLOSING_REQUESTS, type PollClock } from './poll-clock';
import { UndoLog } from './undo-log';

/** A poll reads at most this many records per endpoint; the rest waits for the next poll. */
const MAX_RECORDS_PER_POLL = 10_000;
/**
 * A poll resumes inside a second it stopped in (cursor.stoppedIn) when fewer than this many of its
 * records were read; a larger second is the listing's to read, from both ends (transport/paging).
 */
const RESUMED_SECONDS_UNDER = 1_400;
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

/** Where the reading stood before one record of a page: what undoing it goes back to. */
interface Standing {
	found: number;
	read: number;
	second: number;
	inSecond: number;
	readPastComplete: number;
	changes: number;
}

/**
 * One endpoint's reading in one poll, in its steps: read the pages (readPages), deciding each
 * sighting's events as it is read (eventsOf); close the look (closeLook); build the progress the
 * cursor moves by (progress).
 *
 * Invariant: every event in `found` is of a record in `read`, and `waiting`, `arrivals` and
 * `unmatched` are the cursor's lists as the decisions on the records in `read` left them. A record
 * taken back (its end user not read in the poll's time) is taken back from all of them at once
 * (`changes`), so that the next poll reads it as if this one never had.
 * Bound: one poll of one endpoint. `read` and `found` hold at most MAX_RECORDS_PER_POLL records past
 * the cursor, with Lookback's window and the closing look's; the maps, the cursor's lists and what
 * those records add; `changes`, one page's.
 */
class StreamReading {
	readonly found: Found[] = [];
	readonly unreadable: UnreadableRecords[] = [];
	private readonly read: ReadRecord[] = [];
	/** Every unreadable range met, to tell each once (cursor.told). */
	private readonly told: string[] = [];
	/** New responses Wait Until Complete holds, by id: their created second. */
	private readonly waiting: Map<number, number>;
	/** The updated_at second held late imports arrived with: that state is no change. */
	private readonly arrivals: Map<number, number>;
	/** New responses that do not match the filters yet, by id: the last second they are new in. */
	private readonly unmatched: Map<number, number>;
	/** The changes to waiting, arrivals and unmatched of the page being read (see UndoLog). */
	private readonly changes = new UndoLog();
	/** The `reading` second of the last record read. */
	private second: number;
	/** How many records of `second` were read, in the service's order (an earlier poll's too). */
	private inSecond = 0;
	/**
	 * Resuming inside the second an earlier poll stopped in (cursor.stoppedIn): the page it starts
	 * at, and how many of that second's records come before it; unset once the first page is read.
	 */
	private resuming?: { second: number; page: number; before: number };
	private readPastComplete = 0;
	/** The service's time of its first answer (UNIX seconds). */
	private answeredAt?: number;

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
	/** The first second the listing reads: a record whose time cannot be read is no earlier. */
	private readonly listedFrom: number;
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
		this.listedFrom = this.byCreated ? this.emitFrom : cursor.complete + 1;
		this.second = cursor.complete;
		const [stoppedSecond, readInIt] = cursor.stoppedIn ?? [];
		// The page before the first one not read, to check that nothing moved before it; a second
		// read to 1,400 or more is left to the listing's own reading of large seconds.
		if (
			!this.byCreated &&
			stoppedSecond === cursor.complete + 1 &&
			readInIt !== undefined &&
			readInIt >= PER_PAGE &&
			readInIt < RESUMED_SECONDS_UNDER
		) {
			const page = Math.floor(readInIt / PER_PAGE);
			this.resuming = { second: stoppedSecond, page, before: (page - 1) * PER_PAGE };
		}
		this.waiting = new Map(cursor.waiting?.map(([id, created]) => [id, created]));
		this.arrivals = new Map(
			(cursor.waiting ?? []).flatMap(([id, , arrived]) =>
				arrived === undefined ? [] : [[id, arrived] as const],
			),
		);
		this.unmatched = new Map(cursor.unmatched ?? []);
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
		return this.second > this.cursor.complete;
	}

	/** Whether the reading read a record no earlier poll had read up to. */
	wentOn(): boolean {
		const [second, read] = this.cursor.stoppedIn ?? [];
		return this.readPastCursor() && (this.second !== second || this.inSecond > (read ?? 0));
	}

	/** Whether the reading read a record the cursor did not know, in that state. */
	readUnknown(): boolean {
		return this.read.some((entry) => !this.sighting(entry, this.cursor.complete).known);
	}

	/**
	 * Whether the first page of a resumed reading is a whole page of the stopped second's records
	 * the earlier poll read, as they were: then the pages before it hold only those, in the
	 * service's order of that second (as the listing's windows rely on), and none was skipped. Only
	 * a record leaving the second moves them; none entered it, settled when read (cursor.stoppedIn).
	 */
	private resumedWhereItStopped(resumed: { second: number }, readBefore: number): boolean {
		const page = this.read.slice(readBefore);
		const known = new Set(
			this.cursor.recent.filter(([, second]) => second === resumed.second).map(String),
		);
		return page.length === PER_PAGE && page.every((entry) => known.has(String(entry)));
	}

	/**
	 * Reads the pages oldest first, each record's events decided as it comes, until the list ends,
	 * the poll has read its share (MAX_RECORDS_PER_POLL, or its reading's time: PollClock), or a rate limit that resets
	 * after the poll's time stops it. Stopped by the end users' limit, the page is taken back from
	 * the first record whose end user was not read.
	 */
	async readPages(): Promise<PagesEnd> {
		const ranOut: { error?: OutOfTimeError } = {};
		// When the next page was asked for: the time to it is a list answer's (or less, read ahead).
		let askedAt = Date.now();
		try {
			for await (const page of untilOutOfTime(this.pages(), ranOut)) {
				this.clock.noteAnswer('list', askedAt);
				this.changes.clear();
				const readBefore = this.read.length;
				const before = this.readPage(page);
				if (this.resuming) {
					const resumed = this.resuming;
					this.resuming = undefined;
					if (!this.resumedWhereItStopped(resumed, readBefore)) {
						// Something left the second before this page since: the pages skipped may hold a
						// record not read. The next poll reads the second from its first page.
						if (before.length > 0) this.restore(before[0]);
						return { stopped: true, onEndUsers: false };
					}
				}
				const pageFound = before[0]?.found ?? this.found.length;
				const foundInPage = this.found.slice(pageFound);
				// What this page's own read of its end users got, whatever the other endpoint's reading
				// does with the reads they share.
				const endUsers = await this.endUsers?.read(foundInPage.map(({ record }) => record));
				const lacking = endUsers
					? foundInPage.findIndex(({ record }) => endUsers.lacks(record))
					: -1;
				if (this.endUsers && endUsers && lacking !== -1) {
					this.takeBackFrom(before, pageFound + lacking);
					return {
						stopped: true,
						onEndUsers: true,
						endUsersLacking: this.endUsers.whyLacking(endUsers),
					};
				}
				// Oldest first, so whatever is left starts after what was read: the next poll carries
				// on from there. Never within Lookback's window: stopped there, the next poll would
				// start it again.
				if (
					this.readPastCursor() &&
					(this.readPastComplete >= MAX_RECORDS_PER_POLL || !this.clock.mayStart('list'))
				)
					return { stopped: true, onEndUsers: false };
				askedAt = Date.now();
			}
			return { stopped: ranOut.error !== undefined, outOfTime: ranOut.error, onEndUsers: false };
		} finally {
			this.changes.clear();
		}
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
					startPage: this.resuming?.page,
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
			const second =
				wootricSeconds(record[`${this.reading}_at`]) ?? Math.max(this.second, this.listedFrom);
			if (second !== this.second)
				this.inSecond = second === this.resuming?.second ? this.resuming.before : 0;
			this.inSecond++;
			this.second = second;
			const created = wootricSeconds(record.created_at) ?? this.second;
			const entry = this.entryOf(record, this.second);
			this.read.push(entry);
			if (this.readPastCursor()) this.readPastComplete++;
			const sighted = this.sighting(entry, created);
			if (!sighted.known)
				this.emit(this.eventsOf(record, created, sighted), record, created, this.second);
		}
		return before;
	}

	private standing(): Standing {
		return {
			found: this.found.length,
			read: this.read.length,
			second: this.second,
			inSecond: this.inSecond,
			readPastComplete: this.readPastComplete,
			changes: this.changes.mark(),
		};
	}

	/**
	 * The end users of the page's first records only were read in the poll's time: the reading stops
	 * before the record that found `found[lacking]`, as if it had not been read. `lacking` is an
	 * index of this page's finds, so that record is one of `before`'s.
	 */
	private takeBackFrom(before: Standing[], lacking: number): void {
		// The record that found it: the last to start at or before it.
		this.restore(before.filter((standing) => standing.found <= lacking).pop()!);
	}

	/** Back to where the reading stood before a record: as if it had not read from there on. */
	private restore(standing: Standing): void {
		this.found.length = standing.found;
		this.read.length = standing.read;
		this.second = standing.second;
		this.inSecond = standing.inSecond;
		this.readPastComplete = standing.readPastComplete;
		this.changes.undoTo(standing.changes);
	}

	/**
	 * The events one sighting of a record stands for. A Response Created only for a response not
	 * announced yet and within reach: read for the first time (new, in the state it is found in),
	 * held by Wait Until Complete (new, as it is once complete), or not matching the filters yet
	 * while still new (`unmatched`, by the rule's Treat as Complete After).
	 */
	private eventsOf(
		record: IDataObject,
		created: number,
		{ changed, isNew }: { changed: boolean; isNew: boolean },
	): EventName[] {
		const { settings, newEvent, changes } = this;
		const firstSeen = isNew && created >= this.emitFrom;
		if (newEvent !== 'response')
			return firstSeen && settings.events.includes(newEvent) ? [newEvent] : [];
		const id = Number(record.id);
		const held = this.waiting.has(id);
		const announcing =
			settings.events.includes('response') && (firstSeen || held || this.unmatched.has(id));
		// A record stored late with an older created_at (an import) arrives: its updated_at is when
		// it was stored, not a change. Unless a record stored after it was read in a second well
		// before its updated_at: then it was stored before (a response stored invalidated, which the
		// list leaves out, and counted since), and its updated_at is a change.
		const arrivesLate =
			firstSeen &&
			created <= this.cursor.complete &&
			!this.storedBefore(id, wootricSeconds(record.updated_at) ?? created);
		if (
			announcing &&
			settings.waitUntilComplete &&
			!isComplete(record, created, this.now(), settings.newForSeconds)
		) {
			// Held: what changes meanwhile reaches the workflow with its Response Created.
			changes.set(this.waiting, id, created);
			if (arrivesLate) changes.set(this.arrivals, id, wootricSeconds(record.updated_at) ?? created);
			return [];
		}
		const isChange = changed || this.changedSinceStored(record, arrivesLate);
		changes.delete(this.waiting, id);
		changes.delete(this.arrivals, id);
		changes.delete(this.unmatched, id);
		const events = responseEvents(stateOf(record, created, isChange, firstSeen || held), settings);
		if (!announcing) return events.filter((event) => event !== 'response');
		const lastNewSecond = created + settings.newForSeconds;
		if (
			!events.includes('response') &&
			(wootricSeconds(record.updated_at) ?? created) <= lastNewSecond
		)
			changes.set(this.unmatched, id, lastNewSecond);
		return events;
	}

	/**
	 * Whether record `id` was stored before `second`: a record with a higher id (stored after it, as
	 * Wootric numbers records) was read, in `recent` or in this poll, at an updated_at SETTLE_SECONDS
	 * or more before it. A record is readable within SETTLE_SECONDS of its stamps, so that one was
	 * stored, and this one before it, earlier than `second`. Along created_at (an import's is older
	 * than its storing) nothing tells.
	 */
	private storedBefore(id: number, second: number): boolean {
		if (this.byCreated) return false;
		const earlier = ([other, stamped]: ReadRecord) =>
			other > id && stamped <= second - SETTLE_SECONDS;
		return this.read.some(earlier) || this.cursor.recent.some(earlier);
	}

	/** Whether a record is changed since it was stored, by what this trigger knows of its arrival. */
	private changedSinceStored(record: IDataObject, arrivesLate: boolean): boolean {
		const updated = wootricSeconds(record.updated_at);
		const arrived = this.arrivals.get(Number(record.id));
		return changedSinceCreated(record) && !arrivesLate && updated !== arrived;
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
			!this.byCreated && this.read.length >= PER_PAGE
				? await changedWhileRead(
						this.context,
						{ path: this.path, query: this.everyRecord, giveUpAt: this.clock.giveUpAt },
						this.read,
						{ since: this.now() - SETTLE_SECONDS, mayGoOn: () => this.clock.mayClose() },
					)
				: Infinity;
		await this.emitHeldDue();
		return Math.min(stopped ? this.second - 1 : Infinity, movedFrom - 1, unannouncedFrom - 1);
	}

	/**
	 * Reads and announces the records new before where the reading stopped that a change moved past
	 * it (readMovedPastStop). Returns the creation second of the first it leaves unannounced (its end
	 * user not read in the poll's time), Infinity if none: the cursor stays complete only through the
	 * second before it, so that the next poll reads each again as new.
	 */
	private async announceMovedPastStop(): Promise<number> {
		const { endUsers } = this;
		const moved = (
			await readMovedPastStop(
				this.context,
				this.listing,
				{ from: this.emitFrom, stop: this.second },
				this.read,
			)
		).flatMap((record) => {
			const updated = wootricSeconds(record.updated_at) ?? this.second;
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
			this.read.push(entry);
			this.emit(this.eventsOf(record, created, sighted), record, created, updated);
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
			this.waiting,
			settings.waitUntilComplete ? this.now() - settings.newForSeconds : Infinity,
			(record, created) => {
				const second = wootricSeconds(record[`${this.reading}_at`]) ?? created;
				this.read.push(this.entryOf(record, second));
				const state = stateOf(record, created, this.changedSinceStored(record, false), true);
				this.arrivals.delete(Number(record.id));
				this.emit(responseEvents(state, settings), record, created, second);
			},
		);
	}

	/**
	 * What the reading read and decided, for the cursor to move by (advanceCursor); `stopped`: it
	 * stopped before the list's end, inside its last second.
	 */
	progress(readThrough: number, stopped: boolean): PollProgress {
		return {
			stoppedIn: stopped && !this.byCreated ? [this.second, this.inSecond] : undefined,
			answeredAt: this.now(),
			read: this.read,
			readThrough,
			waiting: [...this.waiting].map(([id, created]): [number, number, number?] => {
				const arrived = this.arrivals.get(id);
				return arrived === undefined ? [id, created] : [id, created, arrived];
			}),
			unmatched: [...this.unmatched],
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

/** One state of a response, for the rule both triggers share (responseEvents). */
function stateOf(record: IDataObject, created: number, isChange: boolean, firstSeen: boolean) {
	return {
		record,
		createdSecond: created,
		changedSecond: wootricSeconds(record.updated_at),
		isChange,
		firstSeen,
	};
}
