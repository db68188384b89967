import type { Failure, IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import {
	changedSinceCreated,
	EVENTS,
	eventJson,
	eventQuery,
	matchesFilter,
	STREAMS,
	type Stream,
} from '../events';
import {
	declaring,
	listAll,
	wootricRequest,
	wootricSeconds,
	type UnreadableRecords,
} from '../transport';
import { isStreamCursor, startCursor, type ReadRecord, type StreamCursor } from './cursor';
import { PollClock } from './poll-clock';
import { EndUserProfiles } from './end-users';
import { readSettings, type TriggerSettings } from './settings';
import { readStream, type Found } from './stream-reading';

/** "Fetch Test Event" looks at most this far back for a record that matches the filters. */
const SAMPLE_RECORDS = 150;

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
 * the reset, but for the end users' limit (stream-reading.ts, readAlong).
 */
export async function pollWootric(context: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = await readSettings(context).catch((error: unknown) => {
		// What the transport did not declare is the node's settings, as the user gave them.
		throw declaredAs(error, { cause: 'configuration-invalid' });
	});
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
	} catch (error) {
		// Every failure the poll knows of declares its class where it is made; anything else is a
		// defect of the node, which n8n's durable poller must not take for a wait.
		throw declaredAs(error, { cause: 'node-defect' });
	} finally {
		cursorsBeingRead.delete(state);
	}
}

/** `error`, declaring `failure` unless it declares one already. */
function declaredAs(error: unknown, failure: Failure): unknown {
	if (!(error instanceof Error) || 'failure' in error) return error;
	return declaring(error, failure);
}

/** One poll of an active trigger: reads each endpoint on from its cursor, and moves the cursors. */
async function readOn(
	context: IPollFunctions,
	settings: TriggerSettings,
	state: IDataObject,
): Promise<INodeExecutionData[][] | null> {
	const budget =
		typeof context.getPollBudgetMs === 'function' ? context.getPollBudgetMs() : Infinity;
	const clock = new PollClock(Date.now(), budget);
	const endUsers = settings.includeEndUser ? new EndUserProfiles(context, clock) : undefined;
	const cursors: Partial<Record<Stream, StreamCursor>> = {};
	let found: Found[] = [];
	const unreadable: UnreadableRecords[] = [];
	const heldBack: Error[] = [];
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
				cursors[stream] = startCursor(
					await serviceTime(context, STREAMS[stream].path, clock.giveUpAt),
				);
				return;
			}
			const result = await readStream({
				context,
				stream,
				cursor,
				settings,
				clock,
				endUsers,
			});
			cursors[stream] = result.cursor;
			found.push(...result.found);
			unreadable.push(...result.unreadable);
			if (result.heldBack) heldBack.push(result.heldBack);
		}),
	);
	const failed = reads.find((read) => read.status === 'rejected');
	if (failed) throw failed.reason;
	// Records owed and none emitted, for want of their end users' reads: said, not silent (below the
	// least a poll needs, docs/polling-trigger.md).
	if (found.length === 0 && heldBack.length > 0) throw heldBack[0];
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
