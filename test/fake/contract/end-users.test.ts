import { addDecline, addResponse, createEndUser, DEFAULT_END_USER_SETTINGS } from '../index';
import {
	DAY,
	errorList,
	expectNotFound,
	idsOf,
	invalidParameter,
	NOT_FOUND_BODY,
	useFakeApi,
} from './setup';

/** 2023-11-14T22:13:20Z, i.e. 14:13:20 on the 14th at the default account offset of -08:00. */
const T = 1_700_000_000;

const READ_FIELDS = [
	'id',
	'created_at',
	'updated_at',
	'email',
	'last_surveyed',
	'external_created_at',
	'last_seen_at',
	'properties',
	'phone_number',
	'external_id',
	'last_response',
	'settings',
];
const WRITE_FIELDS = [
	'id',
	'email',
	'last_surveyed',
	'external_created_at',
	'created_at',
	'updated_at',
	'user_id',
	'properties',
];

// Long-lived tokens: these tests move the clock by days.
const { fake, api, restart } = useFakeApi({ options: { tokenLifetimeSeconds: 30 * DAY } });

const ada = () =>
	createEndUser(fake().account, fake().store, 'ada@example.com', {
		createdAt: T,
		updatedAt: T + 60,
		lastSurveyed: T - DAY,
		lastSeenAt: T - 3600,
		externalCreatedAt: 1_600_000_000,
		externalId: 'crm-1',
		phoneNumber: '+15550100',
		properties: { plan: 'pro' },
	});

describe('GET /v1/end_users', () => {
	it('lists end users in the read form, with exactly the read fields', async () => {
		const user = ada();
		const reply = await api().get('/v1/end_users');
		expect(reply.status).toBe(200);
		expect(reply.body).toEqual([
			{
				id: user.id,
				created_at: '2023-11-14 14:13:20 -0800',
				updated_at: '2023-11-14 14:14:20 -0800',
				email: 'ada@example.com',
				last_surveyed: '2023-11-13 14:13:20',
				external_created_at: 1_600_000_000,
				last_seen_at: '2023-11-14 13:13:20',
				properties: { plan: 'pro' },
				phone_number: '+15550100',
				external_id: 'crm-1',
				last_response: null,
				settings: DEFAULT_END_USER_SETTINGS,
			},
		]);
		expect(Object.keys(reply.body[0])).toEqual(READ_FIELDS);
	});

	it('filters by email into an array of one, or none', async () => {
		const user = ada();
		createEndUser(fake().account, fake().store, 'grace@example.com');
		const one = await api().get('/v1/end_users', 'email=ada%40example.com');
		expect(idsOf(one)).toEqual([user.id]);
		expect((await api().get('/v1/end_users', 'email=nobody%40example.com')).body).toEqual([]);
	});

	it('leaves out users who opted out unless surveys_disabled=true (its default is false)', async () => {
		const stays = createEndUser(fake().account, fake().store, 'stays@example.com');
		const optedOut = createEndUser(fake().account, fake().store, 'opted-out@example.com');
		optedOut.settings.surveys_disabled_by_end_user = true;
		const ids = async (query: string) => idsOf(await api().get('/v1/end_users', query));
		expect(await ids('')).toEqual([stays.id]);
		expect(await ids('surveys_disabled=false')).toEqual([stays.id]);
		expect(await ids('surveys_disabled=true')).toEqual([optedOut.id]);
		const [disabled] = (await api().get('/v1/end_users', 'surveys_disabled=true')).body;
		expect(disabled.settings.surveys_disabled_by_end_user).toBe(true);
		const bad = await api().get('/v1/end_users', 'surveys_disabled=maybe');
		expect([bad.status, bad.body]).toEqual([400, invalidParameter('surveys_disabled')]);
	});
});

describe('GET /v1/end_users/<id> and the lookups', () => {
	it('reads one by id, with its last response', async () => {
		const user = ada();
		addResponse(fake().account, fake().store, {
			endUserId: user.id,
			score: 3,
			createdAt: T - 50,
			text: 'older',
		});
		const latest = addResponse(fake().account, fake().store, {
			endUserId: user.id,
			score: 9,
			createdAt: T,
			text: 'Great',
			channel: 'email',
		});
		const reply = await api().get(`/v1/end_users/${user.id}`);
		expect(reply.status).toBe(200);
		expect(Object.keys(reply.body)).toEqual(READ_FIELDS);
		expect(reply.body).toMatchObject({
			id: user.id,
			email: 'ada@example.com',
			properties: { plan: 'pro' },
			settings: DEFAULT_END_USER_SETTINGS,
		});
		expect(reply.body.last_response).toEqual({
			id: String(latest.id),
			score: 9,
			text: 'Great',
			survey: { channel: 'email' },
		});
		// Answering moved last_surveyed to the response.
		expect(reply.body.last_surveyed).toBe('2023-11-14 14:13:20');
	});

	it('answers 404 with the exact error_list body for an unknown or non-numeric id', async () => {
		ada();
		for (const segment of ['999999', 'ada@example.com', 'crm-1']) {
			expectNotFound(await api().get(`/v1/end_users/${segment}`));
		}
	});

	it('reads one by email with lookup_by_email=true, encoded or not, including a + in the address', async () => {
		const user = ada();
		const plus = createEndUser(fake().account, fake().store, 'ada+nps@example.com');
		expect(
			(await api().get('/v1/end_users/ada%40example.com', 'lookup_by_email=true')).body.id,
		).toBe(user.id);
		expect((await api().get('/v1/end_users/ada@example.com', 'lookup_by_email=true')).body.id).toBe(
			user.id,
		);
		expect(
			(await api().get('/v1/end_users/ada+nps@example.com', 'lookup_by_email=true')).body.id,
		).toBe(plus.id);
		expect(
			(await api().get('/v1/end_users/ada%2Bnps%40example.com', 'lookup_by_email=true')).body.id,
		).toBe(plus.id);
		expectNotFound(await api().get('/v1/end_users/nobody%40example.com', 'lookup_by_email=true'));
		// false is the default: the segment is an id again.
		expect((await api().get(`/v1/end_users/${user.id}`, 'lookup_by_email=false')).body.id).toBe(
			user.id,
		);
		expect(
			(await api().get('/v1/end_users/ada%40example.com', 'lookup_by_email=false')).status,
		).toBe(404);
	});

	it('reads one by external id with lookup_by_external_id=true, or the misspelt lookup_by_eternal_id=true', async () => {
		const user = ada();
		const byExternal = await api().get('/v1/end_users/crm-1', 'lookup_by_external_id=true');
		expect([byExternal.status, byExternal.body.id]).toEqual([200, user.id]);
		expect(Object.keys(byExternal.body)).toEqual(READ_FIELDS);
		expect((await api().get('/v1/end_users/crm-1', 'lookup_by_eternal_id=true')).body.id).toBe(
			user.id,
		);
		expectNotFound(await api().get('/v1/end_users/crm-2', 'lookup_by_external_id=true'));
		expect((await api().get('/v1/end_users/crm-1', 'lookup_by_external_id=false')).status).toBe(
			404,
		);
		const bad = await api().get('/v1/end_users/crm-1', 'lookup_by_external_id=yes');
		expect([bad.status, bad.body]).toEqual([400, invalidParameter('lookup_by_external_id')]);
	});

	it('reads one by phone number: + required, digits only is an id, anything else 400', async () => {
		const user = ada();
		const encoded = await api().get('/v1/end_users/phone_number/%2B15550100');
		expect([encoded.status, encoded.body.id]).toEqual([200, user.id]);
		expect(Object.keys(encoded.body)).toEqual(READ_FIELDS);
		expect((await api().get('/v1/end_users/phone_number/+15550100')).body.id).toBe(user.id);
		expect((await api().get(`/v1/end_users/phone_number/${user.id}`)).body.id).toBe(user.id);
		// Digits only is an id lookup, not a phone lookup without the +.
		expect(await api().get('/v1/end_users/phone_number/15550100')).toMatchObject({
			status: 404,
			body: NOT_FOUND_BODY,
		});
		expect(await api().get('/v1/end_users/phone_number/%2B15559999')).toMatchObject({
			status: 404,
			body: NOT_FOUND_BODY,
		});
		for (const phone of ['555-0100', '1-555-0100', 'phone']) {
			const reply = await api().get(`/v1/end_users/phone_number/${phone}`);
			expect([reply.status, reply.body]).toEqual([
				400,
				errorList('invalid_parameter', 'phone_number must start with +', 'phone_number'),
			]);
		}
	});
});

describe('POST /v1/end_users', () => {
	it('creates with 201 and the create-variant body; properties[k] become a JSON string there and a hash on read', async () => {
		fake().clock.set(T);
		const reply = await api().post(
			'/v1/end_users',
			`email=new%40example.com&last_surveyed=${T - DAY}&external_created_at=1600000000&external_id=crm-9&properties%5Bplan%5D=pro&properties[seats]=5`,
		);
		expect(reply.status).toBe(201);
		const [user] = fake().account.endUsers.values();
		expect(reply.body).toEqual({
			id: user.id,
			email: 'new@example.com',
			last_surveyed: '2023-11-13T14:13:20.000-08:00',
			external_created_at: 1_600_000_000,
			created_at: '2023-11-14T14:13:20.000-08:00',
			updated_at: '2023-11-14T14:13:20.000-08:00',
			user_id: fake().account.userId,
			properties: '{"plan":"pro","seats":"5"}',
		});
		expect(Object.keys(reply.body)).toEqual(WRITE_FIELDS);
		expect(user).toMatchObject({
			createdAt: T,
			externalId: 'crm-9',
			properties: { plan: 'pro', seats: '5' },
		});

		const read = await api().get(`/v1/end_users/${user.id}`);
		expect(read.body).toMatchObject({
			created_at: '2023-11-14 14:13:20 -0800',
			last_surveyed: '2023-11-13 14:13:20',
			external_id: 'crm-9',
			properties: { plan: 'pro', seats: '5' },
			settings: DEFAULT_END_USER_SETTINGS,
		});
	});

	it('creates with only an email: nulls, and an empty properties string', async () => {
		const reply = await api().post('/v1/end_users', 'email=bare%40example.com');
		expect(reply.status).toBe(201);
		expect(reply.body).toMatchObject({
			email: 'bare@example.com',
			last_surveyed: null,
			external_created_at: null,
			properties: '{}',
		});
	});

	it.each([
		['no email', 'external_id=x', errorList('missing_parameter', 'email is required', 'email')],
		['an empty email', 'email=', errorList('missing_parameter', 'email is required', 'email')],
		[
			'a malformed email',
			'email=not-an-email',
			errorList('invalid_parameter', 'email is invalid', 'email'),
		],
		[
			'a non-integer last_surveyed',
			'email=a%40example.com&last_surveyed=yesterday',
			invalidParameter('last_surveyed'),
		],
		[
			'a non-integer external_created_at',
			'email=a%40example.com&external_created_at=1.5',
			invalidParameter('external_created_at'),
		],
		[
			'a nested property',
			'email=a%40example.com&properties[plan][x]=1',
			invalidParameter('properties[plan]'),
		],
	])('answers 400 naming the field for %s, and creates nothing', async (_, form, body) => {
		const reply = await api().post('/v1/end_users', form);
		expect([reply.status, reply.body]).toEqual([400, body]);
		expect(fake().account.endUsers.size).toBe(0);
	});

	it('answers 400 for a duplicate email or external id', async () => {
		ada();
		const email = await api().post('/v1/end_users', 'email=ada%40example.com');
		expect([email.status, email.body]).toEqual([
			400,
			errorList('invalid_parameter', 'email has already been taken', 'email'),
		]);
		const external = await api().post(
			'/v1/end_users',
			'email=other%40example.com&external_id=crm-1',
		);
		expect([external.status, external.body]).toEqual([
			400,
			errorList('invalid_parameter', 'external_id has already been taken', 'external_id'),
		]);
		expect(fake().account.endUsers.size).toBe(1);
	});
});

describe('PUT /v1/end_users/<id>', () => {
	it('merges properties, changes given fields only, and answers the create-variant body', async () => {
		const user = ada();
		fake().clock.set(T + DAY);
		const reply = await api().put(
			`/v1/end_users/${user.id}`,
			'properties[plan]=enterprise&properties%5Bregion%5D=eu&external_id=crm-77',
		);
		expect(reply.status).toBe(200);
		expect(reply.body).toEqual({
			id: user.id,
			email: 'ada@example.com',
			last_surveyed: '2023-11-13T14:13:20.000-08:00',
			external_created_at: 1_600_000_000,
			created_at: '2023-11-14T14:13:20.000-08:00',
			updated_at: '2023-11-15T14:13:20.000-08:00',
			user_id: fake().account.userId,
			properties: '{"plan":"enterprise","region":"eu"}',
		});
		const read = await api().get(`/v1/end_users/${user.id}`);
		expect(read.body).toMatchObject({
			properties: { plan: 'enterprise', region: 'eu' },
			external_id: 'crm-77',
			phone_number: '+15550100',
		});
	});

	it('keeps properties not named in the update', async () => {
		const user = createEndUser(fake().account, fake().store, 'keep@example.com', {
			properties: { plan: 'pro', seats: '5' },
		});
		const reply = await api().put(
			`/v1/end_users/${user.id}`,
			'properties[plan]=team&properties[region]=eu',
		);
		expect(JSON.parse(reply.body.properties)).toEqual({ plan: 'team', seats: '5', region: 'eu' });
		expect(user.properties).toEqual({ plan: 'team', seats: '5', region: 'eu' });
	});

	it('changes the email, refuses one another user has, and accepts its own', async () => {
		const user = ada();
		createEndUser(fake().account, fake().store, 'grace@example.com');
		expect((await api().put(`/v1/end_users/${user.id}`, 'email=ada%40example.com')).status).toBe(
			200,
		);
		const taken = await api().put(`/v1/end_users/${user.id}`, 'email=grace%40example.com');
		expect([taken.status, taken.body]).toEqual([
			400,
			errorList('invalid_parameter', 'email has already been taken', 'email'),
		]);
		const renamed = await api().put(`/v1/end_users/${user.id}`, 'email=lovelace%40example.com');
		expect([renamed.status, renamed.body.email]).toEqual([200, 'lovelace@example.com']);
		expect((await api().get('/v1/end_users', 'email=lovelace%40example.com')).body).toHaveLength(1);
	});

	it('answers 404 for an unknown end user', async () => {
		expectNotFound(await api().put('/v1/end_users/424242', 'properties[plan]=pro'));
	});
});

describe('DELETE /v1/end_users/<id or email>', () => {
	const utc = (year: number, month: number, day: number, hour: number, minute = 0, second = 0) =>
		Date.UTC(year, month - 1, day, hour, minute, second) / 1000;

	it('marks by id: answers the create-variant body; readable until 07:00 UTC the next day, gone after', async () => {
		const user = ada();
		fake().clock.set(utc(2024, 1, 1, 23));
		const reply = await api().delete(`/v1/end_users/${user.id}`);
		expect(reply.status).toBe(200);
		expect(Object.keys(reply.body)).toEqual(WRITE_FIELDS);
		expect(reply.body).toMatchObject({
			id: user.id,
			email: 'ada@example.com',
			user_id: fake().account.userId,
			properties: '{"plan":"pro"}',
		});

		fake().clock.set(utc(2024, 1, 2, 6, 59, 58));
		expect((await api().get(`/v1/end_users/${user.id}`)).status).toBe(200);
		expect((await api().get('/v1/end_users')).body).toHaveLength(1);

		fake().clock.set(utc(2024, 1, 2, 7));
		expect(await api().get(`/v1/end_users/${user.id}`)).toMatchObject({
			status: 404,
			body: NOT_FOUND_BODY,
		});
		expect((await api().get('/v1/end_users')).body).toEqual([]);
		expect(await api().delete(`/v1/end_users/${user.id}`)).toMatchObject({
			status: 404,
			body: NOT_FOUND_BODY,
		});
		expect(fake().account.endUsers.has(user.id)).toBe(false);
	});

	it('marks by email; a mark made before 07:00 UTC waits for the run of the next day', async () => {
		const user = ada();
		fake().clock.set(utc(2024, 3, 10, 3));
		const reply = await api().delete('/v1/end_users/ada%40example.com');
		expect([reply.status, reply.body.id]).toEqual([200, user.id]);
		fake().clock.set(utc(2024, 3, 10, 8));
		expect((await api().get('/v1/end_users/ada@example.com', 'lookup_by_email=true')).status).toBe(
			200,
		);
		fake().clock.set(utc(2024, 3, 11, 7));
		expect((await api().get('/v1/end_users/ada@example.com', 'lookup_by_email=true')).status).toBe(
			404,
		);
	});

	it('removes the user\u2019s responses and declines in the deletion run, whichever endpoint is asked next', async () => {
		const user = ada();
		const other = createEndUser(fake().account, fake().store, 'other@example.com');
		addResponse(fake().account, fake().store, { endUserId: user.id, score: 10 });
		addDecline(fake().account, fake().store, { endUserId: user.id });
		const kept = addResponse(fake().account, fake().store, { endUserId: other.id, score: 5 });
		fake().clock.set(utc(2024, 1, 1, 12));
		await api().delete(`/v1/end_users/${user.id}`);
		const responseIds = async () => idsOf(await api().get('/v1/responses'));
		expect(await responseIds()).toHaveLength(2);
		expect((await api().get('/v1/declines')).body).toHaveLength(1);
		fake().clock.set(utc(2024, 1, 2, 7));
		expect(await responseIds()).toEqual([kept.id]);
		expect((await api().get('/v1/declines')).body).toEqual([]);
		expect(fake().account.endUsers.has(user.id)).toBe(false);
	});

	it('keeps the first mark when deleted twice', async () => {
		const user = ada();
		fake().clock.set(utc(2024, 1, 1, 23));
		await api().delete(`/v1/end_users/${user.id}`);
		fake().clock.set(utc(2024, 1, 2, 6));
		expect((await api().delete(`/v1/end_users/${user.id}`)).status).toBe(200);
		fake().clock.set(utc(2024, 1, 2, 7));
		expect((await api().get(`/v1/end_users/${user.id}`)).status).toBe(404);
	});

	it('answers 404 for an unknown id or email', async () => {
		ada();
		expect(await api().delete('/v1/end_users/999999')).toMatchObject({
			status: 404,
			body: NOT_FOUND_BODY,
		});
		expect(await api().delete('/v1/end_users/nobody%40example.com')).toMatchObject({
			status: 404,
			body: NOT_FOUND_BODY,
		});
		expect([...fake().account.endUsers.values()].map((user) => user.markedForDeletionAt)).toEqual([
			null,
		]);
	});
});

describe('GET /v1/end_users/<id>/export', () => {
	it('answers 202 with an empty JSON body and records the export', async () => {
		const user = ada();
		fake().clock.set(T);
		const reply = await api().get(`/v1/end_users/${user.id}/export`);
		expect([reply.status, reply.text]).toEqual([202, '{}']);
		expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
		expect(fake().account.exports).toEqual([{ endUserId: user.id, requestedAt: T }]);
	});

	it('answers 404 for an unknown end user and records nothing', async () => {
		expect(await api().get('/v1/end_users/31337/export')).toMatchObject({
			status: 404,
			body: NOT_FOUND_BODY,
		});
		expect(fake().account.exports).toEqual([]);
	});
});

describe('datetime forms follow the account offset', () => {
	it('shows a +05:30 account its own local times in each form', async () => {
		await restart({ utcOffsetMinutes: 330 });
		fake().clock.set(T);
		const created = await api().post('/v1/end_users', `email=ist%40example.com&last_surveyed=${T}`);
		expect(created.body).toMatchObject({
			created_at: '2023-11-15T03:43:20.000+05:30',
			last_surveyed: '2023-11-15T03:43:20.000+05:30',
		});
		const read = await api().get(`/v1/end_users/${created.body.id}`);
		expect(read.body).toMatchObject({
			created_at: '2023-11-15 03:43:20 +0530',
			last_surveyed: '2023-11-15 03:43:20',
		});
	});
});
