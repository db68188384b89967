import { formatDatetime } from '../datetime';
import { created, ok, route, type ApiCall, type Route } from '../http';
import { listPage } from '../listing';
import { paramsOf } from '../params';
import type { Account, Decline, FakeStore } from '../store';
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

export function declineView(account: Account, decline: Decline) {
	return {
		id: decline.id,
		end_user_id: decline.endUserId,
		survey_id: decline.surveyId,
		ip_address: decline.ipAddress,
		origin_url: decline.originUrl,
		created_at: formatDatetime(decline.createdAt, account, 'spaceOffset'),
		updated_at: formatDatetime(decline.updatedAt, account, 'spaceOffset'),
		end_user: { properties: decline.endUserProperties },
	};
}

function listDeclines(call: ApiCall, endUserId?: number) {
	const listed = (decline: Decline) => endUserId === undefined || decline.endUserId === endUserId;
	return ok(
		listPage(
			call.account.declines,
			paramsOf(call.request.params),
			call.updatedIndex ? SURVEY_RECORD_LIST_RULES : CREATED_ONLY_LIST_RULES,
			call.tieOrder,
			listed,
		).map((decline) => declineView(call.account, decline)),
	);
}

/**
 * Stores a decline with the service's defaults and announces it; for the create endpoint, the seed
 * and tests that insert in bulk.
 */
export function addDecline(
	account: Account,
	store: FakeStore,
	fields: Pick<Decline, 'endUserId'> & Partial<Decline>,
): Decline {
	const decline: Decline = {
		...newRecordDefaults(store, fields.createdAt),
		ipAddress: null,
		originUrl: null,
		...fields,
	};
	storeRecord(account, account.declines, decline);
	account.announce({ name: 'decline_created', decline });
	return decline;
}

function create(call: ApiCall) {
	const user = endUserById(call, call.pathParams.endUserId);
	const params = paramsOf(call.request.params);
	const decline = addDecline(call.account, call.store, {
		ipAddress: params.string('ip_address') ?? null,
		originUrl: params.string('origin_url') ?? null,
		...fieldsOnCreate(call, params, user),
	});
	// The documented create body also carries the account's user_id (API-FACTS).
	return created({ ...declineView(call.account, decline), user_id: call.account.userId });
}

const declinesOf = (account: Account) => account.declines;

export const declineRoutes: Route[] = [
	route('GET', '/v1/declines', (call) => listDeclines(call)),
	// The spec's example path; its reference table says /v1/responses/<id>, which updates responses.
	route('PUT', '/v1/declines/:id', updateRecord(declinesOf)),
	route('GET', '/v1/end_users/:endUserId/declines', (call) =>
		listDeclines(call, endUserById(call, call.pathParams.endUserId).id),
	),
	route('POST', '/v1/end_users/:endUserId/declines', create),
	route('GET', '/v1/end_users/:endUserId/declines/:id', getRecord(declinesOf, declineView)),
	route('DELETE', '/v1/end_users/:endUserId/declines/:id', removeRecord(declinesOf)),
];
