import { formatDatetime } from '../datetime';
import { created, ok, route, type ApiCall, type Route } from '../http';
import { listPage } from '../listing';
import { paramsOf, type Params } from '../params';
import type { Account, FakeStore, SurveyEvent, SurveyResponse } from '../store';
import { endUserById } from './end-users';
import {
	CREATED_ONLY_LIST_RULES,
	fieldsOnCreate,
	getRecord,
	newRecordDefaults,
	removeRecord,
	storeRecord,
	SURVEY_RECORD_LIST_RULES,
	updateRecord,
} from './survey-records';

export type NpsCategory = 'detractors' | 'passives' | 'promoters';

/** Detractors 0–6, passives 7–8, promoters 9–10. */
export function npsCategory(score: number): NpsCategory {
	return score <= 6 ? 'detractors' : score <= 8 ? 'passives' : 'promoters';
}

export function responseView(account: Account, response: SurveyResponse) {
	return {
		id: response.id,
		end_user_id: response.endUserId,
		survey_id: response.surveyId,
		score: response.score,
		text: response.text,
		completed: response.completed,
		excluded_from_calculations: response.excludedFromCalculations,
		ip_address: response.ipAddress,
		origin_url: response.originUrl,
		created_at: formatDatetime(response.createdAt, account, 'spaceOffset'),
		updated_at: formatDatetime(response.updatedAt, account, 'spaceOffset'),
		tags: response.tags,
		notes: response.notes,
		end_user: { properties: response.endUserProperties },
	};
}

/** The `last_response` hash inside an end user. */
export function responseSummary(response: SurveyResponse) {
	return {
		id: String(response.id),
		score: response.score,
		text: response.text,
		survey: { channel: response.channel },
	};
}

export function latestResponse(account: Account, endUserId: number): SurveyResponse | undefined {
	let latest: SurveyResponse | undefined;
	for (const response of account.responses.values()) {
		if (response.endUserId !== endUserId) continue;
		if (
			!latest ||
			response.createdAt > latest.createdAt ||
			(response.createdAt === latest.createdAt && response.id > latest.id)
		)
			latest = response;
	}
	return latest;
}

/** Lists leave out responses excluded from calculations unless excluded_from_calculations=true. */
function listResponses(call: ApiCall, endUserId?: number, category?: NpsCategory) {
	const params = paramsOf(call.request.params);
	const includeExcluded = category
		? false
		: (params.boolean('excluded_from_calculations') ?? false);
	const listed = (response: SurveyResponse) =>
		(endUserId === undefined || response.endUserId === endUserId) &&
		(includeExcluded || !response.excludedFromCalculations) &&
		(category === undefined || npsCategory(response.score) === category);
	const rules = category || !call.updatedIndex ? CREATED_ONLY_LIST_RULES : SURVEY_RECORD_LIST_RULES;
	return ok(
		listPage(call.account.responses, params, rules, call.tieOrder, listed).map((response) =>
			responseView(call.account, response),
		),
	);
}

const listForEndUser = (category?: NpsCategory) => (call: ApiCall) =>
	listResponses(call, endUserById(call, call.pathParams.endUserId).id, category);

const responseUpdated = (response: SurveyResponse): SurveyEvent => ({
	name: 'response_updated',
	response,
});

/**
 * Stores a response with the service's defaults and announces it; for the create endpoint, the seed
 * and tests that insert in bulk.
 */
export function addResponse(
	account: Account,
	store: FakeStore,
	fields: Pick<SurveyResponse, 'endUserId' | 'score'> & Partial<SurveyResponse>,
): SurveyResponse {
	const response: SurveyResponse = {
		...newRecordDefaults(store, fields.createdAt),
		text: null,
		completed: true,
		excludedFromCalculations: false,
		ipAddress: '203.0.113.7',
		originUrl: 'https://app.example.com/',
		tags: [],
		notes: [],
		...fields,
	};
	storeRecord(account, account.responses, response);
	account.announce({ name: 'response_created', response });
	return response;
}

/**
 * What the survey itself does after the score is stored (no API endpoint does it): the end user
 * changes the score or adds a comment, the survey marks the response completed, an agent tags it.
 * updated_at moves to `at` (default now) and the service announces the update.
 */
export function changeResponse(
	account: Account,
	store: FakeStore,
	id: number,
	changes: Partial<
		Pick<SurveyResponse, 'score' | 'text' | 'completed' | 'tags' | 'excludedFromCalculations'>
	>,
	at = store.clock.now(),
): SurveyResponse {
	const response = account.responses.get(id);
	if (!response) throw new Error(`the fake has no response ${id}`);
	Object.assign(response, changes, { updatedAt: at });
	account.announce(responseUpdated(response));
	return response;
}

function create(call: ApiCall) {
	const user = endUserById(call, call.pathParams.endUserId);
	const params = paramsOf(call.request.params);
	params.requiredString('score');
	const score = params.integer('score', { min: 0, max: 10 })!;
	const ipAddress = params.requiredString('ip_address');
	const originUrl = params.requiredString('origin_url');
	const response = addResponse(call.account, call.store, {
		score,
		text: params.string('text') ?? null,
		ipAddress,
		originUrl,
		...fieldsOnCreate(call, params, user),
	});
	return created(responseView(call.account, response));
}

/** What PUT /v1/responses/:id changes besides end-user properties. */
function responseChanges(params: Params): Partial<SurveyResponse> {
	const changes: Partial<SurveyResponse> = {};
	const completed = params.boolean('completed');
	if (completed !== undefined) changes.completed = completed;
	const excluded = params.boolean('excluded_from_calculations');
	if (excluded !== undefined) changes.excludedFromCalculations = excluded;
	return changes;
}

const responsesOf = (account: Account) => account.responses;

export const responseRoutes: Route[] = [
	route('GET', '/v1/responses', (call) => listResponses(call)),
	route('PUT', '/v1/responses/:id', updateRecord(responsesOf, responseChanges, responseUpdated)),
	route('GET', '/v1/end_users/:endUserId/responses', listForEndUser()),
	route('POST', '/v1/end_users/:endUserId/responses', create),
	route('GET', '/v1/end_users/:endUserId/responses/promoters', listForEndUser('promoters')),
	route('GET', '/v1/end_users/:endUserId/responses/passives', listForEndUser('passives')),
	route('GET', '/v1/end_users/:endUserId/responses/detractors', listForEndUser('detractors')),
	route('GET', '/v1/end_users/:endUserId/responses/:id', getRecord(responsesOf, responseView)),
	route('DELETE', '/v1/end_users/:endUserId/responses/:id', removeRecord(responsesOf)),
];
