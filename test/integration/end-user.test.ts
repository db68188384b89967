import type { INodeParameters } from 'n8n-workflow';

import {
	createEndUser,
	DEFAULT_END_USER_SETTINGS,
	startFakeWootric,
	type FakeWootric,
} from '../fake';
import type { EndUser } from '../fake/store';
import {
	listReading,
	notFoundItem,
	onlyRequest as onlyRequestOf,
	requestsSeen,
	wootricRunner,
	VERSION_BEFORE_LOCATORS,
} from '../support/wootric';

/** 2023-11-14T22:13:20Z: 14:13:20 on the 14th at the fake account's offset of -08:00. */
const T = 1_700_000_000;
const DAY = 86400;
const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/;
/** The fake's clock runs on from T: "now" is T plus the few seconds a test takes. */
const NOW_ISO_MILLIS = /^2023-11-14T14:13:[2-5]\d\.000-08:00$/;
const ISO_MILLIS_OFFSET = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000-08:00$/;

/**
 * End User operations through n8n's engine against the fake API: the exact requests, then the
 * items.
 */
describe('End User', () => {
	let fake: FakeWootric;

	beforeEach(async () => {
		// Long-lived tokens: some tests move the clock by days.
		fake = await startFakeWootric({ tokenLifetimeSeconds: 30 * DAY });
		fake.clock.set(T);
	});
	afterEach(async () => await fake.close());

	const run = wootricRunner(() => fake, { resource: 'endUser' }, VERSION_BEFORE_LOCATORS);

	const ada = (fields: Partial<EndUser> = {}) =>
		createEndUser(fake.account, fake.store, 'ada@example.com', {
			createdAt: T - DAY,
			updatedAt: T - 3600,
			externalId: 'crm-1',
			phoneNumber: '+15550100',
			properties: { plan: 'pro' },
			...fields,
		});

	/** The read form the fake answers for ada() (get and list). */
	const adaRead = (user: EndUser) => ({
		id: user.id,
		created_at: '2023-11-13 14:13:20 -0800',
		updated_at: '2023-11-14 13:13:20 -0800',
		email: user.email,
		last_surveyed: null,
		external_created_at: null,
		last_seen_at: null,
		properties: { plan: 'pro' },
		phone_number: '+15550100',
		external_id: user.externalId,
		last_response: null,
		settings: DEFAULT_END_USER_SETTINGS,
	});

	/** The only data request of a run, with what the fake received. */
	const onlyRequest = () => onlyRequestOf(fake);

	describe('Create', () => {
		it('POSTs the email, the external ID, dates as UNIX seconds and properties[k]=v; outputs properties as an object', async () => {
			const result = await run({
				operation: 'create',
				email: 'new@example.com',
				additionalFields: {
					externalId: 'crm-9',
					lastSurveyed: '2023-11-13T22:13:20Z',
					externalCreatedAt: 1_600_000_000,
				},
				properties: {
					property: [
						{ name: 'plan', value: 'pro' },
						{ name: 'seats', value: '5' },
					],
				},
			});

			expect(result.error).toBeUndefined();
			expect(onlyRequest()).toMatchObject({
				method: 'POST',
				path: '/v1/end_users',
				rawQuery: '',
				rawBody: `email=new%40example.com&external_id=crm-9&last_surveyed=${T - DAY}&external_created_at=1600000000&properties[plan]=pro&properties[seats]=5`,
				status: 201,
			});
			const [user] = fake.account.endUsers.values();
			expect(result.items).toEqual([
				{
					json: {
						id: user.id,
						email: 'new@example.com',
						last_surveyed: '2023-11-13T14:13:20.000-08:00',
						external_created_at: 1_600_000_000,
						created_at: expect.stringMatching(ISO_MILLIS_OFFSET),
						updated_at: expect.stringMatching(ISO_MILLIS_OFFSET),
						user_id: fake.account.userId,
						properties: { plan: 'pro', seats: '5' },
					},
					pairedItem: { item: 0 },
				},
			]);
			expect(user).toMatchObject({
				externalId: 'crm-9',
				lastSurveyed: T - DAY,
				properties: { plan: 'pro', seats: '5' },
			});
		});

		it('takes properties as JSON, sends only the email otherwise, and simplifies', async () => {
			const result = await run({
				operation: 'create',
				email: ' grace@example.com ',
				propertiesInput: 'json',
				propertiesJson: '{"plan": "team", "seats": 3, "trial": false}',
				options: { simplify: true },
			});

			expect(result.error).toBeUndefined();
			expect(onlyRequest().rawBody).toBe(
				'email=grace%40example.com&properties[plan]=team&properties[seats]=3&properties[trial]=false',
			);
			expect(result.items[0].json).toMatchObject({
				email: 'grace@example.com',
				created_at: expect.stringMatching(ISO_UTC),
				updated_at: expect.stringMatching(ISO_UTC),
				properties: { plan: 'team', seats: '3', trial: 'false' },
			});
		});

		it('reports the service’s refusal of a taken email', async () => {
			ada();

			const result = await run({ operation: 'create', email: 'ada@example.com' });

			expect(result.error).toMatchObject({
				message: 'Wootric rejected POST /v1/end_users as a bad request',
				description: 'Wootric says: email has already been taken.',
			});
		});
	});

	describe('Update', () => {
		it('PUTs only the fields given; properties are merged by Wootric', async () => {
			const user = ada();

			const result = await run({
				operation: 'update',
				endUserId: user.id,
				updateFields: { email: 'lovelace@example.com', externalCreatedAt: '2020-09-13T12:26:40Z' },
				properties: { property: [{ name: 'region', value: 'eu' }] },
			});

			expect(result.error).toBeUndefined();
			expect(onlyRequest()).toMatchObject({
				method: 'PUT',
				path: `/v1/end_users/${user.id}`,
				rawQuery: '',
				rawBody:
					'email=lovelace%40example.com&external_created_at=1600000000&properties[region]=eu',
				status: 200,
			});
			expect(result.items).toEqual([
				{
					json: {
						id: user.id,
						email: 'lovelace@example.com',
						last_surveyed: null,
						external_created_at: 1_600_000_000,
						created_at: '2023-11-13T14:13:20.000-08:00',
						updated_at: expect.stringMatching(NOW_ISO_MILLIS),
						user_id: fake.account.userId,
						properties: { plan: 'pro', region: 'eu' },
					},
					pairedItem: { item: 0 },
				},
			]);
		});

		it('names the end user on a 404', async () => {
			const result = await run({
				operation: 'update',
				endUserId: 424242,
				updateFields: { externalId: 'crm-2' },
			});

			expect(result.error).toMatchObject({
				message: 'The end user 424242 was not found in Wootric',
				description: 'Wootric says: The record could not be found.',
			});
			expect(onlyRequest()).toMatchObject({
				method: 'PUT',
				path: '/v1/end_users/424242',
				rawBody: 'external_id=crm-2',
				status: 404,
			});
		});
	});

	describe('Delete', () => {
		it('DELETEs by ID and outputs the marked record', async () => {
			const user = ada();

			const result = await run({ operation: 'delete', lookUpBy: 'id', endUserId: user.id });

			expect(result.error).toBeUndefined();
			expect(onlyRequest()).toMatchObject({
				method: 'DELETE',
				path: `/v1/end_users/${user.id}`,
				rawQuery: '',
				rawBody: '',
				status: 200,
			});
			expect(result.items).toEqual([
				{
					json: {
						id: user.id,
						email: 'ada@example.com',
						last_surveyed: null,
						external_created_at: null,
						created_at: '2023-11-13T14:13:20.000-08:00',
						updated_at: '2023-11-14T13:13:20.000-08:00',
						user_id: fake.account.userId,
						properties: { plan: 'pro' },
					},
					pairedItem: { item: 0 },
				},
			]);
			expect(user.markedForDeletionAt! - T).toBeLessThan(30);
		});

		it('DELETEs by email, URL-encoded, and simplifies', async () => {
			const user = ada({ email: 'ada+nps@example.com' });

			const result = await run({
				operation: 'delete',
				lookUpBy: 'email',
				email: 'ada+nps@example.com',
				options: { simplify: true },
			});

			expect(result.error).toBeUndefined();
			expect(onlyRequest()).toMatchObject({
				method: 'DELETE',
				path: '/v1/end_users/ada%2Bnps%40example.com',
				rawQuery: '',
				rawBody: '',
				status: 200,
			});
			expect(result.items).toEqual([
				{
					json: expect.objectContaining({
						id: user.id,
						created_at: '2023-11-13T22:13:20.000Z',
						updated_at: '2023-11-14T21:13:20.000Z',
						properties: { plan: 'pro' },
					}),
					pairedItem: { item: 0 },
				},
			]);
			expect(user.markedForDeletionAt! - T).toBeLessThan(30);
		});
	});

	describe('Export Data', () => {
		it('GETs the export (202, empty body) and outputs a success item', async () => {
			const user = ada();

			const result = await run({ operation: 'exportData', endUserId: user.id });

			expect(result.error).toBeUndefined();
			expect(onlyRequest()).toMatchObject({
				method: 'GET',
				path: `/v1/end_users/${user.id}/export`,
				rawQuery: '',
				rawBody: '',
				status: 202,
			});
			expect(result.items).toEqual([
				{
					json: {
						success: true,
						end_user_id: user.id,
						export: 'scheduled',
						hint: 'Wootric sends an email with a link to the JSON export file when it is ready',
					},
					pairedItem: { item: 0 },
				},
			]);
			expect(fake.account.exports).toEqual([
				{ endUserId: user.id, requestedAt: expect.any(Number) },
			]);
			expect(fake.account.exports[0].requestedAt - T).toBeLessThan(30);
		});
	});

	describe('Get', () => {
		it.each([
			[
				'ID',
				(user: EndUser) => ({ lookUpBy: 'id', endUserId: user.id }),
				(user: EndUser) => `/v1/end_users/${user.id}`,
				'',
			],
			[
				'email',
				() => ({ lookUpBy: 'email', email: 'ada+nps@example.com' }),
				() => '/v1/end_users/ada%2Bnps%40example.com',
				'lookup_by_email=true',
			],
			[
				'external ID',
				() => ({ lookUpBy: 'externalId', externalId: 'acme/42' }),
				() => '/v1/end_users/acme%2F42',
				'lookup_by_external_id=true',
			],
			[
				'phone number',
				() => ({ lookUpBy: 'phoneNumber', phoneNumber: '+1 (555) 010-0' }),
				() => '/v1/end_users/phone_number/%2B15550100',
				'',
			],
		])('looks up by %s', async (_, parameters, path, rawQuery) => {
			const user = ada({ email: 'ada+nps@example.com', externalId: 'acme/42' });
			createEndUser(fake.account, fake.store, 'other@example.com', {
				externalId: 'acme-42',
				phoneNumber: '+15550199',
			});

			const result = await run({ operation: 'get', ...parameters(user) });

			expect(result.error).toBeUndefined();
			expect(onlyRequest()).toMatchObject({
				method: 'GET',
				path: path(user),
				rawQuery,
				rawBody: '',
				status: 200,
			});
			expect(result.items).toEqual([{ json: adaRead(user), pairedItem: { item: 0 } }]);
		});

		it('simplifies datetimes, including the ones without an offset', async () => {
			const user = ada({ lastSurveyed: T - 60 });

			const result = await run({
				operation: 'get',
				lookUpBy: 'id',
				endUserId: user.id,
				options: { simplify: true },
			});

			expect(result.items[0].json).toMatchObject({
				created_at: '2023-11-13T22:13:20.000Z',
				updated_at: '2023-11-14T21:13:20.000Z',
				// The service writes last_surveyed without an offset; it is read as UTC.
				last_surveyed: '2023-11-14T14:12:20.000Z',
			});
		});

		it('names what it looked for on a 404', async () => {
			const result = await run({
				operation: 'get',
				lookUpBy: 'email',
				email: 'nobody@example.com',
			});

			expect(result.error).toMatchObject({
				message: 'The end user with email nobody@example.com was not found in Wootric',
				description: 'Wootric says: The record could not be found.',
			});
		});
	});

	describe('Get Many', () => {
		/**
		 * Users one minute apart, created and updated at the same time, emails in reverse creation
		 * order.
		 */
		const seedUsers = (count: number, start = T - 10 * DAY) =>
			Array.from({ length: count }, (_, index) =>
				createEndUser(
					fake.account,
					fake.store,
					`user${String(count - index).padStart(5, '0')}@example.com`,
					{
						createdAt: start + index * 60,
						updatedAt: start + index * 60,
					},
				),
			);
		const ids = (users: EndUser[]) => users.map((user) => user.id);

		it('reads oldest first by created_at unless told otherwise, up to the limit', async () => {
			const users = seedUsers(5);

			const result = await run({ operation: 'getAll', returnAll: false, limit: 3 });

			expect(result.error).toBeUndefined();
			expect(onlyRequest()).toMatchObject({
				method: 'GET',
				path: '/v1/end_users',
				rawQuery: 'sort_key=created_at&sort_order=asc&page=1&per_page=50',
				rawBody: '',
				status: 200,
			});
			expect(result.items.map(({ json, pairedItem }) => [json.id, pairedItem])).toEqual(
				ids(users.slice(0, 3)).map((id) => [id, { item: 0 }]),
			);
		});

		it('sends the filters, the sort and the order', async () => {
			const users = seedUsers(6);
			for (const user of users) user.settings.surveys_disabled_by_end_user = true;
			const [, second, , , fifth] = users;

			const result = await run({
				operation: 'getAll',
				returnAll: false,
				limit: 2,
				filters: {
					surveysDisabled: true,
					created: { conditions: [{ comparison: 'gte', time: second.createdAt }] },
					updated: {
						conditions: [
							{ comparison: 'lt', time: new Date(fifth.updatedAt * 1000).toISOString() },
						],
					},
				},
				options: { sortKey: 'email', order: 'desc' },
			});

			expect(result.error).toBeUndefined();
			expect(onlyRequest().rawQuery).toBe(
				`updated[lt]=${fifth.updatedAt}&surveys_disabled=true&created[gte]=${second.createdAt}&sort_key=email&sort_order=desc&page=1&per_page=50`,
			);
			// Emails run opposite to creation order, so Z to A by email lists users 1..3 oldest first.
			expect(result.items.map(({ json }) => json.id)).toEqual(ids(users.slice(1, 3)));
		});

		it('filters by email, and simplifies', async () => {
			const user = ada();
			seedUsers(3);

			const result = await run({
				operation: 'getAll',
				returnAll: true,
				filters: { email: 'ada@example.com' },
				options: { simplify: true },
			});

			expect(result.error).toBeUndefined();
			expect(onlyRequest().rawQuery).toBe(
				'email=ada%40example.com&sort_key=created_at&sort_order=asc&page=1&per_page=50',
			);
			expect(result.items).toEqual([
				{
					json: {
						...adaRead(user),
						created_at: '2023-11-13T22:13:20.000Z',
						updated_at: '2023-11-14T21:13:20.000Z',
					},
					pairedItem: { item: 0 },
				},
			]);
		});

		it('reads past 1,500 end users sorted by created_at, moving the created window', async () => {
			const users = seedUsers(1600);

			const result = await run({ operation: 'getAll', returnAll: true });

			expect(result.error).toBeUndefined();
			expect(result.items.map(({ json }) => json.id)).toEqual(ids(users));
			const requests = fake.requestsTo('/v1/end_users');
			// 30 pages, then the window moves: 3 pages, and those asked for ahead of the end while
			// reading the third.
			expect(requests).toHaveLength(30 + 3 + listReading.pagesInFlight - 1);
			const firstWindow = requests.slice(0, 30).map((request) => request.rawQuery);
			expect(firstWindow.sort()).toEqual(
				Array.from(
					{ length: 30 },
					(_, page) => `sort_key=created_at&sort_order=asc&page=${page + 1}&per_page=50`,
				).sort(),
			);
			expect(requests[30].rawQuery).toBe(
				`created[gte]=${users[1499].createdAt}&sort_key=created_at&sort_order=asc&page=1&per_page=50`,
			);
		});

		it('reads exactly 1,500 end users sorted by email, having counted them by created_at', async () => {
			const users = seedUsers(1500);

			const result = await run({
				operation: 'getAll',
				returnAll: true,
				options: { sortKey: 'email' },
			});

			expect(result.error).toBeUndefined();
			expect(result.items.map(({ json }) => json.id)).toEqual(ids(users).reverse());
			const queries = fake.requestsTo('/v1/end_users').map((request) => request.rawQuery);
			expect(queries.filter((query) => query.startsWith('sort_key=email&'))).toHaveLength(30);
			// 30 pages, then the moved window's page 1, which shows no 1,501st (none goes ahead for one
			// record).
			expect(
				queries.filter((query) => query.includes('sort_key=created_at&sort_order=asc&')),
			).toHaveLength(31);
		});

		it('stops with a clear error past 1,500 end users sorted by email', async () => {
			seedUsers(1501);

			const result = await run({
				operation: 'getAll',
				returnAll: true,
				options: { sortKey: 'email' },
			});

			expect(result.error?.message).toBe(
				'Wootric lists at most 1500 records sorted by email; sort by created_at or updated_at to read more',
			);
			expect(
				fake
					.requestsTo('/v1/end_users')
					.filter((request) => request.rawQuery.startsWith('sort_key=email&')),
			).toHaveLength(30);
		});
	});

	describe('Create or Update', () => {
		it('matching by email, creates when the lookup answers 404', async () => {
			const result = await run({
				operation: 'upsert',
				matchBy: 'email',
				email: 'new@example.com',
				additionalFields: { externalId: 'crm-9' },
				properties: { property: [{ name: 'plan', value: 'pro' }] },
			});

			expect(result.error).toBeUndefined();
			expect(requestsSeen(fake)).toEqual([
				{
					method: 'GET',
					path: '/v1/end_users/new%40example.com',
					rawQuery: 'lookup_by_email=true',
					rawBody: '',
					status: 404,
				},
				{
					method: 'POST',
					path: '/v1/end_users',
					rawQuery: '',
					rawBody: 'email=new%40example.com&external_id=crm-9&properties[plan]=pro',
					status: 201,
				},
			]);
			const [user] = fake.account.endUsers.values();
			expect(result.items).toEqual([
				{
					json: expect.objectContaining({
						id: user.id,
						email: 'new@example.com',
						properties: { plan: 'pro' },
					}),
					pairedItem: { item: 0 },
				},
			]);
		});

		it('matching by email, updates the end user found', async () => {
			const user = ada();

			const result = await run({
				operation: 'upsert',
				matchBy: 'email',
				email: 'ada@example.com',
				additionalFields: { lastSurveyed: '2023-11-13T22:13:20Z' },
				properties: { property: [{ name: 'plan', value: 'team' }] },
			});

			expect(result.error).toBeUndefined();
			expect(requestsSeen(fake)).toEqual([
				{
					method: 'GET',
					path: '/v1/end_users/ada%40example.com',
					rawQuery: 'lookup_by_email=true',
					rawBody: '',
					status: 200,
				},
				{
					method: 'PUT',
					path: `/v1/end_users/${user.id}`,
					rawQuery: '',
					rawBody: `email=ada%40example.com&last_surveyed=${T - DAY}&properties[plan]=team`,
					status: 200,
				},
			]);
			expect(result.items).toEqual([
				{
					json: {
						id: user.id,
						email: 'ada@example.com',
						last_surveyed: '2023-11-13T14:13:20.000-08:00',
						external_created_at: null,
						created_at: '2023-11-13T14:13:20.000-08:00',
						updated_at: expect.stringMatching(NOW_ISO_MILLIS),
						user_id: fake.account.userId,
						properties: { plan: 'team' },
					},
					pairedItem: { item: 0 },
				},
			]);
			expect(fake.account.endUsers.size).toBe(1);
		});

		it('matching by external ID, updates the end user found, email included', async () => {
			const user = ada();

			const result = await run({
				operation: 'upsert',
				matchBy: 'externalId',
				externalId: 'crm-1',
				email: 'lovelace@example.com',
			});

			expect(result.error).toBeUndefined();
			expect(
				fake
					.apiRequests()
					.map(({ method, path, rawQuery, rawBody }) => ({ method, path, rawQuery, rawBody })),
			).toEqual([
				{
					method: 'GET',
					path: '/v1/end_users/crm-1',
					rawQuery: 'lookup_by_external_id=true',
					rawBody: '',
				},
				{
					method: 'PUT',
					path: `/v1/end_users/${user.id}`,
					rawQuery: '',
					rawBody: 'email=lovelace%40example.com&external_id=crm-1',
				},
			]);
			expect(result.items[0].json).toMatchObject({ id: user.id, email: 'lovelace@example.com' });
			expect(user.email).toBe('lovelace@example.com');
		});

		it('matching by external ID, creates when none has it', async () => {
			ada();

			const result = await run({
				operation: 'upsert',
				matchBy: 'externalId',
				externalId: 'crm-2',
				email: 'grace@example.com',
			});

			expect(result.error).toBeUndefined();
			expect(requestsSeen(fake)).toEqual([
				{
					method: 'GET',
					path: '/v1/end_users/crm-2',
					rawQuery: 'lookup_by_external_id=true',
					rawBody: '',
					status: 404,
				},
				{
					method: 'POST',
					path: '/v1/end_users',
					rawQuery: '',
					rawBody: 'email=grace%40example.com&external_id=crm-2',
					status: 201,
				},
			]);
			expect(result.items[0].json).toMatchObject({ email: 'grace@example.com', properties: {} });
			expect(fake.account.endUsers.size).toBe(2);
		});

		it('creates nothing when the lookup fails otherwise than with a 404', async () => {
			fake.faults.inject({
				method: 'GET',
				path: '/v1/end_users/new%40example.com',
				fault: { kind: 'status', status: 400, message: 'lookup refused' },
			});

			const result = await run({ operation: 'upsert', matchBy: 'email', email: 'new@example.com' });

			expect(result.error).toMatchObject({
				httpCode: '400',
				description: 'Wootric says: lookup refused.',
			});
			expect(fake.apiRequests().map(({ method }) => method)).toEqual(['GET']);
			expect(fake.account.endUsers.size).toBe(0);
		});
		it.each([
			['without an id', (record: Record<string, unknown>) => delete record.id, 'no id'],
			[
				'whose id is a record',
				(record: Record<string, unknown>) => (record.id = { a: 1 }),
				'id {"a":1}',
			],
			[
				'whose id is another path',
				(record: Record<string, unknown>) => (record.id = '1002/settings'),
				'id "1002/settings"',
			],
		])('sends nothing more when the lookup answers a record %s', async (_, mangle, said) => {
			const user = ada();
			fake.faults.inject({
				method: 'GET',
				path: '/v1/end_users/ada%40example.com',
				fault: {
					kind: 'mangle',
					mangle: (body) => {
						mangle(body as Record<string, unknown>);
						return body;
					},
				},
			});

			const result = await run({ operation: 'upsert', matchBy: 'email', email: 'ada@example.com' });

			expect(result.error?.message).toBe(
				`Wootric answered GET /v1/end_users/ada%40example.com with ${said} where an ID (a whole number above 0) belongs: Create or Update updated nothing and created nothing`,
			);
			expect(fake.apiRequests().map(({ method }) => method)).toEqual(['GET']);
			expect(user.email).toBe('ada@example.com');
			expect(fake.account.endUsers.size).toBe(1);
		});
	});

	describe('Continue On Fail', () => {
		it('outputs each failed item’s error and goes on; every item keeps its pairing', async () => {
			const user = ada();

			const result = await run(
				{ operation: 'get', lookUpBy: 'id', endUserId: '={{ $json.id }}' },
				{
					continueOnFail: true,
					inputItems: [
						{ json: { id: 'abc' } },
						{ json: { id: 999999 } },
						{ json: { id: user.id } },
					],
				},
			);

			expect(result.error).toBeUndefined();
			expect(result.items).toEqual([
				{
					json: { error: 'End User ID must be a whole number of at least 1 (item 0: got "abc")' },
					pairedItem: { item: 0 },
				},
				notFoundItem('end user 999999', 1),
				{ json: adaRead(user), pairedItem: { item: 2 } },
			]);
			expect(fake.apiRequests().map(({ path }) => path)).toEqual([
				'/v1/end_users/999999',
				`/v1/end_users/${user.id}`,
			]);
		});

		it('creates the good item of two when the other fails validation', async () => {
			const result = await run(
				{ operation: 'create', email: '={{ $json.email }}' },
				{
					continueOnFail: true,
					inputItems: [
						{ json: { email: 'grace@example.com' } },
						{ json: { email: 'not-an-email' } },
					],
				},
			);

			expect(result.error).toBeUndefined();
			expect(result.items).toEqual([
				{
					json: expect.objectContaining({ email: 'grace@example.com', properties: {} }),
					pairedItem: { item: 0 },
				},
				{
					json: {
						error:
							'Email must be an email address like name@example.com (item 1: got "not-an-email")',
					},
					pairedItem: { item: 1 },
				},
			]);
			expect(fake.apiRequests().map(({ method, rawBody }) => [method, rawBody])).toEqual([
				['POST', 'email=grace%40example.com'],
			]);
		});
	});

	describe('validation, before any request', () => {
		it.each<[string, INodeParameters, string]>([
			[
				'a bad email',
				{ operation: 'create', email: 'ada at example.com' },
				'Email must be an email address like name@example.com (item 0: got "ada at example.com")',
			],
			// n8n itself refuses an empty required field; an expression can still give one.
			[
				'an empty email from an expression',
				{ operation: 'create', email: "={{ '' }}" },
				'Email must be an email address like name@example.com (item 0: got "")',
			],
			[
				'a bad email to look up',
				{ operation: 'get', lookUpBy: 'email', email: 'ada@' },
				'Email must be an email address like name@example.com (item 0: got "ada@")',
			],
			[
				'a bad email to delete',
				{ operation: 'delete', lookUpBy: 'email', email: 'nobody' },
				'Email must be an email address like name@example.com (item 0: got "nobody")',
			],
			[
				'a bad email filter',
				{ operation: 'getAll', returnAll: true, filters: { email: 'x@y' } },
				'Email must be an email address like name@example.com (item 0: got "x@y")',
			],
			[
				'a phone number without +',
				{ operation: 'get', lookUpBy: 'phoneNumber', phoneNumber: '15550100' },
				'Phone Number must start with \'+\' and the country code, e.g. +15550100 (item 0: got "15550100")',
			],
			[
				'ID 0',
				{ operation: 'get', lookUpBy: 'id', endUserId: 0 },
				'End User ID must be a whole number of at least 1 (item 0: got 0)',
			],
			[
				'ID -1',
				{ operation: 'delete', lookUpBy: 'id', endUserId: -1 },
				'End User ID must be a whole number of at least 1 (item 0: got -1)',
			],
			[
				'ID abc',
				{ operation: 'exportData', endUserId: 'abc' },
				'End User ID must be a whole number of at least 1 (item 0: got "abc")',
			],
			[
				'ID 1.5',
				{ operation: 'update', endUserId: 1.5, updateFields: { externalId: 'x' } },
				'End User ID must be a whole number of at least 1 (item 0: got 1.5)',
			],
			[
				'a bad date',
				{ operation: 'update', endUserId: 5, updateFields: { lastSurveyed: 'last Tuesday' } },
				'Last Surveyed must be a date (ISO 8601, e.g. 2026-01-31T12:00:00Z) or UNIX seconds (item 0: got "last Tuesday")',
			],
			[
				'a date before 1970',
				{
					operation: 'create',
					email: 'ada@example.com',
					additionalFields: { externalCreatedAt: '1969-07-20T20:17:00Z' },
				},
				'External Created At must be a date after 1970-01-01 (item 0: got "1969-07-20T20:17:00Z")',
			],
			[
				'an empty update',
				{ operation: 'update', endUserId: 5 },
				'Update Fields must name at least one field or property to change (item 0: got {})',
			],
			[
				'bad properties JSON',
				{
					operation: 'create',
					email: 'ada@example.com',
					propertiesInput: 'json',
					propertiesJson: '{plan: pro',
				},
				'Properties (JSON) must be a JSON object (item 0: got "{plan: pro")',
			],
			[
				'a properties JSON array',
				{ operation: 'update', endUserId: 5, propertiesInput: 'json', propertiesJson: '["pro"]' },
				'Properties (JSON) must be a JSON object (item 0: got ["pro"])',
			],
			[
				'a property without a name',
				{
					operation: 'create',
					email: 'ada@example.com',
					properties: { property: [{ name: ' ', value: 'pro' }] },
				},
				'Properties needs a name for every property (item 0: got "pro")',
			],
			[
				'a property name with brackets',
				{
					operation: 'update',
					endUserId: 5,
					propertiesInput: 'json',
					propertiesJson: '{"plan[tier]": "pro"}',
				},
				'Properties names cannot contain [ or ] (item 0: got "plan[tier]")',
			],
			[
				'an empty external ID to match',
				{ operation: 'upsert', matchBy: 'externalId', externalId: ' ', email: 'ada@example.com' },
				'External ID is required (item 0: got " ")',
			],
			[
				'an external ID of ..',
				{ operation: 'get', lookUpBy: 'externalId', externalId: '..' },
				'External ID cannot be looked up: Wootric reads it as a path (item 0: got "..")',
			],
			[
				'a bad email to match',
				{ operation: 'upsert', matchBy: 'email', email: 'ada' },
				'Email must be an email address like name@example.com (item 0: got "ada")',
			],
			[
				'a bad date in an upsert',
				{
					operation: 'upsert',
					matchBy: 'email',
					email: 'ada@example.com',
					additionalFields: { lastSurveyed: 'soon' },
				},
				'Last Surveyed must be a date (ISO 8601, e.g. 2026-01-31T12:00:00Z) or UNIX seconds (item 0: got "soon")',
			],
			[
				'a limit of 0',
				{ operation: 'getAll', returnAll: false, limit: 0 },
				'Limit must be a whole number of at least 1 (item 0: got 0)',
			],
			[
				'a bad created filter',
				{
					operation: 'getAll',
					returnAll: true,
					filters: { created: { conditions: [{ comparison: 'gt', time: 'yesterday' }] } },
				},
				'Created after must be a date (ISO 8601, e.g. 2026-01-31T12:00:00Z) or UNIX seconds (item 0: got "yesterday")',
			],
		])(
			'%s stops the item with an error naming the field and the item, and sends nothing',
			async (_, parameters, message) => {
				ada();

				const result = await run(parameters);

				expect(result.error?.message).toBe(message);
				expect(fake.apiRequests()).toEqual([]);
			},
		);
	});
});
