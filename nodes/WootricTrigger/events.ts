import type { IDataObject } from 'n8n-workflow';

import { npsCategory, type NpsCategory, type ParamHash } from '../Wootric/transport';

export type EventName = 'response' | 'decline';

/** The list endpoint each event reads, oldest first by created_at. */
export const EVENT_PATHS: Record<EventName, string> = {
	response: '/v1/responses',
	decline: '/v1/declines',
};

/** Which responses the trigger emits; declines have no score, so only the event choice applies to them. */
export interface ResponseFilter {
	categories: NpsCategory[];
	minScore: number;
	maxScore: number;
	onlyWithComment: boolean;
	includeExcluded: boolean;
}

/** Filters the endpoint applies itself. */
export function eventQuery(event: EventName, filter: ResponseFilter): ParamHash {
	return event === 'response' && filter.includeExcluded ? { excluded_from_calculations: true } : {};
}

/** Filters applied to what the endpoint returned (the API has no score or comment filter). */
export function matchesFilter(event: EventName, record: IDataObject, filter: ResponseFilter): boolean {
	if (event !== 'response') return true;
	const score = Number(record.score);
	if (!Number.isFinite(score) || score < filter.minScore || score > filter.maxScore) return false;
	if (filter.categories.length > 0 && !filter.categories.includes(npsCategory(score))) return false;
	return !filter.onlyWithComment || (typeof record.text === 'string' && record.text.trim() !== '');
}
