import type { IDataObject } from 'n8n-workflow';

import { normalizeDatetimes } from './datetime';

/**
 * Reading records as the service returns them, for the action node's and the trigger's "Simplify".
 */
export type NpsCategory = 'promoter' | 'passive' | 'detractor';

/** Detractors 0–6, passives 7–8, promoters 9–10. */
export function npsCategory(score: number): NpsCategory {
	return score <= 6 ? 'detractor' : score <= 8 ? 'passive' : 'promoter';
}

/** "Simplify": datetimes in ISO 8601 UTC, and responses (records with a score) get their NPS category. */
export function simplifyRecord(record: IDataObject): IDataObject {
	const simplified = normalizeDatetimes(record);
	return typeof record.score === 'number' ? { ...simplified, nps_category: npsCategory(record.score) } : simplified;
}
