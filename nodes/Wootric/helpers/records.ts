import type { IDataObject } from 'n8n-workflow';

import { parseWootricDatetime } from '../transport/datetime';

/**
 * Reading records as the service returns them, for the action node's and the trigger's "Simplify".
 */
export type NpsCategory = 'promoter' | 'passive' | 'detractor';

/** Detractors 0–6, passives 7–8, promoters 9–10. */
export function npsCategory(score: number): NpsCategory {
	return score <= 6 ? 'detractor' : score <= 8 ? 'passive' : 'promoter';
}

const DATETIME_FIELDS = new Set(['created_at', 'updated_at', 'last_surveyed', 'last_seen_at']);

/** A copy with every datetime field, at any depth, in ISO 8601 UTC (`2016-12-16T17:05:00.000Z`). */
export function normalizeDatetimes<T>(value: T): T {
	if (Array.isArray(value)) return value.map((entry) => normalizeDatetimes(entry)) as T;
	if (value === null || typeof value !== 'object') return value;
	return Object.fromEntries(
		Object.entries(value).map(([key, entry]) => {
			if (DATETIME_FIELDS.has(key) && typeof entry === 'string') {
				const milliseconds = parseWootricDatetime(entry);
				return [key, milliseconds === undefined ? entry : new Date(milliseconds).toISOString()];
			}
			return [key, normalizeDatetimes(entry)];
		}),
	) as T;
}

/**
 * "Simplify": datetimes in ISO 8601 UTC, and responses (records with a score) get their NPS
 * category.
 */
export function simplifyRecord(record: IDataObject): IDataObject {
	const simplified = normalizeDatetimes(record);
	return typeof record.score === 'number'
		? { ...simplified, nps_category: npsCategory(record.score) }
		: simplified;
}
