import type { IDataObject } from 'n8n-workflow';

import { normalizeDatetimes } from '../transport';

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

/** The item for a success the API answers with an empty body (202, 204): what was done, to which record. */
export function successRecord(fields: IDataObject): IDataObject {
	return { success: true, ...fields };
}
