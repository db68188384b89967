import { ApiError, notFound } from '../errors';
import { noContent, ok, type ApiCall } from '../http';
import type { ListRules } from '../listing';
import { paramsOf, type Params } from '../params';
import type { Account, EndUser, FakeStore, Properties, SurveyChannel, SurveyEvent } from '../store';

/**
 * What responses and declines have in common: an owner, times, a survey and end-user properties.
 */
export interface SurveyRecord {
	id: number;
	endUserId: number;
	surveyId: number;
	channel: SurveyChannel;
	createdAt: number;
	updatedAt: number;
	endUserProperties: Properties;
}

/** The service's defaults for a new record: new ids, a web survey, no end-user properties. */
export function newRecordDefaults(store: FakeStore, createdAt = store.clock.now()) {
	return {
		id: store.nextId(),
		surveyId: store.nextId(),
		channel: 'web' as const,
		createdAt,
		// Stored at its created_at unless told otherwise: a test's record as the service stamps it.
		updatedAt: createdAt,
		endUserProperties: {},
	};
}

export const SURVEY_RECORD_LIST_RULES: ListRules<SurveyRecord> = {
	timeFilters: { created: (record) => record.createdAt, updated: (record) => record.updatedAt },
	sortKeys: { created_at: (record) => record.createdAt, updated_at: (record) => record.updatedAt },
	defaultSortKey: 'created_at',
	defaultSortOrder: 'desc',
	sortKeyAccepted: true,
	id: (record) => record.id,
};

/**
 * Lists that take page, per_page, created and sort_order only, and ignore `updated` and sort_key:
 * the category lists, and every response and decline list of an older variant of the API.
 */
export const CREATED_ONLY_LIST_RULES: ListRules<SurveyRecord> = {
	...SURVEY_RECORD_LIST_RULES,
	timeFilters: { created: (record) => record.createdAt },
	sortKeyAccepted: false,
};

/**
 * `end_user[properties][k]` on create: becomes the user's current properties and is kept with the
 * record.
 */
function propertiesOnCreate(params: Params, user: EndUser, now: number): Properties {
	const given = params.nested('end_user')?.stringHash('properties');
	if (!given) return { ...user.properties };
	user.properties = { ...user.properties, ...given };
	user.updatedAt = now;
	return { ...user.properties };
}

/**
 * The fields POST /v1/end_users/:endUserId/<records> sets on any record; read after the record's
 * own parameters, as it takes `end_user[properties]` into the end user.
 */
export function fieldsOnCreate(call: ApiCall, params: Params, user: EndUser) {
	const now = call.store.clock.now();
	return {
		endUserId: user.id,
		// A created_at given sets that time only: updated_at is when the service stored it.
		createdAt: params.integer('created_at', { min: 0 }) ?? now,
		updatedAt: now,
		endUserProperties: propertiesOnCreate(params, user, now),
	};
}

/**
 * `end_user[properties][k]` on update: a historical edit of this record only, 423 unless the
 * account allows it.
 */
function historicalPropertiesEdit(call: ApiCall, params: Params): Properties | undefined {
	const given = params.nested('end_user')?.stringHash('properties');
	if (!given) return undefined;
	if (!call.account.historicalEditsEnabled) {
		throw new ApiError(
			423,
			'locked',
			'Updating historical end user properties is not enabled for this account',
			'end_user[properties]',
		);
	}
	return given;
}

export function recordOf<T extends SurveyRecord>(
	records: Map<number, T>,
	idText: string,
	endUserIdText?: string,
): T {
	const record = /^\d+$/.test(idText) ? records.get(Number(idText)) : undefined;
	if (!record || (endUserIdText !== undefined && String(record.endUserId) !== endUserIdText))
		throw notFound();
	return record;
}

/** Stores a record and moves its end user's last_surveyed up to it. */
export function storeRecord<T extends SurveyRecord>(
	account: Account,
	records: Map<number, T>,
	record: T,
): T {
	records.set(record.id, record);
	const user = account.endUsers.get(record.endUserId);
	if (user) user.lastSurveyed = Math.max(user.lastSurveyed ?? 0, record.createdAt);
	return record;
}

/** GET /v1/end_users/:endUserId/<records>/:id: the record as `viewOf` shows it. */
export const getRecord =
	<T extends SurveyRecord>(
		recordsOf: (account: Account) => Map<number, T>,
		viewOf: (account: Account, record: T) => unknown,
	) =>
	(call: ApiCall) =>
		ok(
			viewOf(
				call.account,
				recordOf(recordsOf(call.account), call.pathParams.id, call.pathParams.endUserId),
			),
		);

/** DELETE /v1/end_users/:endUserId/<records>/:id: 204. */
export const removeRecord =
	(recordsOf: (account: Account) => Map<number, SurveyRecord>) => (call: ApiCall) => {
		const records = recordsOf(call.account);
		records.delete(recordOf(records, call.pathParams.id, call.pathParams.endUserId).id);
		return noContent();
	};

/**
 * PUT /v1/<records>/:id: the record's own fields (`changesOf` reads them) and
 * `end_user[properties]` as a historical edit, all checked before any is written; updated_at moves
 * to now, and the service announces `updatedEvent` if the record has one (a response does, a
 * decline does not). 204.
 */
export const updateRecord =
	<T extends SurveyRecord>(
		recordsOf: (account: Account) => Map<number, T>,
		changesOf: (params: Params) => Partial<T> = () => ({}),
		updatedEvent?: (record: T) => SurveyEvent,
	) =>
	(call: ApiCall) => {
		const record = recordOf(recordsOf(call.account), call.pathParams.id);
		const params = paramsOf(call.request.params);
		const changes = changesOf(params);
		const properties = historicalPropertiesEdit(call, params);
		Object.assign(record, changes, properties ? { endUserProperties: properties } : {}, {
			updatedAt: call.store.clock.now(),
		});
		if (updatedEvent) call.account.announce(updatedEvent(record));
		return noContent();
	};
