import type { IDataObject, INodeExecutionData, IPollFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { isNotFound, listAll, simplifyRecord, wootricRequest, wootricSeconds, type NpsCategory, type UnreadableRecords } from '../Wootric/transport';
import { advanceCursor, isEventCursor, startCursor, wasRead, windowStart, type EventCursor, type PollProgress, type ReadRecord } from './cursor';
import { changedSinceCreated, EVENTS, eventQuery, isComplete, matchesFilter, versionOf, type EventName, type ResponseFilter } from './events';

/** A poll reads at most this many new records per event; the rest waits for the next poll. */
const MAX_RECORDS_PER_POLL = 10_000;
/** "Fetch Test Event" looks at most this far back for a record that matches the filters. */
const SAMPLE_RECORDS = 150;

interface Found {
	event: EventName;
	second: number;
	record: IDataObject;
}

interface TriggerSettings {
	events: EventName[];
	filter: ResponseFilter;
	includeEndUser: boolean;
	simplify: boolean;
	startFrom?: number;
	lookbackSeconds: number;
	/** Wait Until Complete: how long a new response without a comment is held; undefined emits it at once. */
	completeAfterSeconds?: number;
}

function invalid(context: IPollFunctions, field: string, rule: string, value: unknown): NodeOperationError {
	return new NodeOperationError(context.getNode(), `${field} ${rule} (got ${JSON.stringify(value)})`);
}

function wholeNumber(context: IPollFunctions, field: string, value: unknown, min: number, max: number): number {
	const number = Number(value);
	if (!Number.isInteger(number) || number < min || number > max) throw invalid(context, field, `must be a whole number from ${min} to ${max}`, value);
	return number;
}

function readSettings(context: IPollFunctions): TriggerSettings {
	const events = context.getNodeParameter('events', []) as EventName[];
	if (events.length === 0) throw invalid(context, 'Events', 'needs at least one event', events);
	const filters = context.getNodeParameter('filters', {}) as IDataObject;
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const minScore = wholeNumber(context, 'Minimum Score', filters.minScore ?? 0, 0, 10);
	const maxScore = wholeNumber(context, 'Maximum Score', filters.maxScore ?? 10, 0, 10);
	if (minScore > maxScore) throw invalid(context, 'Minimum Score', `must not be above the Maximum Score (${maxScore})`, minScore);
	let startFrom: number | undefined;
	if (options.startFrom) {
		const milliseconds = Date.parse(String(options.startFrom));
		if (Number.isNaN(milliseconds)) throw invalid(context, 'Start From', 'must be a date', options.startFrom);
		startFrom = Math.floor(milliseconds / 1000);
	}
	const completeAfterMinutes = wholeNumber(context, 'Treat as Complete After (Minutes)', options.completeAfterMinutes ?? 5, 1, 24 * 60);
	return {
		events,
		filter: {
			categories: (filters.categories as NpsCategory[] | undefined) ?? [],
			minScore,
			maxScore,
			onlyWithComment: filters.onlyWithComment === true,
			includeExcluded: filters.includeExcluded === true,
		},
		includeEndUser: options.includeEndUser === true,
		simplify: options.simplify === true,
		startFrom,
		lookbackSeconds: wholeNumber(context, 'Lookback (Minutes)', options.lookbackMinutes ?? 0, 0, 7 * 24 * 60) * 60,
		completeAfterSeconds: options.waitUntilComplete === true ? completeAfterMinutes * 60 : undefined,
	};
}

/** What one event's part of a poll found, and the cursor after it. */
interface EventRead {
	found: Found[];
	unreadable: UnreadableRecords[];
	cursor: EventCursor;
}

/**
 * The records of one event past its cursor, and the cursor after them. Throws, leaving the cursor as it
 * was, if a request fails. Records no filter can reach are reported (once) and passed by; a record without a
 * readable time stands with the one before it.
 */
async function readNewRecords(context: IPollFunctions, event: EventName, cursor: EventCursor, settings: TriggerSettings, deadline: number): Promise<EventRead> {
	const { path, field } = EVENTS[event];
	const timeKey = `${field}_at`;
	const updates = event === 'responseUpdated';
	const waitSeconds = event === 'response' ? settings.completeAfterSeconds : undefined;
	const alreadyRead = wasRead(cursor);
	const now = Math.floor(Date.now() / 1000);
	const progress: PollProgress = { read: [], pending: [], told: [] };
	const found: Found[] = [];
	const unreadable: UnreadableRecords[] = [];
	const start = windowStart(cursor, settings.lookbackSeconds, now);
	const pages = listAll(context, {
		path,
		query: eventQuery(event, settings.filter),
		[field]: { gte: start },
		sortKey: timeKey,
		order: 'asc',
		onUnreadable: (records) => {
			const second = records[field];
			if (second === undefined) return;
			progress.told.push(second);
			if (!cursor.told?.includes(second)) unreadable.push(records);
		},
	});
	let second = start;
	let finished = true;
	for await (const page of pages) {
		for (const record of page) {
			const id = Number(record.id);
			second = wootricSeconds(record[timeKey]) ?? second;
			const entry: ReadRecord = updates ? [id, second, versionOf(record)] : [id, second];
			if (alreadyRead(entry)) continue;
			if (waitSeconds !== undefined && !isComplete(record, second, now, waitSeconds)) {
				progress.pending.push([id, second]);
				continue;
			}
			progress.read.push(entry);
			if ((!updates || changedSinceCreated(record)) && matchesFilter(event, record, settings.filter)) found.push({ event, second, record });
		}
		// Oldest first, so whatever is left starts after what was read: the next poll carries on from there.
		if (progress.read.length >= MAX_RECORDS_PER_POLL || Date.now() > deadline) {
			finished = false;
			break;
		}
	}
	if (!finished) {
		// Responses still pending that this poll did not reach wait on; a whole window that no longer lists
		// one means it was deleted or excluded from calculations, and it is dropped.
		const reached = new Set([...progress.read, ...progress.pending].map(([id]) => id));
		progress.pending.push(...(cursor.pending ?? []).filter(([id]) => !reached.has(id)));
	}
	return { found, unreadable, cursor: advanceCursor(cursor, progress, settings.lookbackSeconds, now) };
}

/** One request per distinct end user: email, external id and current properties on each item. */
async function withEndUsers(context: IPollFunctions, found: Found[]): Promise<Found[]> {
	const ids = [...new Set(found.map(({ record }) => Number(record.end_user_id)).filter((id) => Number.isInteger(id) && id > 0))];
	const profiles = new Map<number, IDataObject | null>();
	for (const id of ids) {
		try {
			const user = await wootricRequest<IDataObject>(context, { method: 'GET', path: `/v1/end_users/${id}`, subject: `end user ${id}` });
			profiles.set(id, { id: user.id, email: user.email, external_id: user.external_id, current_properties: user.properties });
		} catch (error) {
			// A user deleted since answering has no profile; anything else fails the poll, which is repeated.
			if (!isNotFound(error)) throw new NodeApiError(context.getNode(), error as JsonObject);
			profiles.set(id, null);
		}
	}
	return found.map((entry) => {
		const profile = profiles.get(Number(entry.record.end_user_id));
		const atSurvey = (entry.record.end_user as IDataObject | undefined) ?? {};
		return { ...entry, record: { ...entry.record, end_user: profile === undefined ? atSurvey : { ...atSurvey, ...(profile ?? { deleted: true }) } } };
	});
}

function toItems(found: Found[], settings: TriggerSettings): INodeExecutionData[] {
	return found.map(({ event, record }) => ({ json: { event, ...(settings.simplify ? simplifyRecord(record) : record) } }));
}

/** An item that tells of records no filter could reach, so the workflow (and its executions list) shows it. */
function warningItem({ message, path, created, updated, read }: UnreadableRecords): INodeExecutionData {
	const iso = (second?: number) => (second === undefined ? undefined : new Date(second * 1000).toISOString());
	return { json: { event: 'warning', warning: message, path, created_at: iso(created), updated_at: iso(updated), records_read: read } };
}

/** "Fetch Test Event": the newest matching record of each event, leaving the cursors alone. */
async function sample(context: IPollFunctions, settings: TriggerSettings): Promise<INodeExecutionData[][] | null> {
	let found: Found[] = [];
	for (const event of settings.events) {
		const { path, field } = EVENTS[event];
		const matches = (record: IDataObject) => (event !== 'responseUpdated' || changedSinceCreated(record)) && matchesFilter(event, record, settings.filter);
		const pages = listAll(context, { path, query: eventQuery(event, settings.filter), sortKey: `${field}_at`, order: 'desc', limit: SAMPLE_RECORDS });
		for await (const page of pages) {
			const match = page.find(matches);
			if (match) {
				found.push({ event, second: wootricSeconds(match[`${field}_at`]) ?? 0, record: match });
				break;
			}
		}
	}
	if (found.length === 0) return null;
	if (settings.includeEndUser) found = await withEndUsers(context, found);
	return [toItems(found, settings)];
}

/**
 * New responses, changed responses and new declines since the last poll, oldest first, each once. The
 * cursors move only when the whole poll succeeded: a failed request fails the poll (n8n shows the error)
 * and the next poll repeats it.
 */
export async function pollWootric(context: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = readSettings(context);
	if (context.getMode() === 'manual') return await sample(context, settings);

	const state = context.getWorkflowStaticData('node');
	const budget = typeof context.getPollBudgetMs === 'function' ? context.getPollBudgetMs() : Infinity;
	const deadline = Date.now() + budget * 0.8;
	const now = Math.floor(Date.now() / 1000);
	const cursors: Partial<Record<EventName, EventCursor>> = {};
	let found: Found[] = [];
	const unreadable: UnreadableRecords[] = [];
	// The events are read at the same time (each list its own endpoint and rate limit); every read is let
	// finish before a failure fails the poll, so no request outlives it.
	const reads = await Promise.allSettled(
		settings.events.map(async (event) => {
			const stored = state[event];
			if (!isEventCursor(stored) && settings.startFrom === undefined) {
				// First poll: start from now rather than flood the workflow with history.
				cursors[event] = startCursor(now);
				return;
			}
			const result = await readNewRecords(context, event, isEventCursor(stored) ? stored : startCursor(settings.startFrom!), settings, deadline);
			cursors[event] = result.cursor;
			found.push(...result.found);
			unreadable.push(...result.unreadable);
		}),
	);
	const failed = reads.find((read) => read.status === 'rejected');
	if (failed) throw failed.reason;
	found.sort((a, b) => a.second - b.second || a.event.localeCompare(b.event) || Number(a.record.id) - Number(b.record.id));
	if (settings.includeEndUser && found.length > 0) found = await withEndUsers(context, found);

	Object.assign(state, cursors);
	const items = [...toItems(found, settings), ...unreadable.map(warningItem)];
	return items.length > 0 ? [items] : null;
}
