import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { surveyScaleOf } from '../helpers/surveyTypes';
import { integerValue, unixSeconds } from '../helpers/validation';
import {
	declaring,
	IgnoredParametersError,
	OutOfTimeError,
	listAll,
	PER_PAGE,
	wootricRequest,
	wootricSeconds,
	type ListRequest,
	type UnreadableRecords,
} from '../transport';
import {
	advanceCursor,
	isStreamCursor,
	newFrom,
	SETTLE_SECONDS,
	sightingsOf,
	startCursor,
	toldKey,
	type PollProgress,
	type ReadRecord,
	type StreamCursor,
} from './cursor';
import { EndUserProfiles } from './end-users';
import { UndoLog } from './undo-log';
import {
	changedSinceCreated,
	EVENTS,
	eventQuery,
	eventJson,
	isComplete,
	itemFields,
	matchesFilter,
	responseEvents,
	STREAMS,
	versionOf,
	type EventName,
	type EventRule,
	type ItemFields,
	type Stream,
} from '../events';
import { readEventRule } from '../events/responseFilter';

/** A poll reads at most this many records per endpoint; the rest waits for the next poll. */
const MAX_RECORDS_PER_POLL = 10_000;
/**
 * Requests of an endpoint's rate limit a poll's reading leaves for its closing look (changedWhileRead
 * and readMovedPastStop, a page each when little moved), so that a poll stopped by the limit can
 * still end, and the next one go on from there.
 */
const CLOSING_REQUESTS = 2;
/** "Fetch Test Event" looks at most this far back for a record that matches the filters. */
const SAMPLE_RECORDS = 150;

interface Found {
	event: EventName;
	second: number;
	record: IDataObject;
}

/** Events, Filters and Treat as Complete After (EventRule), and what only this trigger has. */
interface TriggerSettings extends EventRule {
	includeEndUser: boolean;
	/** What of its record each item holds: Simplify, by the node's version. */
	fields: ItemFields;
	startFrom?: number;
	lookbackSeconds: number;
	/** Wait Until Complete: a new response without a comment is held for newForSeconds at most. */
	waitUntilComplete: boolean;
}

async function readSettings(context: IPollFunctions): Promise<TriggerSettings> {
	const scale = await surveyScaleOf(context);
	const options = context.getNodeParameter('options', {}) as IDataObject;
	return {
		...readEventRule(context, scale),
		includeEndUser: options.includeEndUser === true,
		fields: itemFields(context.getNode(), options.simplify === true, scale),
		startFrom: options.startFrom
			? unixSeconds(context, undefined, 'Start From', options.startFrom)
			: undefined,
		lookbackSeconds:
			integerValue(context, undefined, 'Lookback (Minutes)', options.lookbackMinutes ?? 0, {
				min: 0,
				max: 7 * 24 * 60,
			}) * 60,
		waitUntilComplete: options.waitUntilComplete === true,
	};
}

/** What one endpoint's part of a poll found, and its cursor after it. */
interface StreamRead {
	found: Found[];
	unreadable: UnreadableRecords[];
	cursor: StreamCursor;
}

/**
 * The time a poll reads an endpoint along: updated_at, which brings new records and every change;
 * or, where Wootric ignores the `updated` filter (an older variant of its API), created_at, which
 * brings new records only.
 */
type Reading = 'updated' | 'created';

/** What one poll reads one endpoint with (readStream, readAlong). */
interface StreamPoll {
	context: IPollFunctions;
	stream: Stream;
	cursor: StreamCursor;
	settings: TriggerSettings;
	/**
	 * Past it (ms since the epoch), the poll reads no further, and waits for no rate limit that resets
	 * later.
	 */
	deadline: number;
	/** The end of n8n's time for the poll (ms since the epoch): its closing look waits no later. */
	giveUpAt: number;
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
async function readStream(poll: StreamPoll): Promise<StreamRead> {
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

/** A read Wootric refused by ignoring its parameters, as a value; any other failure fails the poll. */
function refusal(error: unknown): IgnoredParametersError {
	if (error instanceof IgnoredParametersError) return error;
	throw error;
}

/**
 * One endpoint's records read along `reading` from the cursor on (see readStream). Throws, leaving
 * the cursor as it was, if a request fails. Records no filter can reach are reported (once) and
 * passed by; a record without a readable time stands with the one before it.
 */
async function readAlong(
	reading: Reading,
	{ context, stream, cursor, settings, deadline, giveUpAt, endUsers }: StreamPoll,
): Promise<StreamRead> {
	const { path, newEvent } = STREAMS[stream];
	const byCreated = reading === 'created';
	const watching = (event: EventName) => settings.events.includes(event);
	const sighting = sightingsOf(cursor);
	const emitFrom = newFrom(cursor, settings.lookbackSeconds);
	const waiting = new Map(cursor.waiting?.map(([id, created]) => [id, created]));
	/** The updated_at second held late imports arrived with: that state is no change. */
	const arrivals = new Map(
		(cursor.waiting ?? []).flatMap(([id, , arrived]) =>
			arrived === undefined ? [] : [[id, arrived] as const],
		),
	);
	/** Whether a record is changed since it was stored, by what this trigger knows of its arrival. */
	const changedSinceStored = (record: IDataObject, arrivesLate: boolean) => {
		const updated = wootricSeconds(record.updated_at);
		const arrived = arrivals.get(Number(record.id));
		return changedSinceCreated(record) && !arrivesLate && updated !== arrived;
	};
	const unmatched = new Map(cursor.unmatched ?? []);
	/** The changes to waiting, arrivals and unmatched of the page being read (see UndoLog). */
	const changes = new UndoLog();
	const found: Found[] = [];
	const unreadable: UnreadableRecords[] = [];
	const read: ReadRecord[] = [];
	const told: string[] = [];
	let answeredAt: number | undefined;
	const listing = {
		path,
		query: eventQuery(newEvent, settings.filter),
		onUnreadable: (records: UnreadableRecords) => {
			const key = toldKey(records.updated, records.created);
			told.push(key);
			if (!cursor.told?.includes(key)) unreadable.push(records);
		},
		onServiceTime: (second: number) => (answeredAt ??= second),
		giveUpAt,
	};
	// Invalidated responses too: one invalidated while a poll pages leaves the list like a deleted
	// one, and shifts the pages after it.
	const everyRecord = eventQuery(newEvent, { ...settings.filter, includeExcluded: true });
	// Along updated_at from the first second not read for good. Along created_at, Lookback's window
	// is read again on every poll (a record stored late shows nowhere else), every record listed
	// (those the filter leaves out are dropped below), and with no sort_key or `updated` split, which
	// a variant without that index does not take.
	const records = byCreated
		? listAll(context, {
				...listing,
				query: everyRecord,
				created: { gte: emitFrom },
				sortKey: null,
				order: 'asc',
				giveUpAt: deadline,
				keepRequests: CLOSING_REQUESTS,
			})
		: listAll(context, {
				...listing,
				updated: { gte: cursor.complete + 1 },
				sortKey: 'updated_at',
				order: 'asc',
				giveUpAt: deadline,
				keepRequests: CLOSING_REQUESTS,
			});
	const ranOut: { error?: OutOfTimeError } = {};

	const now = () => answeredAt ?? Math.floor(Date.now() / 1000);
	const emit = (events: EventName[], record: IDataObject, created: number, second: number) => {
		for (const event of events)
			found.push({ event, second: event === newEvent ? created : second, record });
	};
	/** One state of a response, for the rule both triggers share (responseEvents). */
	const stateOf = (
		record: IDataObject,
		created: number,
		isChange: boolean,
		firstSeen: boolean,
	) => ({
		record,
		createdSecond: created,
		changedSecond: wootricSeconds(record.updated_at),
		isChange,
		firstSeen,
	});
	/**
	 * The events one sighting of a record stands for. A Response Created only for a response not
	 * announced yet and within reach: read for the first time (new, in the state it is found in),
	 * held by Wait Until Complete (new, as it is once complete), or not matching the filters yet
	 * while still new (`unmatched`, by the rule's Treat as Complete After).
	 */
	const eventsOf = (
		record: IDataObject,
		created: number,
		{ changed, isNew }: { changed: boolean; isNew: boolean },
	): EventName[] => {
		const firstSeen = isNew && created >= emitFrom;
		if (newEvent !== 'response') return firstSeen && watching(newEvent) ? [newEvent] : [];
		const id = Number(record.id);
		const held = waiting.has(id);
		const announcing = watching('response') && (firstSeen || held || unmatched.has(id));
		// A record stored late with an older created_at (an import) arrives: its updated_at is when
		// it was stored, not a change.
		const arrivesLate = firstSeen && created <= cursor.complete;
		if (
			announcing &&
			settings.waitUntilComplete &&
			!isComplete(record, created, now(), settings.newForSeconds)
		) {
			// Held: what changes meanwhile reaches the workflow with its Response Created.
			changes.set(waiting, id, created);
			if (arrivesLate) changes.set(arrivals, id, wootricSeconds(record.updated_at) ?? created);
			return [];
		}
		const isChange = changed || changedSinceStored(record, arrivesLate);
		changes.delete(waiting, id);
		changes.delete(arrivals, id);
		changes.delete(unmatched, id);
		const events = responseEvents(stateOf(record, created, isChange, firstSeen || held), settings);
		if (!announcing) return events.filter((event) => event !== 'response');
		const lastNewSecond = created + settings.newForSeconds;
		if (
			!events.includes('response') &&
			(wootricSeconds(record.updated_at) ?? created) <= lastNewSecond
		)
			changes.set(unmatched, id, lastNewSecond);
		return events;
	};
	/**
	 * How a record read at `second` is remembered. Along created_at it is kept in `recent` until its
	 * updated_at (when it was stored, or later) has settled too: only then does its id vouch for
	 * `storedThrough` (see cursor.ts).
	 */
	const entryOf = (record: IDataObject, second: number): ReadRecord => [
		idOf(record),
		byCreated ? Math.max(second, wootricSeconds(record.updated_at) ?? second) : second,
		versionOf(record),
	];
	/**
	 * A record's id, which the cursor knows it by: a record without one cannot be kept track of, so
	 * the poll fails, naming the endpoint, and the next one reads it again.
	 */
	const idOf = (record: IDataObject): number => {
		const id =
			typeof record.id === 'string' && /^\d+$/.test(record.id) ? Number(record.id) : record.id;
		if (typeof id === 'number' && Number.isInteger(id) && id > 0) return id;
		throw declaring(
			new NodeOperationError(
				context.getNode(),
				`Wootric answered GET ${path} with a record without a readable id (${String(JSON.stringify(record.id)).slice(0, 40)}): the trigger cannot keep track of it`,
			),
			{ cause: 'temporarily-unavailable' },
		);
	};
	/** The first second the listing reads: a record whose time cannot be read is no earlier. */
	const listedFrom = byCreated ? emitFrom : cursor.complete + 1;

	// The `reading` second of the last record read.
	let second = cursor.complete;
	let readPastComplete = 0;
	let stoppedEarly = false;
	let ranOutOnEndUsers = false;
	/** Where the reading stood before one record of the page: what undoing it goes back to. */
	const standing = () => ({
		found: found.length,
		read: read.length,
		second,
		readPastComplete,
		changes: changes.mark(),
	});
	for await (const page of untilOutOfTime(records, ranOut)) {
		changes.clear();
		const before: Array<ReturnType<typeof standing>> = [];
		for (const record of page) {
			if (byCreated && !settings.filter.includeExcluded && record.excluded_from_calculations)
				continue;
			before.push(standing());
			second = wootricSeconds(record[`${reading}_at`]) ?? Math.max(second, listedFrom);
			const created = wootricSeconds(record.created_at) ?? second;
			const entry = entryOf(record, second);
			read.push(entry);
			if (second > cursor.complete) readPastComplete++;
			const sighted = sighting(entry, created);
			if (!sighted.known) emit(eventsOf(record, created, sighted), record, created, second);
		}
		const foundInPage = found.slice(before[0]?.found ?? found.length);
		const endUsersRanOut = await endUsers?.read(foundInPage.map(({ record }) => record));
		if (endUsersRanOut) {
			// The end users of the page's first records only were read in the poll's time: the
			// reading stops before the first record that lacks one, as if it had not been read.
			const lacking = found.findIndex(
				({ record }, index) => index >= before[0].found && endUsers!.lacks(record),
			);
			// The record that found it: the last to start at or before it.
			const undone = before.filter((standing) => standing.found <= lacking).pop()!;
			found.length = undone.found;
			read.length = undone.read;
			second = undone.second;
			readPastComplete = undone.readPastComplete;
			changes.undoTo(undone.changes);
			ranOut.error = endUsersRanOut;
			ranOutOnEndUsers = true;
			break;
		}
		// Oldest first, so whatever is left starts after what was read: the next poll carries on from
		// there. Never within Lookback's window: stopped there, the next poll would start it again.
		if (
			second > cursor.complete &&
			(readPastComplete >= MAX_RECORDS_PER_POLL || Date.now() > deadline)
		) {
			stoppedEarly = true;
			break;
		}
	}
	changes.clear();
	// A rate limit that resets after the poll's time ended the reading (of a page, or of the end
	// users of one): what was read past the cursor stands, as above; with nothing read past it, the
	// poll fails, declaring when the limit resets.
	if (ranOut.error) {
		// Not for the end users' limit, which the other endpoint's reading may have spent in this
		// poll: then this endpoint keeps its cursor, and the next poll, after the reset, reads on.
		if (second <= cursor.complete && ranOutOnEndUsers) return { found: [], unreadable, cursor };
		if (second <= cursor.complete) throw ranOut.error;
		stoppedEarly = true;
	}
	/**
	 * Records new before where the poll stopped that it leaves unannounced (their end users were not
	 * read in its time): the cursor stays complete only through the second before the first one's
	 * creation, so that the next poll reads each again as new.
	 */
	let unannouncedFrom = Infinity;
	if (stoppedEarly && !byCreated) {
		const moved = (
			await readMovedPastStop(context, listing, { from: emitFrom, stop: second }, read)
		).flatMap((record) => {
			const updated = wootricSeconds(record.updated_at) ?? second;
			const created = wootricSeconds(record.created_at) ?? updated;
			const entry = entryOf(record, updated);
			const sighted = sighting(entry, created);
			// The others are changes, which the next poll reads there.
			return sighted.isNew ? [{ record, created, updated, entry, sighted }] : [];
		});
		await endUsers?.read(moved.map(({ record }) => record));
		for (const { record, created, updated, entry, sighted } of moved) {
			if (endUsers?.lacks(record)) {
				unannouncedFrom = Math.min(unannouncedFrom, created);
				continue;
			}
			read.push(entry);
			emit(eventsOf(record, created, sighted), record, created, updated);
		}
	}
	// Along created_at no change moves a record.
	const movedFrom =
		!byCreated && read.length >= PER_PAGE
			? await changedWhileRead(
					context,
					{ path, query: everyRecord, giveUpAt },
					read,
					now() - SETTLE_SECONDS,
				)
			: Infinity;
	// With Wait Until Complete turned off since, what it held is due now. A held response is emitted
	// as it is now, which may be newer than what the read above saw: the next poll must know that
	// state, or take it for a change.
	await emitTimedOut(
		context,
		{ ...listing, endUsers },
		waiting,
		settings.waitUntilComplete ? now() - settings.newForSeconds : Infinity,
		(record, created) => {
			const second = wootricSeconds(record[`${reading}_at`]) ?? created;
			read.push(entryOf(record, second));
			const state = stateOf(record, created, changedSinceStored(record, false), true);
			arrivals.delete(Number(record.id));
			emit(responseEvents(state, settings), record, created, second);
		},
	);
	const progress: PollProgress = {
		answeredAt: now(),
		read,
		readThrough: Math.min(stoppedEarly ? second - 1 : Infinity, movedFrom - 1, unannouncedFrom - 1),
		waiting: [...waiting].map(([id, created]): [number, number, number?] => {
			const arrived = arrivals.get(id);
			return arrived === undefined ? [id, created] : [id, created, arrived];
		}),
		unmatched: [...unmatched],
		told,
	};
	const next = advanceCursor(cursor, progress);
	return { found, unreadable, cursor: byCreated ? { ...next, by: 'created' } : next };
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

/**
 * The records created from `from` to before `stop` that this poll did not read, for a poll that
 * stopped in the updated_at second `stop`: changed to `stop` or later before the read reached them,
 * they wait there, and the next poll, reading on from `stop` with a cursor complete through the
 * second before it, would take one never announced for a change (cursor.ts). Listed by created_at,
 * which no change moves; records created before `from` are not new in any case.
 */
async function readMovedPastStop(
	context: IPollFunctions,
	listing: Pick<ListRequest, 'path' | 'query' | 'onUnreadable' | 'giveUpAt'>,
	{ from, stop }: { from: number; stop: number },
	read: ReadRecord[],
): Promise<IDataObject[]> {
	if (from > stop - 1) return [];
	const readIds = new Set(read.map(([id]) => id));
	const unread: IDataObject[] = [];
	for await (const page of listAll(context, {
		...listing,
		created: { gte: from, lte: stop - 1 },
		updated: { gte: stop },
		sortKey: 'created_at',
		order: 'asc',
	})) {
		unread.push(...page.filter((record) => !readIds.has(Number(record.id))));
	}
	return unread;
}

/**
 * The earliest second a record was read in by this poll, of those changed since (Infinity: none).
 * Pages are offsets: a record read and then changed before a later page was served moved to the end
 * of the updated_at order, and the record after its old place moved back one, past that page's
 * edge, unread. Such a change is younger than the settle margin when the poll ends, so one look at
 * those seconds finds it, and the next poll reads again from the second the changed record was read
 * in. (A record deleted while a poll pages does the same and cannot be seen.)
 */
async function changedWhileRead(
	context: IPollFunctions,
	{ path, query, giveUpAt }: Pick<ListRequest, 'path' | 'query' | 'giveUpAt'>,
	read: ReadRecord[],
	since: number,
): Promise<number> {
	const readIn = new Map(read.map(([id, second]) => [id, second]));
	let from = Infinity;
	// Records no filter reaches were told of by the read itself.
	const listing = listAll(context, {
		path,
		query,
		updated: { gte: since },
		sortKey: 'updated_at',
		order: 'asc',
		onUnreadable: () => undefined,
		giveUpAt,
	});
	for await (const page of listing) {
		for (const record of page) {
			const before = readIn.get(Number(record.id));
			if (before !== undefined && wootricSeconds(record.updated_at) !== before)
				from = Math.min(from, before);
		}
	}
	return from;
}

/**
 * New responses held for their comment that reached Treat as Complete After without one: emitted as
 * they are, read in one listing of their created seconds (their updated_at did not move, so the
 * updated stream does not bring them). One no longer listed was deleted or invalidated, and is
 * dropped; one whose end user could not be read in the poll's time stays held for the next poll.
 */
async function emitTimedOut(
	context: IPollFunctions,
	{
		endUsers,
		...listing
	}: Pick<ListRequest, 'path' | 'query' | 'onUnreadable' | 'giveUpAt'> & {
		endUsers?: EndUserProfiles;
	},
	waiting: Map<number, number>,
	createdBy: number,
	emit: (record: IDataObject, created: number) => void,
): Promise<void> {
	const due = [...waiting].filter(([, created]) => created <= createdBy);
	if (due.length === 0) return;
	// A loop, not Math.min(...): a spread of many thousand arguments overflows the stack.
	const range = due.reduce(
		(bounds, [, created]) => ({
			gte: Math.min(bounds.gte, created),
			lte: Math.max(bounds.lte, created),
		}),
		{ gte: Infinity, lte: -Infinity },
	);
	const listed: IDataObject[] = [];
	for await (const page of listAll(context, {
		...listing,
		created: range,
		sortKey: 'created_at',
		order: 'asc',
	})) {
		listed.push(
			...page.filter((record) => (waiting.get(Number(record.id)) ?? Infinity) <= createdBy),
		);
	}
	await endUsers?.read(listed);
	const stillHeld = new Set(
		listed.filter((record) => endUsers?.lacks(record)).map((record) => Number(record.id)),
	);
	for (const record of listed) {
		const id = Number(record.id);
		if (stillHeld.has(id) || !waiting.has(id)) continue;
		const created = waiting.get(id)!;
		waiting.delete(id);
		emit(record, created);
	}
	for (const [id] of due) if (!stillHeld.has(id)) waiting.delete(id);
}

/** `found` with the end users of its records (Include End User). */
async function withEndUsers(endUsers: EndUserProfiles, found: Found[]): Promise<Found[]> {
	const records = await endUsers.withEndUsers(found.map(({ record }) => record));
	return found.map((entry, index) => ({ ...entry, record: records[index] }));
}

function toItems(found: Found[], settings: TriggerSettings): INodeExecutionData[] {
	return found.map(({ event, record }) => ({
		json: eventJson(event, record, settings.fields),
	}));
}

/**
 * An item that tells of records no filter could reach, so the workflow (and its executions list)
 * shows it.
 */
function warningItem({
	message,
	path,
	created,
	updated,
	read,
}: UnreadableRecords): INodeExecutionData {
	const iso = (second?: number) =>
		second === undefined ? undefined : new Date(second * 1000).toISOString();
	return {
		json: {
			event: 'warning',
			warning: message,
			path,
			created_at: iso(created),
			updated_at: iso(updated),
			records_read: read,
		},
	};
}

/** "Fetch Test Event": the newest matching record of each event, leaving the cursors alone. */
async function sample(
	context: IPollFunctions,
	settings: TriggerSettings,
): Promise<INodeExecutionData[][] | null> {
	let found: Found[] = [];
	for (const event of settings.events) {
		const { stream, field } = EVENTS[event];
		const { path } = STREAMS[stream];
		const matches = (record: IDataObject) =>
			(event !== 'responseUpdated' || changedSinceCreated(record)) &&
			matchesFilter(event, record, settings.filter);
		const pages = listAll(context, {
			path,
			query: eventQuery(event, settings.filter),
			sortKey: `${field}_at`,
			order: 'desc',
			limit: SAMPLE_RECORDS,
		});
		for await (const page of pages) {
			const match = page.find(matches);
			if (match) {
				found.push({ event, second: wootricSeconds(match[`${field}_at`]) ?? 0, record: match });
				break;
			}
		}
	}
	if (found.length === 0) return null;
	if (settings.includeEndUser) found = await withEndUsers(new EndUserProfiles(context), found);
	return [toItems(found, settings)];
}

/**
 * The service's time now (its Date header), from the smallest request the endpoint answers; no
 * wait past `giveUpAt` (n8n's end of the poll).
 */
async function serviceTime(
	context: IPollFunctions,
	path: string,
	giveUpAt: number,
): Promise<number> {
	let answeredAt: number | undefined;
	await wootricRequest(context, {
		method: 'GET',
		path,
		query: { page: 1, per_page: 1 },
		giveUpAt,
		onServiceTime: (second) => (answeredAt = second),
	});
	return answeredAt ?? Math.floor(Date.now() / 1000);
}

/**
 * The cursor kept by this package before 0.2 (one per event, `since` and `seen` by created_at or
 * updated_at): carried on from its oldest second, the records it had read recognised by id.
 */
function carriedOver(state: IDataObject, stream: Stream): StreamCursor | undefined {
	const old = STREAMS[stream].events.map(
		(event) => state[event] as { since?: unknown; seen?: unknown } | undefined,
	);
	const cursors = old.filter(
		(cursor) => typeof cursor?.since === 'number' && Array.isArray(cursor.seen),
	) as Array<{ since: number; seen: Array<[number, number, string?]> }>;
	if (cursors.length === 0) return undefined;
	const cursor = startCursor(Math.min(...cursors.map(({ since }) => since)));
	cursor.recent = cursors.flatMap(({ seen }) =>
		seen.map(([id, second, version]): ReadRecord => [id, second, version ?? '']),
	);
	return cursor;
}

/**
 * The cursors a poll in this process is reading and moving right now. n8n's own poller (not the
 * durable one) starts a poll at each Poll Time without waiting for the one before, and gives it 5
 * minutes (n8n 2.x) or no limit (1.x), and every poll of an active trigger gets the same static data
 * object: two polls at once would read one cursor and emit the same records twice. So a poll whose
 * cursor is being read skips (returns nothing): the one reading takes in what both would, and the
 * next Poll Time after it ends reads on. n8n's durable poller gives each poll a copy of the cursor
 * (and fences them by its lease), so its polls never meet here.
 *
 * Invariant: at most one poll at a time reads and moves a cursor object of this process.
 * Bound: one entry per trigger polling right now, removed when its poll ends.
 */
const cursorsBeingRead = new WeakSet<IDataObject>();

/**
 * New responses, changed responses and new declines since the last poll, oldest first, each once.
 * The cursors move only when the whole poll succeeded: a failed request fails the poll (n8n shows
 * the error) and the next poll repeats it. A poll out of time (a rate limit that resets after it)
 * keeps what it read, and the next poll goes on from there; with nothing read, it fails declaring
 * the reset, but for the end users' limit (readAlong).
 */
export async function pollWootric(context: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = await readSettings(context);
	if (context.getMode() === 'manual') return await sample(context, settings);

	const state = context.getWorkflowStaticData('node');
	if (cursorsBeingRead.has(state)) {
		context.logger.debug(
			'Wootric Trigger: a poll of this trigger is still running; this one skips',
		);
		return null;
	}
	cursorsBeingRead.add(state);
	try {
		return await readOn(context, settings, state);
	} finally {
		cursorsBeingRead.delete(state);
	}
}

/** One poll of an active trigger: reads each endpoint on from its cursor, and moves the cursors. */
async function readOn(
	context: IPollFunctions,
	settings: TriggerSettings,
	state: IDataObject,
): Promise<INodeExecutionData[][] | null> {
	const budget =
		typeof context.getPollBudgetMs === 'function' ? context.getPollBudgetMs() : Infinity;
	const started = Date.now();
	const deadline = started + budget * 0.8;
	const giveUpAt = started + budget;
	const endUsers = settings.includeEndUser ? new EndUserProfiles(context, giveUpAt) : undefined;
	const cursors: Partial<Record<Stream, StreamCursor>> = {};
	let found: Found[] = [];
	const unreadable: UnreadableRecords[] = [];
	const streams = [...new Set(settings.events.map((event) => EVENTS[event].stream))];
	// The endpoints are read at the same time (each its own rate limit); every read is let finish
	// before a failure fails the poll, so no request outlives it.
	const reads = await Promise.allSettled(
		streams.map(async (stream) => {
			const stored = state[stream];
			const cursor = isStreamCursor(stored)
				? stored
				: (carriedOver(state, stream) ??
					(settings.startFrom === undefined ? undefined : startCursor(settings.startFrom)));
			if (!cursor) {
				// First poll: start from the service's now rather than flood the workflow with history.
				cursors[stream] = startCursor(await serviceTime(context, STREAMS[stream].path, giveUpAt));
				return;
			}
			const result = await readStream({
				context,
				stream,
				cursor,
				settings,
				deadline,
				giveUpAt,
				endUsers,
			});
			cursors[stream] = result.cursor;
			found.push(...result.found);
			unreadable.push(...result.unreadable);
		}),
	);
	const failed = reads.find((read) => read.status === 'rejected');
	if (failed) throw failed.reason;
	found.sort(
		(a, b) =>
			a.second - b.second ||
			a.event.localeCompare(b.event) ||
			Number(a.record.id) - Number(b.record.id),
	);
	// The end users of what the closing look added (the rest are read).
	if (endUsers) found = await withEndUsers(endUsers, found);

	for (const event of Object.keys(EVENTS)) delete state[event];
	Object.assign(state, cursors);
	const items = [...toItems(found, settings), ...unreadable.map(warningItem)];
	return items.length > 0 ? [items] : null;
}
