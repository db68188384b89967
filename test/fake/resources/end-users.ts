import { ApiError, notFound } from '../errors';
import { formatDatetime } from '../datetime';
import { created, ok, route, type ApiCall, type Route } from '../http';
import { listPage, type ListRules } from '../listing';
import { paramsOf, type Params } from '../params';
import type { Account, EndUser, FakeStore } from '../store';
import { latestResponse, responseSummary } from './responses';
import { DEFAULT_END_USER_SETTINGS, settingsSummary } from './end-user-settings';

const DAY = 86400;
const DELETION_HOUR_UTC = 7;

/**
 * The read form (list, get): datetimes with an offset, last_surveyed and last_seen_at without one.
 */
export function endUserView(account: Account, user: EndUser) {
	const last = latestResponse(account, user.id);
	return {
		id: user.id,
		created_at: formatDatetime(user.createdAt, account, 'spaceOffset'),
		updated_at: formatDatetime(user.updatedAt, account, 'spaceOffset'),
		email: user.email,
		last_surveyed: formatDatetime(user.lastSurveyed, account, 'naive'),
		external_created_at: user.externalCreatedAt,
		last_seen_at: formatDatetime(user.lastSeenAt, account, 'naive'),
		properties: user.properties,
		phone_number: user.phoneNumber,
		external_id: user.externalId,
		last_response: last ? responseSummary(last) : null,
		settings: settingsSummary(user.settings),
	};
}

/** The create/update/delete form: ISO 8601 with milliseconds, properties as a serialized string. */
function endUserWriteView(account: Account, user: EndUser) {
	return {
		id: user.id,
		email: user.email,
		last_surveyed: formatDatetime(user.lastSurveyed, account, 'isoMillis'),
		external_created_at: user.externalCreatedAt,
		created_at: formatDatetime(user.createdAt, account, 'isoMillis'),
		updated_at: formatDatetime(user.updatedAt, account, 'isoMillis'),
		user_id: account.userId,
		properties: JSON.stringify(user.properties),
	};
}

/** Users marked for deletion disappear at the first 07:00 UTC of a later day. */
function isGone(user: EndUser, now: number): boolean {
	if (user.markedForDeletionAt === null) return false;
	const markedDay = Math.floor(user.markedForDeletionAt / DAY) * DAY;
	return now >= markedDay + DAY + DELETION_HOUR_UTC * 3600;
}

/**
 * The service's deletion run, due whenever time has passed: removes gone users with their responses
 * and declines.
 */
export function runDeletions(account: Account, now: number): void {
	for (const user of account.endUsers.values()) {
		if (!isGone(user, now)) continue;
		account.endUsers.delete(user.id);
		for (const records of [account.responses, account.declines]) {
			for (const record of records.values())
				if (record.endUserId === user.id) records.delete(record.id);
		}
	}
}

export function liveEndUsers(account: Account, store: FakeStore): EndUser[] {
	runDeletions(account, store.clock.now());
	return [...account.endUsers.values()];
}

export function findEndUser(
	account: Account,
	store: FakeStore,
	predicate: (user: EndUser) => boolean,
): EndUser | undefined {
	return liveEndUsers(account, store).find(predicate);
}

export function endUserById(call: ApiCall, idText: string): EndUser {
	if (!/^\d+$/.test(idText)) throw notFound();
	const user = findEndUser(
		call.account,
		call.store,
		(candidate) => candidate.id === Number(idText),
	);
	if (!user) throw notFound();
	return user;
}

/**
 * Creates an end user with default settings (also used by email surveys, which create users on the
 * fly).
 */
export function createEndUser(
	account: Account,
	store: FakeStore,
	email: string,
	fields: Partial<EndUser> = {},
): EndUser {
	const now = store.clock.now();
	const user: EndUser = {
		id: store.nextId(),
		email,
		createdAt: now,
		updatedAt: now,
		lastSurveyed: null,
		externalCreatedAt: null,
		lastSeenAt: null,
		properties: {},
		phoneNumber: null,
		externalId: null,
		markedForDeletionAt: null,
		settings: { id: store.nextId(), createdAt: now, updatedAt: now, ...DEFAULT_END_USER_SETTINGS },
		...fields,
	};
	account.endUsers.set(user.id, user);
	return user;
}

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The writable fields of POST/PUT /v1/end_users. */
function writableFields(params: Params, call: ApiCall, current?: EndUser): Partial<EndUser> {
	const fields: Partial<EndUser> = {};
	const email = params.string('email');
	if (email !== undefined) {
		if (!EMAIL_SHAPE.test(email))
			throw new ApiError(400, 'invalid_parameter', 'email is invalid', 'email');
		const taken = findEndUser(
			call.account,
			call.store,
			(user) => user.email === email && user.id !== current?.id,
		);
		if (taken)
			throw new ApiError(400, 'invalid_parameter', 'email has already been taken', 'email');
		fields.email = email;
	}
	const lastSurveyed = params.integer('last_surveyed', { min: 0 });
	if (lastSurveyed !== undefined) fields.lastSurveyed = lastSurveyed;
	const externalCreatedAt = params.integer('external_created_at', { min: 0 });
	if (externalCreatedAt !== undefined) fields.externalCreatedAt = externalCreatedAt;
	const externalId = params.string('external_id');
	if (externalId !== undefined) {
		const taken = findEndUser(
			call.account,
			call.store,
			(user) => user.externalId === externalId && user.id !== current?.id,
		);
		if (taken)
			throw new ApiError(
				400,
				'invalid_parameter',
				'external_id has already been taken',
				'external_id',
			);
		fields.externalId = externalId;
	}
	const phoneNumber = params.string('phone_number');
	if (phoneNumber !== undefined) fields.phoneNumber = phoneNumber;
	const properties = params.stringHash('properties');
	if (properties) fields.properties = { ...(current?.properties ?? {}), ...properties };
	return fields;
}

const LIST_RULES: ListRules<EndUser> = {
	timeFilters: { created: (user) => user.createdAt, updated: (user) => user.updatedAt },
	sortKeys: {
		email: (user) => user.email,
		created_at: (user) => user.createdAt,
		updated_at: (user) => user.updatedAt,
	},
	defaultSortKey: 'email',
	defaultSortOrder: 'asc',
	sortKeyAccepted: true,
	id: (user) => user.id,
};

function list(call: ApiCall) {
	const params = paramsOf(call.request.params);
	const email = params.string('email');
	// The spec gives surveys_disabled a default of false: opted-out users are listed only when asked
	// for.
	const surveysDisabled = params.boolean('surveys_disabled') ?? false;
	const users = liveEndUsers(call.account, call.store).filter(
		(user) =>
			(email === undefined || user.email === email) &&
			Boolean(user.settings.surveys_disabled_by_end_user) === surveysDisabled,
	);
	return ok(
		listPage(users, params, LIST_RULES, call.tieOrder).map((user) =>
			endUserView(call.account, user),
		),
	);
}

/** GET /v1/end_users/<segment>: an id, or an email / external id when the lookup flag says so. */
function get(call: ApiCall) {
	const params = paramsOf(call.request.params);
	const segment = call.pathParams.id;
	let user: EndUser | undefined;
	if (params.boolean('lookup_by_email')) {
		user = findEndUser(call.account, call.store, (candidate) => candidate.email === segment);
	} else if (params.boolean('lookup_by_external_id') ?? params.boolean('lookup_by_eternal_id')) {
		user = findEndUser(call.account, call.store, (candidate) => candidate.externalId === segment);
	} else {
		user = endUserById(call, segment);
	}
	if (!user) throw notFound();
	return ok(endUserView(call.account, user));
}

/** GET /v1/end_users/phone_number/<phone>: must start with '+'; digits only is read as an id. */
function getByPhone(call: ApiCall) {
	const phone = call.pathParams.phone;
	if (/^\d+$/.test(phone)) return ok(endUserView(call.account, endUserById(call, phone)));
	if (!phone.startsWith('+'))
		throw new ApiError(400, 'invalid_parameter', 'phone_number must start with +', 'phone_number');
	const user = findEndUser(
		call.account,
		call.store,
		(candidate) => candidate.phoneNumber === phone,
	);
	if (!user) throw notFound();
	return ok(endUserView(call.account, user));
}

function create(call: ApiCall) {
	const params = paramsOf(call.request.params);
	const email = params.requiredString('email');
	const fields = writableFields(params, call);
	const user = createEndUser(call.account, call.store, email, fields);
	return created(endUserWriteView(call.account, user));
}

function update(call: ApiCall) {
	const user = endUserById(call, call.pathParams.id);
	Object.assign(user, writableFields(paramsOf(call.request.params), call, user), {
		updatedAt: call.store.clock.now(),
	});
	return ok(endUserWriteView(call.account, user));
}

/** DELETE marks the user; the deletion run removes it later. The path holds an id or an email. */
function markForDeletion(call: ApiCall) {
	const segment = call.pathParams.id;
	const user = /^\d+$/.test(segment)
		? endUserById(call, segment)
		: findEndUser(call.account, call.store, (candidate) => candidate.email === segment);
	if (!user) throw notFound();
	user.markedForDeletionAt ??= call.store.clock.now();
	return ok(endUserWriteView(call.account, user));
}

function scheduleExport(call: ApiCall) {
	const user = endUserById(call, call.pathParams.id);
	call.account.exports.push({ endUserId: user.id, requestedAt: call.store.clock.now() });
	return { status: 202, body: {} };
}

export const endUserRoutes: Route[] = [
	route('GET', '/v1/end_users', list),
	route('POST', '/v1/end_users', create),
	route('GET', '/v1/end_users/phone_number/:phone', getByPhone),
	route('GET', '/v1/end_users/:id/export', scheduleExport),
	route('GET', '/v1/end_users/:id', get),
	route('PUT', '/v1/end_users/:id', update),
	route('DELETE', '/v1/end_users/:id', markForDeletion),
];
