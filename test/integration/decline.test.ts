import type { INodeParameters } from 'n8n-workflow';

import { addDecline, createEndUser, startFakeWootric, type FakeWootric } from '../fake';
import { declineView } from '../fake/resources/declines';
import type { Decline, EndUser } from '../fake/store';
import { runNode } from '../harness';
import {
	createdAfterUntil,
	credentialsFor,
	requestsSeen,
	wootricRunner,
	VERSION_BEFORE_LOCATORS,
} from '../support/wootric';

/** Decline → Create, Get, Get Many, Update and Delete, through n8n's engine against the fake. */
describe('Decline resource', () => {
	let fake: FakeWootric;

	beforeEach(async () => (fake = await startFakeWootric()));
	afterEach(async () => await fake.close());

	const run = wootricRunner(() => fake, { resource: 'decline' }, VERSION_BEFORE_LOCATORS);

	function userWithDeclines(
		email: string,
		count: number,
		start: number,
	): { user: EndUser; declines: Decline[] } {
		const user = createEndUser(fake.account, fake.store, email, { properties: { plan: 'free' } });
		const declines = Array.from({ length: count }, (_, index) =>
			addDecline(fake.account, fake.store, {
				endUserId: user.id,
				originUrl: `https://app.example.com/page/${index}`,
				createdAt: start + index * 60,
				updatedAt: start + index * 60,
				endUserProperties: { plan: 'free' },
			}),
		);
		return { user, declines };
	}

	const ids = (items: Array<{ json: { id?: unknown } }>) => items.map(({ json }) => json.id);

	describe('Create', () => {
		it('sends the origin URL, the time in UNIX seconds and end-user properties; updates the end user’s profile', async () => {
			const user = createEndUser(fake.account, fake.store, 'ada@example.com', {
				properties: { plan: 'free', region: 'emea' },
			});

			const result = await run({
				operation: 'create',
				endUserId: user.id,
				endUserProperties: { property: [{ name: 'plan', value: 'pro' }] },
				additionalFields: {
					originUrl: 'https://app.example.com/billing?tab=plans',
					createdAt: '2026-01-02T03:04:05Z',
				},
			});

			expect(result.error).toBeUndefined();
			expect(requestsSeen(fake)).toEqual([
				{
					method: 'POST',
					path: `/v1/end_users/${user.id}/declines`,
					rawQuery: '',
					rawBody:
						'origin_url=https%3A%2F%2Fapp.example.com%2Fbilling%3Ftab%3Dplans&created_at=1767323045&end_user[properties][plan]=pro',
					status: 201,
				},
			]);
			const [stored] = fake.account.declines.values();
			expect(stored).toMatchObject({
				endUserId: user.id,
				originUrl: 'https://app.example.com/billing?tab=plans',
				createdAt: 1767323045,
			});
			expect(stored.endUserProperties).toEqual({ plan: 'pro', region: 'emea' });
			expect(fake.account.endUsers.get(user.id)!.properties).toEqual({
				plan: 'pro',
				region: 'emea',
			});
			expect(result.items).toEqual([
				{
					json: { ...declineView(fake.account, stored), user_id: fake.account.userId },
					pairedItem: { item: 0 },
				},
			]);
		});

		it.each<[string, number, INodeParameters]>([
			[
				'version 1, Simplify under Additional Fields (saved workflows keep working)',
				1,
				{ additionalFields: { simplify: true } },
			],
			['version 1.1, Simplify under Options', 1.1, { options: { simplify: true } }],
		])(
			'needs nothing but the end user, and can simplify the answer: %s',
			async (_, nodeTypeVersion, extra) => {
				const user = createEndUser(fake.account, fake.store, 'ada@example.com');

				const result = await runNode({
					nodeType: 'wootric',
					nodeTypeVersion,
					parameters: { resource: 'decline', operation: 'create', endUserId: user.id, ...extra },
					credentials: credentialsFor(fake),
				});

				expect(result.error).toBeUndefined();
				expect(requestsSeen(fake)).toEqual([
					{
						method: 'POST',
						path: `/v1/end_users/${user.id}/declines`,
						rawQuery: '',
						rawBody: '',
						status: 201,
					},
				]);
				const [stored] = fake.account.declines.values();
				expect(result.items).toEqual([
					{
						json: expect.objectContaining({
							id: stored.id,
							end_user_id: user.id,
							created_at: new Date(stored.createdAt * 1000).toISOString(),
						}),
						pairedItem: { item: 0 },
					},
				]);
				expect(result.items[0].json).not.toHaveProperty('nps_category');
			},
		);

		it('names the missing end user on a 404', async () => {
			const result = await run({ operation: 'create', endUserId: 999999 });

			expect(result.error).toMatchObject({
				httpCode: '404',
				message: 'The end user 999999 was not found in Wootric',
			});
			expect(fake.account.declines.size).toBe(0);
		});
	});

	describe('Get', () => {
		it('reads one decline of an end user', async () => {
			const { user, declines } = userWithDeclines('ada@example.com', 2, 1_700_000_000);

			const result = await run({ operation: 'get', endUserId: user.id, declineId: declines[1].id });

			expect(result.error).toBeUndefined();
			expect(requestsSeen(fake)).toEqual([
				{
					method: 'GET',
					path: `/v1/end_users/${user.id}/declines/${declines[1].id}`,
					rawQuery: '',
					rawBody: '',
					status: 200,
				},
			]);
			expect(result.items).toEqual([
				{ json: declineView(fake.account, declines[1]), pairedItem: { item: 0 } },
			]);
		});

		it('names the decline and the end user on a 404', async () => {
			const { declines } = userWithDeclines('ada@example.com', 1, 1_700_000_000);
			const other = createEndUser(fake.account, fake.store, 'bob@example.com');

			const result = await run({
				operation: 'get',
				endUserId: other.id,
				declineId: declines[0].id,
			});

			expect(result.error).toMatchObject({
				httpCode: '404',
				message: `The decline ${declines[0].id} of end user ${other.id} was not found in Wootric`,
			});
		});
	});

	describe('Get Many', () => {
		it('lists everyone’s declines, newest first, with Return All', async () => {
			const first = userWithDeclines('ada@example.com', 3, 1_700_000_000);
			const second = userWithDeclines('bob@example.com', 2, 1_700_000_030);

			const result = await run({ operation: 'getAll', returnAll: true });

			expect(result.error).toBeUndefined();
			expect(requestsSeen(fake)).toEqual([
				{
					method: 'GET',
					path: '/v1/declines',
					rawQuery: 'sort_key=created_at&sort_order=desc&page=1&per_page=50',
					rawBody: '',
					status: 200,
				},
			]);
			const all = [...first.declines, ...second.declines].sort((a, b) => b.createdAt - a.createdAt);
			expect(result.items).toEqual(
				all.map((decline) => ({
					json: declineView(fake.account, decline),
					pairedItem: { item: 0 },
				})),
			);
		});

		it('lists one end user’s declines, oldest first, up to the limit, simplified', async () => {
			const { user, declines } = userWithDeclines('ada@example.com', 4, 1_700_000_000);
			userWithDeclines('bob@example.com', 2, 1_700_000_000);

			const result = await run({
				operation: 'getAll',
				scope: 'endUser',
				endUserId: user.id,
				returnAll: false,
				limit: 3,
				options: { order: 'asc', simplify: true },
			});

			expect(result.error).toBeUndefined();
			expect(requestsSeen(fake)).toEqual([
				{
					method: 'GET',
					path: `/v1/end_users/${user.id}/declines`,
					rawQuery: 'sort_key=created_at&sort_order=asc&page=1&per_page=50',
					rawBody: '',
					status: 200,
				},
			]);
			expect(ids(result.items)).toEqual(declines.slice(0, 3).map((decline) => decline.id));
			expect(result.items[0]).toEqual({
				json: expect.objectContaining({
					created_at: new Date(declines[0].createdAt * 1000).toISOString(),
					end_user: { properties: { plan: 'free' } },
				}),
				pairedItem: { item: 0 },
			});
		});

		it('sends the created and updated conditions', async () => {
			const { declines } = userWithDeclines('ada@example.com', 6, 1_700_000_000);
			const from = declines[1].createdAt;
			const until = declines[4].createdAt;

			const result = await run({
				operation: 'getAll',
				returnAll: true,
				filters: {
					created: createdAfterUntil(from, until),
					updated: { conditions: [{ comparison: 'gte', time: 1000 }] },
				},
			});

			expect(result.error).toBeUndefined();
			expect(requestsSeen(fake).map((request) => request.rawQuery)).toEqual([
				`updated[gte]=1000&created[gte]=${from + 1}&created[lte]=${until}&sort_key=created_at&sort_order=desc&page=1&per_page=50`,
			]);
			expect(ids(result.items)).toEqual(
				declines
					.slice(2, 5)
					.map((decline) => decline.id)
					.reverse(),
			);
		});

		it('reads every page (and, from page 2 on, more ahead: as many as full pages were read, up to the pages in flight)', async () => {
			const { declines } = userWithDeclines('ada@example.com', 120, 1_700_000_000);

			const result = await run({ operation: 'getAll', returnAll: true, options: { order: 'asc' } });

			expect(ids(result.items)).toEqual(declines.map((decline) => decline.id));
			// Pages on their way together arrive in either order. Page 1 alone, then 2 and 3, then 4 and
			// 5 while reading 3.
			expect(
				requestsSeen(fake)
					.map((request) => request.rawQuery)
					.sort(),
			).toEqual(
				[1, 2, 3, 4, 5].map(
					(page) => `sort_key=created_at&sort_order=asc&page=${page}&per_page=50`,
				),
			);
		});

		it('names the end user on a 404', async () => {
			const result = await run({
				operation: 'getAll',
				scope: 'endUser',
				endUserId: 999999,
				returnAll: true,
			});

			expect(result.error).toMatchObject({
				httpCode: '404',
				message: 'The end user 999999 was not found in Wootric',
			});
			expect(requestsSeen(fake)).toEqual([
				expect.objectContaining({
					method: 'GET',
					path: '/v1/end_users/999999/declines',
					status: 404,
				}),
			]);
		});
	});

	describe('Update', () => {
		it('changes the end-user properties kept with a decline (PUT /v1/declines/<id>) when the account allows it', async () => {
			const { user, declines } = userWithDeclines('ada@example.com', 1, 1_700_000_000);
			fake.account.historicalEditsEnabled = true;

			const result = await run({
				operation: 'update',
				declineId: declines[0].id,
				endUserPropertiesInput: 'json',
				endUserPropertiesJson: { plan: 'pro', seats: 12 },
			});

			expect(result.error).toBeUndefined();
			expect(requestsSeen(fake)).toEqual([
				{
					method: 'PUT',
					path: `/v1/declines/${declines[0].id}`,
					rawQuery: '',
					rawBody: 'end_user[properties][plan]=pro&end_user[properties][seats]=12',
					status: 204,
				},
			]);
			expect(result.items).toEqual([
				{
					json: { success: true, id: declines[0].id, updated: ['end_user.properties'] },
					pairedItem: { item: 0 },
				},
			]);
			expect(fake.account.declines.get(declines[0].id)!.endUserProperties).toEqual({
				plan: 'pro',
				seats: '12',
			});
			expect(fake.account.endUsers.get(user.id)!.properties).toEqual({ plan: 'free' });
		});

		it('explains a 423 when historical edits are not enabled for the account', async () => {
			const { declines } = userWithDeclines('ada@example.com', 1, 1_700_000_000);
			fake.account.historicalEditsEnabled = false;

			const result = await run({
				operation: 'update',
				declineId: declines[0].id,
				endUserProperties: { property: [{ name: 'plan', value: 'pro' }] },
			});

			expect(requestsSeen(fake)).toEqual([
				{
					method: 'PUT',
					path: `/v1/declines/${declines[0].id}`,
					rawQuery: '',
					rawBody: 'end_user[properties][plan]=pro',
					status: 423,
				},
			]);
			expect(result.error).toMatchObject({
				httpCode: '423',
				message: 'Wootric refused to change historical end-user properties (423)',
			});
			expect(result.error?.description).toContain('Ask Wootric support to enable it');
			expect(fake.account.declines.get(declines[0].id)!.endUserProperties).toEqual({
				plan: 'free',
			});
		});
	});

	describe('Delete', () => {
		it('deletes one decline of an end user and outputs a success item', async () => {
			const { user, declines } = userWithDeclines('ada@example.com', 2, 1_700_000_000);

			const result = await run({
				operation: 'delete',
				endUserId: user.id,
				declineId: declines[0].id,
			});

			expect(result.error).toBeUndefined();
			expect(requestsSeen(fake)).toEqual([
				{
					method: 'DELETE',
					path: `/v1/end_users/${user.id}/declines/${declines[0].id}`,
					rawQuery: '',
					rawBody: '',
					status: 204,
				},
			]);
			expect(result.items).toEqual([
				{
					json: { success: true, deleted: true, id: declines[0].id, end_user_id: user.id },
					pairedItem: { item: 0 },
				},
			]);
			expect([...fake.account.declines.keys()]).toEqual([declines[1].id]);
		});
	});

	describe('with two input items where one fails', () => {
		it('Continue On Fail outputs the error on that item and goes on', async () => {
			const user = createEndUser(fake.account, fake.store, 'ada@example.com');

			const result = await run(
				{
					operation: 'create',
					endUserId: '={{ $json.userId }}',
					additionalFields: { originUrl: '={{ $json.url }}' },
				},
				{
					continueOnFail: true,
					inputItems: [
						{ json: { userId: 999999, url: 'https://app.example.com/a' } },
						{ json: { userId: user.id, url: 'https://app.example.com/b' } },
					],
				},
			);

			expect(result.error).toBeUndefined();
			const [stored, ...more] = fake.account.declines.values();
			expect(more).toEqual([]);
			expect(result.items).toEqual([
				{
					json: {
						error: 'The end user 999999 was not found in Wootric',
						description: expect.stringContaining('Wootric says: The record could not be found.'),
					},
					pairedItem: { item: 0 },
				},
				{
					json: { ...declineView(fake.account, stored), user_id: fake.account.userId },
					pairedItem: { item: 1 },
				},
			]);
			expect(requestsSeen(fake)).toEqual([
				{
					method: 'POST',
					path: '/v1/end_users/999999/declines',
					rawQuery: '',
					rawBody: 'origin_url=https%3A%2F%2Fapp.example.com%2Fa',
					status: 404,
				},
				{
					method: 'POST',
					path: `/v1/end_users/${user.id}/declines`,
					rawQuery: '',
					rawBody: 'origin_url=https%3A%2F%2Fapp.example.com%2Fb',
					status: 201,
				},
			]);
		});

		it('a validation error on one item is kept on that item with Continue On Fail', async () => {
			const { user, declines } = userWithDeclines('ada@example.com', 1, 1_700_000_000);

			const result = await run(
				{ operation: 'get', endUserId: user.id, declineId: '={{ $json.declineId }}' },
				{
					continueOnFail: true,
					inputItems: [{ json: { declineId: declines[0].id } }, { json: { declineId: 'abc' } }],
				},
			);

			expect(result.items).toEqual([
				{ json: declineView(fake.account, declines[0]), pairedItem: { item: 0 } },
				{
					json: { error: 'Decline ID must be a whole number of at least 1 (item 1: got "abc")' },
					pairedItem: { item: 1 },
				},
			]);
			expect(requestsSeen(fake)).toHaveLength(1);
		});

		it('without Continue On Fail the node stops with the error naming the item', async () => {
			const { user, declines } = userWithDeclines('ada@example.com', 1, 1_700_000_000);

			const result = await run(
				{ operation: 'delete', endUserId: user.id, declineId: '={{ $json.declineId }}' },
				{
					inputItems: [
						{ json: { declineId: declines[0].id } },
						{ json: { declineId: declines[0].id } },
					],
				},
			);

			expect(result.error).toMatchObject({
				httpCode: '404',
				message: `The decline ${declines[0].id} of end user ${user.id} was not found in Wootric`,
			});
			expect(result.error?.context).toMatchObject({ itemIndex: 1 });
			expect(requestsSeen(fake).map((request) => request.status)).toEqual([204, 404]);
		});
	});

	describe('rejects bad input before sending anything', () => {
		it.each<[string, INodeParameters, string]>([
			[
				'create: end user id 0',
				{ operation: 'create', endUserId: 0 },
				'End User ID must be a whole number of at least 1 (item 0: got 0)',
			],
			[
				'create: end user id -1',
				{ operation: 'create', endUserId: -1 },
				'End User ID must be a whole number of at least 1 (item 0: got -1)',
			],
			[
				'create: end user id "abc"',
				{ operation: 'create', endUserId: '={{ "abc" }}' },
				'End User ID must be a whole number of at least 1 (item 0: got "abc")',
			],
			[
				'create: end user id 2.5',
				{ operation: 'create', endUserId: 2.5 },
				'End User ID must be a whole number of at least 1 (item 0: got 2.5)',
			],
			[
				'create: a bad date',
				{ operation: 'create', endUserId: 1, additionalFields: { createdAt: '2026-13-45' } },
				'Created At must be a date (ISO 8601, e.g. 2026-01-31T12:00:00Z) or UNIX seconds (item 0: got "2026-13-45")',
			],
			[
				'create: an added but empty date',
				{ operation: 'create', endUserId: 1, additionalFields: { createdAt: '' } },
				'Created At is empty: give a date, or remove the field to record the time of the request (item 0: got "")',
			],
			[
				'create: a date that an expression leaves empty',
				{
					operation: 'create',
					endUserId: 1,
					additionalFields: { createdAt: '={{ $json.missing }}' },
				},
				'Created At is empty: give a date, or remove the field to record the time of the request (item 0: got undefined)',
			],
			[
				'create: an empty origin URL',
				{ operation: 'create', endUserId: 1, additionalFields: { originUrl: '  ' } },
				'Origin URL must not be empty (item 0: got "  ")',
			],
			[
				'create: properties JSON that does not parse',
				{
					operation: 'create',
					endUserId: 1,
					endUserPropertiesInput: 'json',
					endUserPropertiesJson: "{plan: 'pro'}",
				},
				`End User Properties (JSON) must be a JSON object (item 0: got "{plan: 'pro'}")`,
			],
			[
				'create: a property holding an object',
				{
					operation: 'create',
					endUserId: 1,
					endUserPropertiesInput: 'json',
					endUserPropertiesJson: '{"plan": {"name": "pro"}}',
				},
				'End User Properties "plan" must be a text, number or true/false value (item 0: got {"name":"pro"})',
			],
			[
				'get: decline id 0',
				{ operation: 'get', endUserId: 1, declineId: 0 },
				'Decline ID must be a whole number of at least 1 (item 0: got 0)',
			],
			[
				'get: end user id "abc"',
				{ operation: 'get', endUserId: '={{ "abc" }}', declineId: 1 },
				'End User ID must be a whole number of at least 1 (item 0: got "abc")',
			],
			[
				'get many: end user id -1',
				{ operation: 'getAll', scope: 'endUser', endUserId: -1 },
				'End User ID must be a whole number of at least 1 (item 0: got -1)',
			],
			[
				'get many: limit 0',
				{ operation: 'getAll', returnAll: false, limit: 0 },
				'Limit must be a whole number of at least 1 (item 0: got 0)',
			],
			[
				'get many: a bad date',
				{
					operation: 'getAll',
					filters: { created: { conditions: [{ comparison: 'gte', time: 'yesterday-ish' }] } },
				},
				'Created at or after must be a date (ISO 8601, e.g. 2026-01-31T12:00:00Z) or UNIX seconds (item 0: got "yesterday-ish")',
			],
			[
				'update: decline id -1',
				{
					operation: 'update',
					declineId: -1,
					endUserProperties: { property: [{ name: 'plan', value: 'pro' }] },
				},
				'Decline ID must be a whole number of at least 1 (item 0: got -1)',
			],
			[
				'update: nothing to update',
				{ operation: 'update', declineId: 5 },
				'End User Properties must hold at least one property: there is nothing else to update on a decline (item 0: got {})',
			],
			[
				'update: an empty JSON object',
				{
					operation: 'update',
					declineId: 5,
					endUserPropertiesInput: 'json',
					endUserPropertiesJson: '{}',
				},
				'End User Properties must hold at least one property: there is nothing else to update on a decline (item 0: got {})',
			],
			[
				'update: bad properties JSON',
				{
					operation: 'update',
					declineId: 5,
					endUserPropertiesInput: 'json',
					endUserPropertiesJson: '"pro"',
				},
				'End User Properties (JSON) must be a JSON object (item 0: got "pro")',
			],
			[
				'delete: decline id "abc"',
				{ operation: 'delete', endUserId: 1, declineId: '={{ "abc" }}' },
				'Decline ID must be a whole number of at least 1 (item 0: got "abc")',
			],
			[
				'delete: end user id 0',
				{ operation: 'delete', endUserId: 0, declineId: 1 },
				'End User ID must be a whole number of at least 1 (item 0: got 0)',
			],
		])('%s', async (_, parameters, message) => {
			const result = await run(parameters);

			expect(result.error?.message).toBe(message);
			expect(fake.apiRequests()).toEqual([]);
		});
	});
});
