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

export function hasComment(record: IDataObject): boolean {
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
	const score = Number(record.score);
	if (!Number.isFinite(score) || score < filter.minScore || score > filter.maxScore) return false;
	if (
		filter.categories.length > 0 &&
		!filter.categories.includes(categoryIndex(filter.scale, score))
	)
		return false;
	return !filter.onlyWithComment || hasComment(record);
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
 * two changes of one response within one second share a key.
 */
export function idempotencyKey(event: EventName, record: IDataObject): string {
	const key = `${event}:${String(record.id)}`;
	if (event !== 'responseUpdated') return key;
	const second = wootricSeconds(record.updated_at) ?? wootricSeconds(record.created_at);
	return second === undefined
		? key
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
