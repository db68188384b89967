import { ApiError, notFound } from '../errors';
import { noContent, type ApiCall } from '../http';
import type { ListRules } from '../listing';
import type { Params } from '../params';
import type { Account, EndUser, Properties } from '../store';

/** What responses and declines have in common: an owner, times, a survey and end-user properties. */
export interface SurveyRecord {
	id: number;
	endUserId: number;
	createdAt: number;
	updatedAt: number;
	endUserProperties: Properties;
}

export const SURVEY_RECORD_LIST_RULES: ListRules<SurveyRecord> = {
	timeFilters: { created: (record) => record.createdAt, updated: (record) => record.updatedAt },
	sortKeys: { created_at: (record) => record.createdAt, updated_at: (record) => record.updatedAt },
	defaultSortKey: 'created_at',
	defaultSortOrder: 'desc',
	sortKeyAccepted: true,
	id: (record) => record.id,
};

/** `end_user[properties][k]` on create: becomes the user's current properties and is kept with the record. */
export function propertiesOnCreate(params: Params, user: EndUser, now: number): Properties {
	const given = params.nested('end_user')?.stringHash('properties');
	if (!given) return { ...user.properties };
	user.properties = { ...user.properties, ...given };
	user.updatedAt = now;
	return { ...user.properties };
}

/** `end_user[properties][k]` on update: a historical edit of this record only, 423 unless the account allows it. */
export function historicalPropertiesEdit(call: ApiCall, params: Params): Properties | undefined {
	const given = params.nested('end_user')?.stringHash('properties');
	if (!given) return undefined;
	if (!call.account.historicalEditsEnabled) {
		throw new ApiError(423, 'locked', 'Updating historical end user properties is not enabled for this account', 'end_user[properties]');
	}
	return given;
}

export function recordOf<T extends SurveyRecord>(records: Map<number, T>, idText: string, endUserIdText?: string): T {
	const record = /^\d+$/.test(idText) ? records.get(Number(idText)) : undefined;
	if (!record || (endUserIdText !== undefined && String(record.endUserId) !== endUserIdText)) throw notFound();
	return record;
}

/** Stores a record and moves its end user's last_surveyed up to it. */
export function storeRecord<T extends SurveyRecord>(account: Account, records: Map<number, T>, record: T): T {
	records.set(record.id, record);
	const user = account.endUsers.get(record.endUserId);
	if (user) user.lastSurveyed = Math.max(user.lastSurveyed ?? 0, record.createdAt);
	return record;
}

/** DELETE /v1/end_users/:endUserId/<records>/:id: 204. */
export const removeRecord =
	(recordsOf: (account: Account) => Map<number, SurveyRecord>) =>
	(call: ApiCall) => {
		const records = recordsOf(call.account);
		records.delete(recordOf(records, call.pathParams.id, call.pathParams.endUserId).id);
		return noContent();
	};
