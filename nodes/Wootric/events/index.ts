import type { IDataObject, INode } from 'n8n-workflow';

import { DECLINE_SHAPE, pickFields, RESPONSE_SHAPE, simplifyRecord } from '../helpers/records';
import { categoryIndex, type SurveyScale } from '../helpers/surveyTypes';
import { wootricSeconds, type ParamHash, type TimeField } from '../transport';

export type EventName = 'response' | 'responseUpdated' | 'decline';

/** The endpoints the trigger reads: each keeps one cursor, whatever events of it are watched. */
export type Stream = 'responses' | 'declines';

export const STREAMS: Record<Stream, { path: string; newEvent: EventName; events: EventName[] }> = {
	responses: {
		path: '/v1/responses',
		newEvent: 'response',
		events: ['response', 'responseUpdated'],
	},
	declines: { path: '/v1/declines', newEvent: 'decline', events: ['decline'] },
};

/**
 * The endpoint each event reads, and the time its newest record is found by ("Fetch Test Event").
 */
export const EVENTS: Record<EventName, { stream: Stream; field: TimeField }> = {
	response: { stream: 'responses', field: 'created' },
	responseUpdated: { stream: 'responses', field: 'updated' },
	decline: { stream: 'declines', field: 'created' },
};

/**
 * Which responses the trigger emits; declines have no score, so only the event choice applies to
 * them.
 */
export interface ResponseFilter {
	/** The account's survey type, which the categories are judged on. */
	scale: SurveyScale;
	/** The categories kept, low (0) to high (2); none means all. */
	categories: number[];
	minScore: number;
	maxScore: number;
	onlyWithComment: boolean;
	includeExcluded: boolean;
}

const isResponse = (event: EventName) => event !== 'decline';

function hasComment(record: IDataObject): boolean {
	return typeof record.text === 'string' && record.text.trim() !== '';
}

/** Filters the endpoint applies itself. */
export function eventQuery(event: EventName, filter: ResponseFilter): ParamHash {
	return isResponse(event) && filter.includeExcluded ? { excluded_from_calculations: true } : {};
}

/** Filters applied to what the endpoint returned (the API has no score or comment filter). */
export function matchesFilter(
	event: EventName,
	record: IDataObject,
	filter: ResponseFilter,
): boolean {
	if (!isResponse(event)) return true;
	const score = typeof record.score === 'string' ? Number(record.score) : record.score;
	// A score that is no score of the scale (a malformed answer) passes only filters that look at
	// no score.
	if (typeof score !== 'number' || !(score >= filter.scale.min && score <= filter.scale.max))
		return (
			filter.minScore <= filter.scale.min &&
			filter.maxScore >= filter.scale.max &&
			filter.categories.length === 0 &&
			(!filter.onlyWithComment || hasComment(record))
		);
	if (score < filter.minScore || score > filter.maxScore) return false;
	if (
		filter.categories.length > 0 &&
		!filter.categories.includes(categoryIndex(filter.scale, score))
	)
		return false;
	return !filter.onlyWithComment || hasComment(record);
}

/**
 * One rule for both triggers: the events one state of a response stands for, so that a workflow
 * gets the same events, with the same keys, from either trigger and in any n8n process.
 *
 * - A response is new from its score until Treat as Complete After later. A state that matches the
 *   filters stands for Response Created when it is the response's creation, or a change made in
 *   that time (a comment given after the score, with Only With a Comment; a new score). A later
 *   change is never a new response.
 * - Every change that matches stands for Response Updated too, under its own key, also when it
 *   stands for Response Created: a change never rides only on a Response Created that the workflow
 *   may have seen already (from the other trigger, or another n8n process), where its key would fold
 *   it away.
 *
 * Which states a trigger sees is its own: the webhook each one Wootric sends; the polling trigger
 * the ones its polls read, and it takes a response it reads for the first time as new in whatever
 * state it finds it (`firstSeen`), as it cannot know what came before.
 */
export interface EventRule {
	events: EventName[];
	filter: ResponseFilter;
	/** Treat as Complete After, in seconds: how long after its score a response is still new. */
	newForSeconds: number;
}

/** One state of a response, as a trigger sees it. */
export interface ResponseState {
	record: IDataObject;
	/** UNIX seconds of its score (created_at). */
	createdSecond: number;
	/** UNIX seconds of this state (updated_at); undefined when a webhook does not say. */
	changedSecond: number | undefined;
	/** Whether this state is a change of the response rather than its creation. */
	isChange: boolean;
	/** Seen by a trigger that never saw the response before and could not (see EventRule). */
	firstSeen?: boolean;
}

/** The events of EventRule that `state` stands for, Response Created first. */
export function responseEvents(state: ResponseState, rule: EventRule): EventName[] {
	const { record, createdSecond, changedSecond, isChange } = state;
	// The API's lists leave invalidated responses out unless asked for them; so do both triggers.
	if (record.excluded_from_calculations === true && !rule.filter.includeExcluded) return [];
	if (!matchesFilter('response', record, rule.filter)) return [];
	const stillNew =
		!isChange ||
		state.firstSeen === true ||
		(changedSecond !== undefined && changedSecond - createdSecond <= rule.newForSeconds);
	const events: EventName[] = [];
	if (stillNew && rule.events.includes('response')) events.push('response');
	if (isChange && rule.events.includes('responseUpdated')) events.push('responseUpdated');
	return events;
}

/**
 * Whether a record was changed after it was created (a new record's updated_at is its created_at).
 */
export function changedSinceCreated(record: IDataObject): boolean {
	const created = wootricSeconds(record.created_at);
	return created === undefined || wootricSeconds(record.updated_at) !== created;
}

/**
 * The key both triggers put on an event's item (`idempotency_key`): the same for the same event,
 * whichever trigger emitted it, when, and in which n8n process, so that a system downstream can fold
 * a repeat that n8n cannot (a delivery repeated across a restart, or to a second webhook process, or
 * one event seen by both triggers). A creation is its event and record id (`response:123`,
 * `decline:45`); a change adds its updated_at second (`responseUpdated:123:2026-11-25T14:00:00Z`), so
 * two changes of one response within one second share a key; a webhook without updated_at, a digest of
 * its record (`responseUpdated:123:v1a2b3c4d`), so two changes never do.
 */
export function idempotencyKey(event: EventName, record: IDataObject): string {
	const key = `${event}:${String(record.id)}`;
	if (event !== 'responseUpdated') return key;
	const second = wootricSeconds(record.updated_at);
	// A webhook without updated_at: its content tells the change, the same in every copy of it.
	return second === undefined
		? `${key}:v${versionOf(record)}`
		: `${key}:${new Date(second * 1000).toISOString().replace('.000Z', 'Z')}`;
}

/**
 * What of its record an event's item holds. `readable`: with its category on `scale` (responses:
 * nps_category, or score_category on CSAT and CES) and every time in ISO 8601 UTC; `mainFields`:
 * only the fields most workflows use.
 */
export interface ItemFields {
	readable: boolean;
	mainFields: boolean;
	scale: SurveyScale;
}

/**
 * From this version on, both triggers' items are always readable and Simplify keeps the main
 * fields (n8n's meaning of Simplify). In version 1 Simplify made them readable, all fields kept.
 */
export const MAIN_FIELDS_VERSION = 1.1;

/** What a trigger node's items hold with its Simplify option on or off (see ItemFields). */
export function itemFields(node: INode, simplify: boolean, scale: SurveyScale): ItemFields {
	return node.typeVersion >= MAIN_FIELDS_VERSION
		? { readable: true, mainFields: simplify, scale }
		: { readable: simplify, mainFields: false, scale };
}

/**
 * The main fields of each event's record: those the action node's Simplified output keeps, and the
 * end user (the polling trigger's Include End User, the webhook's end user), for whom to answer.
 */
export const MAIN_FIELDS: Record<EventName, string[]> = {
	response: [...RESPONSE_SHAPE.simplified, 'end_user'],
	responseUpdated: [...RESPONSE_SHAPE.simplified, 'end_user'],
	decline: [...DECLINE_SHAPE.simplified, 'end_user'],
};

/**
 * The json of the item an event starts the workflow with, alike from both triggers: the event, its
 * key, then the record's fields (`fields`).
 */
export function eventJson(
	event: EventName,
	record: IDataObject,
	fields: ItemFields,
	key = idempotencyKey(event, record),
): IDataObject {
	const readable = fields.readable ? simplifyRecord(record, fields.scale) : record;
	return {
		event,
		idempotency_key: key,
		...(fields.mainFields ? pickFields(readable, MAIN_FIELDS[event]) : readable),
	};
}

/**
 * Whether a new response is complete: marked completed, given a comment, or older than the wait.
 */
export function isComplete(
	record: IDataObject,
	createdSecond: number,
	now: number,
	waitSeconds: number,
): boolean {
	return record.completed === true || hasComment(record) || now - createdSecond >= waitSeconds;
}

/**
 * A short digest of a record's content (FNV-1a over its JSON): tells two versions of one updated_at
 * second apart.
 */
export function versionOf(record: IDataObject): string {
	const text = JSON.stringify(record);
	let hash = 0x811c9dc5;
	for (let index = 0; index < text.length; index++)
		hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
	return (hash >>> 0).toString(16);
}
