import type { IDataObject } from 'n8n-workflow';

import { parseWootricDatetime } from '../transport/datetime';
import { categoryName, type SurveyScale } from './surveyTypes';

/**
 * Reading records as the service returns them, for the action node's and the trigger's "Simplify".
 */

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
 * "Simplify": datetimes in ISO 8601 UTC, and responses (records with a score) get their category on
 * the account's scale: nps_category on NPS, score_category on CSAT and CES.
 */
export function simplifyRecord(record: IDataObject, scale: SurveyScale): IDataObject {
	const simplified = normalizeDatetimes(record);
	return typeof record.score === 'number'
		? { ...simplified, [scale.categoryField]: categoryName(scale, record.score) }
		: simplified;
}

/**
 * A kind of record as an agent's tool outputs it (the Output option, output.ts): its fields, what
 * each holds, and those Simplified keeps.
 */
export interface RecordShape {
	/** What the records are, plural, e.g. `responses`. */
	records: string;
	/** Always output, also with Selected Fields: what names the record. */
	key: string;
	/** The top-level fields, as Wootric names them (and nps_category), with what each holds. */
	fields: Record<string, string>;
	/** The fields Simplified keeps. */
	simplified: string[];
}

const TIMES = {
	created_at: 'When it was created (ISO 8601 UTC)',
	updated_at: 'When it was last changed (ISO 8601 UTC)',
};

const SURVEY_RECORD_FIELDS = {
	id: 'Its ID',
	end_user_id: 'The ID of the end user',
	survey_id: 'The ID of the survey',
	ip_address: 'The IP address it came from',
	origin_url: 'The page it came from',
	...TIMES,
	end_user: "The end user's properties when the survey was taken",
};

export const RESPONSE_SHAPE: RecordShape = {
	records: 'responses',
	key: 'id',
	fields: {
		...SURVEY_RECORD_FIELDS,
		score: 'The score: NPS 0 to 10, CSAT 1 to 5 or 1 to 10, CES 1 to 7',
		nps_category: 'NPS accounts: promoter (9–10), passive (7–8) or detractor (0–6)',
		score_category: 'CSAT and CES accounts: positive, neutral or negative',
		text: 'The comment',
		completed: 'Whether the response is completed',
		excluded_from_calculations: 'Whether it is left out of the NPS',
		tags: 'Its tags',
		notes: 'Its notes',
	},
	simplified: [
		'id',
		'end_user_id',
		'score',
		'nps_category',
		'score_category',
		'text',
		'completed',
		'excluded_from_calculations',
		'tags',
		'created_at',
		'updated_at',
	],
};

export const DECLINE_SHAPE: RecordShape = {
	records: 'declines',
	key: 'id',
	fields: SURVEY_RECORD_FIELDS,
	simplified: ['id', 'end_user_id', 'survey_id', 'origin_url', 'created_at', 'updated_at'],
};

export const END_USER_SHAPE: RecordShape = {
	records: 'end users',
	key: 'id',
	fields: {
		id: 'Its ID',
		email: 'The email address',
		external_id: "The ID in the customer's own system",
		phone_number: 'The phone number',
		properties: 'Its properties, e.g. plan',
		last_surveyed: 'When it was last surveyed (ISO 8601 UTC)',
		last_seen_at: 'When it was last seen (ISO 8601 UTC)',
		last_response: 'Its last response: score, comment, channel',
		settings: 'Which surveys it gets: email, web, mobile',
		external_created_at: "When it was created in the customer's system (UNIX seconds)",
		...TIMES,
	},
	simplified: [
		'id',
		'email',
		'external_id',
		'phone_number',
		'properties',
		'last_surveyed',
		'last_response',
		'created_at',
		'updated_at',
	],
};

export const SEGMENT_SHAPE: RecordShape = {
	records: 'segments',
	key: 'name',
	fields: {
		name: 'The end-user property it is about',
		data_type: 'String, date or integer',
		created_at: TIMES.created_at,
	},
	simplified: ['name', 'data_type', 'created_at'],
};

export const SURVEY_TEMPLATE_SHAPE: RecordShape = {
	records: 'survey templates',
	key: 'id',
	fields: {
		id: 'Its ID',
		name: 'Its name',
		is_default: "Whether it is the account's default template",
		default_language: 'Its default language code',
		languages: 'Its languages: code and name',
		non_configured_language_count: 'How many languages are not configured',
		custom_samplings: 'Its custom samplings',
	},
	simplified: ['id', 'name', 'is_default', 'default_language', 'languages'],
};

/** The record with only `fields`, in their order; fields it does not have are left out. */
export function pickFields(record: IDataObject, fields: string[]): IDataObject {
	return Object.fromEntries(
		fields.filter((field) => field in record).map((field) => [field, record[field]]),
	);
}
