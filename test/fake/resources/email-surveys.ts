import Papa from 'papaparse';

import type { ParamObject } from '../brackets';
import { ApiError, invalidValue, missingValue } from '../errors';
import { ok, route, type ApiCall, type Route } from '../http';
import { paramsOf, type Params } from '../params';
import type { Account, EndUser, FakeStore } from '../store';
import { createEndUser, findEndUser, liveEndUsers } from './end-users';

export const MAX_SURVEY_EMAILS = 100;
export const MAX_CSV_ROWS = 5000;
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const CUSTOM_MESSAGE_KEYS = [
	'followup_text',
	'detractor_followup_text',
	'passive_followup_text',
	'promoter_followup_text',
	'prompt_text',
	'detractor_prompt_text',
	'passive_prompt_text',
	'promoter_prompt_text',
];
const SAMPLING_RANGES: Record<string, { min: number; max?: number }> = {
	first_survey_delay: { min: 0 },
	response_throttle: { min: 0 },
	decline_throttle: { min: 0 },
	registered_percent: { min: 0, max: 100 },
};
const LANGUAGE_COLUMN = 'language';
const CONTEXT_COLUMN = /^___context:(.*)$/;

/** The parameters both endpoints share; checked the way the service documents them. */
function checkCommonParams(params: Params, account: Account): void {
	params.boolean('survey_immediately');
	params.string('subject');
	params.string('intro');
	const settings = params.nested('survey_settings');
	if (!settings) return;
	for (const key of ['language', 'logo_url', 'audience_text', 'product_name']) settings.string(key);
	const templateId = settings.integer('survey_template_id', { min: 1 });
	if (
		templateId !== undefined &&
		!account.surveyTemplates.some((template) => template.id === templateId)
	) {
		throw invalidValue('survey_settings[survey_template_id]');
	}
	const messages = settings.nested('custom_messages');
	for (const key of messages?.keys() ?? []) {
		if (!CUSTOM_MESSAGE_KEYS.includes(key))
			throw invalidValue(`survey_settings[custom_messages][${key}]`);
		messages!.string(key);
	}
	const sampling = settings.nested('sampling');
	for (const key of sampling?.keys() ?? []) {
		if (!Object.hasOwn(SAMPLING_RANGES, key))
			throw invalidValue(`survey_settings[sampling][${key}]`);
		sampling!.integer(key, SAMPLING_RANGES[key]);
	}
}

/**
 * External ids are unique per account (as on POST /v1/end_users): none may go to a second address.
 */
function checkExternalIds(
	account: Account,
	store: FakeStore,
	emails: string[],
	externalIds: string[],
): void {
	const emailOf = new Map<string, string>();
	externalIds.forEach((externalId, index) => {
		const email = emails[index];
		const holder = findEndUser(account, store, (candidate) => candidate.externalId === externalId);
		const owner = emailOf.get(externalId) ?? holder?.email ?? email;
		if (owner !== email)
			throw new ApiError(
				400,
				'invalid_parameter',
				`external_ids: ${externalId} has already been taken`,
				'external_ids',
			);
		emailOf.set(externalId, email);
	});
}

/** The account's end users by email, gathered once per request: a CSV can hold 5,000 addresses. */
function endUsersByEmail(account: Account, store: FakeStore): Map<string, EndUser> {
	const byEmail = new Map<string, EndUser>();
	for (const user of liveEndUsers(account, store))
		if (!byEmail.has(user.email)) byEmail.set(user.email, user);
	return byEmail;
}

/**
 * End users are created automatically for addresses the account does not know yet (and added to
 * `known`).
 */
function surveyEndUser(
	account: Account,
	store: FakeStore,
	known: Map<string, EndUser>,
	email: string,
	properties: Record<string, string>,
	externalId?: string,
) {
	const now = store.clock.now();
	let user = known.get(email);
	if (!user) known.set(email, (user = createEndUser(account, store, email)));
	user.properties = { ...user.properties, ...properties };
	if (externalId !== undefined) user.externalId = externalId;
	user.lastSurveyed = now;
	user.updatedAt = now;
}

/** What the survey asked for: its parameters without the credential or the CSV file itself. */
function surveyParams(params: Params): ParamObject {
	const { access_token: _accessToken, csv: _csv, ...asked } = params.raw();
	return asked;
}

function sendEmailSurvey(call: ApiCall) {
	const params = paramsOf(call.request.params);
	const emails = params.stringList('emails');
	if (!emails || emails.length === 0) throw missingValue('emails');
	if (emails.length > MAX_SURVEY_EMAILS) {
		throw new ApiError(
			400,
			'invalid_parameter',
			`emails can hold at most ${MAX_SURVEY_EMAILS} addresses`,
			'emails',
		);
	}
	const badEmail = emails.find((email) => !EMAIL_SHAPE.test(email));
	if (badEmail !== undefined)
		throw new ApiError(
			400,
			'invalid_parameter',
			`emails has an invalid address: ${badEmail}`,
			'emails',
		);
	const externalIds = params.stringList('external_ids');
	if (externalIds && externalIds.length !== emails.length) {
		throw new ApiError(
			400,
			'invalid_parameter',
			'external_ids must hold one id per email',
			'external_ids',
		);
	}
	if (externalIds) checkExternalIds(call.account, call.store, emails, externalIds);
	checkCommonParams(params, call.account);
	params.integer('delay', { min: 1, max: 31 });
	params.hashList('context');
	params.string('senders_name');
	const replyTo = params.string('reply_to_email');
	if (replyTo !== undefined && !EMAIL_SHAPE.test(replyTo)) throw invalidValue('reply_to_email');
	const properties = params.nested('end_user')?.stringHash('properties') ?? {};

	const known = endUsersByEmail(call.account, call.store);
	emails.forEach((email, index) =>
		surveyEndUser(call.account, call.store, known, email, properties, externalIds?.[index]),
	);
	call.account.emailSurveys.push({
		endpoint: 'email_survey',
		receivedAt: call.store.clock.now(),
		emails,
		params: surveyParams(params),
	});
	return ok({ status: 'scheduled', emails_count: emails.length });
}

/** The `csv` field: a multipart file part, or the file's content as URL-safe Base64 (RFC 4648). */
function csvText(call: ApiCall, params: Params): string {
	const file = call.request.files.find((candidate) => candidate.field === 'csv');
	if (file) return file.content;
	const encoded = params.string('csv');
	if (encoded === undefined || encoded === '') throw missingValue('csv');
	if (!/^[A-Za-z0-9_-]+={0,2}$/.test(encoded)) throw invalidValue('csv');
	return Buffer.from(encoded, 'base64url').toString('utf8');
}

const csvError = (message: string) => new ApiError(400, 'invalid_csv', message, 'csv');

/**
 * The CSV rules of the spec: header, email column first, context columns, language column with its
 * template.
 */
function readCsv(text: string, params: Params, account: Account): Array<Record<string, string>> {
	// A fixed delimiter: guessing fails on a one-column file and can pick ';' or '|' out of the data.
	const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), {
		delimiter: ',',
		skipEmptyLines: 'greedy',
	});
	if (parsed.errors.length > 0) {
		const first = parsed.errors[0];
		throw csvError(`CSV is malformed at row ${(first.row ?? 0) + 1}: ${first.message}`);
	}
	const [header, ...rows] = parsed.data;
	if (!header || header.length === 0) throw csvError('CSV needs a header row');
	if (header[0] !== 'email') throw csvError('CSV needs an email column first');
	if (rows.length === 0) throw csvError('CSV has no rows');
	if (rows.length > MAX_CSV_ROWS) throw csvError(`CSV can hold at most ${MAX_CSV_ROWS} rows`);
	for (const column of header) {
		const context = CONTEXT_COLUMN.exec(column);
		if (context && !/^\w+$/.test(context[1]))
			throw csvError(`CSV context column "${column}" has an invalid variable name`);
	}
	const languageCodes = header.includes(LANGUAGE_COLUMN)
		? configuredLanguages(params, account)
		: undefined;
	return rows.map((cells, index) => {
		const rowNumber = index + 2;
		if (cells.length !== header.length)
			throw csvError(
				`CSV row ${rowNumber} has ${cells.length} cells, the header has ${header.length}`,
			);
		const row = Object.fromEntries(
			header.map((column, column_index) => [column, cells[column_index]]),
		);
		if (!EMAIL_SHAPE.test(row.email))
			throw csvError(`CSV row ${rowNumber} has an invalid email: ${row.email}`);
		if (languageCodes && !languageCodes.includes(row[LANGUAGE_COLUMN])) {
			throw csvError(
				`CSV row ${rowNumber} has a language code not configured for the survey template: ${row[LANGUAGE_COLUMN]}`,
			);
		}
		return row;
	});
}

/**
 * A language column needs survey_settings[language]=multi_language and the template whose codes it
 * uses.
 */
function configuredLanguages(params: Params, account: Account): string[] {
	const settings = params.nested('survey_settings');
	if (settings?.string('language') !== 'multi_language') {
		throw csvError('A language column needs survey_settings[language] set to multi_language');
	}
	const templateId = settings.integer('survey_template_id');
	const template = account.surveyTemplates.find((candidate) => candidate.id === templateId);
	if (!template)
		throw csvError(
			'A language column needs survey_settings[survey_template_id] set to the template in use',
		);
	return template.languages.map((language) => language.code);
}

function sendEmailSurveyCsv(call: ApiCall) {
	const params = paramsOf(call.request.params);
	checkCommonParams(params, call.account);
	const rows = readCsv(csvText(call, params), params, call.account);
	const known = endUsersByEmail(call.account, call.store);
	for (const row of rows) {
		const properties = Object.fromEntries(
			Object.entries(row).filter(
				([column]) =>
					column !== 'email' && column !== LANGUAGE_COLUMN && !CONTEXT_COLUMN.test(column),
			),
		);
		surveyEndUser(call.account, call.store, known, row.email, properties);
	}
	call.account.emailSurveys.push({
		endpoint: 'email_survey_csv',
		receivedAt: call.store.clock.now(),
		emails: rows.map((row) => row.email),
		rows,
		fileName: call.request.files.find((file) => file.field === 'csv')?.filename,
		params: surveyParams(params),
	});
	return ok({ status: 'scheduled', emails_count: rows.length });
}

export const emailSurveyRoutes: Route[] = [
	route('POST', '/v1/email_survey', sendEmailSurvey),
	route('POST', '/v1/email_survey_csv', sendEmailSurveyCsv),
];
