import type { INodeParameters } from 'n8n-workflow';

import { addResponse, createEndUser, startFakeWootric, type FakeWootric } from '../fake';
import { responseView } from '../fake/resources/responses';
import { runNode } from '../harness';
import {
	credentialsFor,
	notFoundItem,
	wootricRunner,
	VERSION_BEFORE_LOCATORS,
} from '../support/wootric';

/**
 * Response → Create (with end-user properties), Get, Update and Delete, through n8n's engine
 * against the fake.
 */
describe('Response resource', () => {
	let fake: FakeWootric;

	beforeEach(async () => (fake = await startFakeWootric()));
	afterEach(async () => await fake.close());

	const run = wootricRunner(() => fake, { resource: 'response' }, VERSION_BEFORE_LOCATORS);

	/** An end user with properties and one response of theirs, created a while ago. */
	function seed() {
		const user = createEndUser(fake.account, fake.store, 'ada@example.com', {
			properties: { plan: 'free', region: 'emea' },
		});
		const response = addResponse(fake.account, fake.store, {
			endUserId: user.id,
			score: 4,
			text: 'Slow exports',
			createdAt: fake.clock.now() - 3600,
			updatedAt: fake.clock.now() - 3600,
			endUserProperties: { plan: 'free', region: 'emea' },
		});
		return { user, response };
	}

	const createParameters = (endUserId: number, extra: INodeParameters = {}): INodeParameters => ({
		operation: 'create',
		endUserId,
		score: 9,
		ipAddress: '203.0.113.9',
		originUrl: 'https://app.example.com/billing',
		...extra,
	});

	describe('Create with end-user properties', () => {
		it('sends them as end_user[properties], updates the end user’s profile and keeps them with the response', async () => {
			const { user } = seed();

			const result = await run(
				createParameters(user.id, {
					endUserProperties: {
						property: [
							{ name: 'plan', value: 'pro' },
							{ name: 'seats', value: '12' },
						],
					},
				}),
			);

			expect(result.error).toBeUndefined();
			const [request, ...others] = fake.apiRequests();
			expect(others).toEqual([]);
			expect(request).toMatchObject({
				method: 'POST',
				path: `/v1/end_users/${user.id}/responses`,
				rawQuery: '',
				status: 201,
			});
			expect(request.rawBody).toBe(
				'score=9&ip_address=203.0.113.9&origin_url=https%3A%2F%2Fapp.example.com%2Fbilling&end_user[properties][plan]=pro&end_user[properties][seats]=12',
			);
			expect(fake.account.endUsers.get(user.id)!.properties).toEqual({
				plan: 'pro',
				region: 'emea',
				seats: '12',
			});
			const stored = [...fake.account.responses.values()].find((response) => response.score === 9)!;
			expect(stored.endUserProperties).toEqual({ plan: 'pro', region: 'emea', seats: '12' });
			expect(result.items).toEqual([
				{ json: responseView(fake.account, stored), pairedItem: { item: 0 } },
			]);
		});

		it('takes them as a JSON object too', async () => {
			const { user } = seed();

			const result = await run(
				createParameters(user.id, {
					endUserPropertiesInput: 'json',
					endUserPropertiesJson: '{"plan": "pro", "seats": 12, "trial": false}',
				}),
			);

			expect(result.error).toBeUndefined();
			expect(fake.apiRequests()[0].rawBody).toBe(
				'score=9&ip_address=203.0.113.9&origin_url=https%3A%2F%2Fapp.example.com%2Fbilling' +
					'&end_user[properties][plan]=pro&end_user[properties][seats]=12&end_user[properties][trial]=false',
			);
			expect(fake.account.endUsers.get(user.id)!.properties).toEqual({
				plan: 'pro',
				region: 'emea',
				seats: '12',
				trial: 'false',
			});
		});

		it('leaves the end user alone without properties', async () => {
			const { user } = seed();

			const result = await run(createParameters(user.id));

			expect(result.error).toBeUndefined();
			expect(fake.apiRequests()[0].rawBody).toBe(
				'score=9&ip_address=203.0.113.9&origin_url=https%3A%2F%2Fapp.example.com%2Fbilling',
			);
			expect(fake.account.endUsers.get(user.id)!.properties).toEqual({
				plan: 'free',
				region: 'emea',
			});
		});
	});

	describe('Create: Simplify, by node version', () => {
		it.each<[string, number, INodeParameters]>([
			[
				'version 1, under Additional Fields (saved workflows keep working)',
				1,
				{ additionalFields: { text: 'Fast', simplify: true } },
			],
			[
				'version 1.1, under Options',
				1.1,
				{ additionalFields: { text: 'Fast' }, options: { simplify: true } },
			],
		])('simplifies the created response: %s', async (_, nodeTypeVersion, extra) => {
			const { user } = seed();

			const result = await runNode({
				nodeType: 'wootric',
				nodeTypeVersion,
				parameters: { resource: 'response', ...createParameters(user.id, extra) },
				credentials: credentialsFor(fake),
			});

			expect(result.error).toBeUndefined();
			expect(fake.apiRequests().map((request) => request.rawBody)).toEqual([
				'score=9&ip_address=203.0.113.9&origin_url=https%3A%2F%2Fapp.example.com%2Fbilling&text=Fast',
			]);
			const stored = [...fake.account.responses.values()].find(
				(response) => response.text === 'Fast',
			)!;
			expect(result.items).toEqual([
				{
					json: expect.objectContaining({
						id: stored.id,
						nps_category: 'promoter',
						created_at: new Date(stored.createdAt * 1000).toISOString(),
					}),
					pairedItem: { item: 0 },
				},
			]);
		});

		it('version 1.1 outputs the record unchanged without Simplify', async () => {
			const { user } = seed();

			const result = await run(createParameters(user.id));

			expect(result.error).toBeUndefined();
			expect(result.items[0].json).not.toHaveProperty('nps_category');
		});
	});

	describe('Get', () => {
		it('reads one response of an end user', async () => {
			const { user, response } = seed();

			const result = await run({ operation: 'get', endUserId: user.id, responseId: response.id });

			expect(result.error).toBeUndefined();
			expect(fake.apiRequests()).toEqual([
				expect.objectContaining({
					method: 'GET',
					path: `/v1/end_users/${user.id}/responses/${response.id}`,
					rawQuery: '',
					rawBody: '',
					status: 200,
				}),
			]);
			expect(result.items).toEqual([
				{ json: responseView(fake.account, response), pairedItem: { item: 0 } },
			]);
		});

		it('simplifies: NPS category and ISO 8601 UTC datetimes', async () => {
			const { user, response } = seed();

			const result = await run({
				operation: 'get',
				endUserId: user.id,
				responseId: response.id,
				options: { simplify: true },
			});

			expect(result.items[0].json).toMatchObject({
				id: response.id,
				nps_category: 'detractor',
				created_at: new Date(response.createdAt * 1000).toISOString(),
				updated_at: new Date(response.updatedAt * 1000).toISOString(),
			});
		});

		it('names the response and the end user on a 404', async () => {
			const { response } = seed();
			const other = createEndUser(fake.account, fake.store, 'bob@example.com');

			const result = await run({ operation: 'get', endUserId: other.id, responseId: response.id });

			expect(result.error).toMatchObject({
				httpCode: '404',
				message: `The response ${response.id} of end user ${other.id} was not found in Wootric`,
			});
		});
	});

	describe('Update', () => {
		it('sends completed, excluded_from_calculations and historical end-user properties, and reports what it changed', async () => {
			const { user, response } = seed();
			fake.account.historicalEditsEnabled = true;

			const result = await run({
				operation: 'update',
				responseId: response.id,
				updateFields: { completed: true, excludedFromCalculations: false },
				endUserProperties: { property: [{ name: 'plan', value: 'pro' }] },
			});

			expect(result.error).toBeUndefined();
			expect(fake.apiRequests()).toEqual([
				expect.objectContaining({
					method: 'PUT',
					path: `/v1/responses/${response.id}`,
					rawQuery: '',
					rawBody: 'completed=true&excluded_from_calculations=false&end_user[properties][plan]=pro',
					status: 204,
				}),
			]);
			expect(result.items).toEqual([
				{
					json: {
						success: true,
						id: response.id,
						updated: ['completed', 'excluded_from_calculations', 'end_user.properties'],
					},
					pairedItem: { item: 0 },
				},
			]);
			expect(fake.account.responses.get(response.id)!.endUserProperties).toEqual({ plan: 'pro' });
			// A historical edit: the end user's current profile is not changed.
			expect(fake.account.endUsers.get(user.id)!.properties).toEqual({
				plan: 'free',
				region: 'emea',
			});
		});

		it('excludes a response from calculations', async () => {
			const { response } = seed();

			const result = await run({
				operation: 'update',
				responseId: response.id,
				updateFields: { excludedFromCalculations: true },
			});

			expect(result.error).toBeUndefined();
			expect(fake.apiRequests()[0].rawBody).toBe('excluded_from_calculations=true');
			expect(fake.account.responses.get(response.id)!.excludedFromCalculations).toBe(true);
			expect(result.items[0].json).toEqual({
				success: true,
				id: response.id,
				updated: ['excluded_from_calculations'],
			});
		});

		it('explains a 423 when historical edits are not enabled for the account', async () => {
			const { response } = seed();
			fake.account.historicalEditsEnabled = false;

			const result = await run({
				operation: 'update',
				responseId: response.id,
				updateFields: { completed: true, excludedFromCalculations: false },
				endUserProperties: { property: [{ name: 'plan', value: 'pro' }] },
			});

			expect(
				fake
					.apiRequests()
					.map(({ method, path, rawBody, status }) => ({ method, path, rawBody, status })),
			).toEqual([
				{
					method: 'PUT',
					path: `/v1/responses/${response.id}`,
					rawBody: 'completed=true&excluded_from_calculations=false&end_user[properties][plan]=pro',
					status: 423,
				},
			]);
			expect(result.error).toMatchObject({
				httpCode: '423',
				message: 'Wootric refused to change historical end-user properties (423)',
			});
			expect(result.error?.description).toBe(
				"Wootric says: Updating historical end user properties is not enabled for this account. This account has not enabled editing a response's or decline's end_user properties. Ask Wootric support to enable it, or leave the end-user properties out.",
			);
			expect(fake.account.responses.get(response.id)!.endUserProperties).toEqual({
				plan: 'free',
				region: 'emea',
			});
		});

		it('says which response is missing on a 404', async () => {
			const result = await run({
				operation: 'update',
				responseId: 999999,
				updateFields: { completed: true },
			});

			expect(result.error).toMatchObject({
				httpCode: '404',
				message: 'The response 999999 was not found in Wootric',
			});
		});
	});

	describe('Delete', () => {
		it('deletes one response of an end user and outputs a success item', async () => {
			const { user, response } = seed();

			const result = await run({
				operation: 'delete',
				endUserId: user.id,
				responseId: response.id,
			});

			expect(result.error).toBeUndefined();
			expect(fake.apiRequests()).toEqual([
				expect.objectContaining({
					method: 'DELETE',
					path: `/v1/end_users/${user.id}/responses/${response.id}`,
					rawQuery: '',
					rawBody: '',
					status: 204,
				}),
			]);
			expect(result.items).toEqual([
				{
					json: { success: true, deleted: true, id: response.id, end_user_id: user.id },
					pairedItem: { item: 0 },
				},
			]);
			expect(fake.account.responses.has(response.id)).toBe(false);
		});
	});

	it('with Continue On Fail, outputs the failed item’s error and goes on with the others', async () => {
		const { user, response } = seed();
		const second = addResponse(fake.account, fake.store, { endUserId: user.id, score: 10 });

		const result = await run(
			{ operation: 'delete', endUserId: user.id, responseId: '={{ $json.responseId }}' },
			{
				continueOnFail: true,
				inputItems: [{ json: { responseId: 999999 } }, { json: { responseId: second.id } }],
			},
		);

		expect(result.error).toBeUndefined();
		expect(result.items).toEqual([
			notFoundItem(`response 999999 of end user ${user.id}`, 0),
			{
				json: { success: true, deleted: true, id: second.id, end_user_id: user.id },
				pairedItem: { item: 1 },
			},
		]);
		expect(
			fake.apiRequests().map(({ method, path, status }) => `${method} ${path} ${status}`),
		).toEqual([
			`DELETE /v1/end_users/${user.id}/responses/999999 404`,
			`DELETE /v1/end_users/${user.id}/responses/${second.id} 204`,
		]);
		expect(fake.account.responses.has(response.id)).toBe(true);
	});

	it('without Continue On Fail, stops at the bad item and names it, before anything is sent for the others', async () => {
		const { user, response } = seed();

		const result = await run(
			{ operation: 'get', endUserId: user.id, responseId: '={{ $json.responseId }}' },
			{ inputItems: [{ json: { responseId: response.id } }, { json: { responseId: 0 } }] },
		);

		expect(result.error?.message).toBe(
			'Response ID must be a whole number of at least 1 (item 1: got 0)',
		);
		expect(fake.apiRequests()).toEqual([]);
	});

	describe('rejects bad input before sending anything', () => {
		const create = (extra: INodeParameters) => createParameters(1, extra);
		it.each<[string, INodeParameters, string]>([
			[
				'score -1',
				create({ score: -1 }),
				'Score must be a whole number from 0 to 10 (item 0: got -1)',
			],
			[
				'score 11',
				create({ score: 11 }),
				'Score must be a whole number from 0 to 10 (item 0: got 11)',
			],
			[
				'score 7.5',
				create({ score: 7.5 }),
				'Score must be a whole number from 0 to 10 (item 0: got 7.5)',
			],
			[
				'score "ten"',
				create({ score: '={{ "ten" }}' }),
				'Score must be a whole number from 0 to 10 (item 0: got "ten")',
			],
			[
				'end user id 0',
				create({ endUserId: 0 }),
				'End User ID must be a whole number of at least 1 (item 0: got 0)',
			],
			[
				'end user id -1',
				create({ endUserId: -1 }),
				'End User ID must be a whole number of at least 1 (item 0: got -1)',
			],
			[
				'end user id "abc"',
				create({ endUserId: '={{ "abc" }}' }),
				'End User ID must be a whole number of at least 1 (item 0: got "abc")',
			],
			['empty IP address', create({ ipAddress: '  ' }), 'IP Address is required (item 0: got "")'],
			['blank origin URL', create({ originUrl: ' \t' }), 'Origin URL is required (item 0: got "")'],
			[
				'origin URL that an expression leaves empty',
				create({ originUrl: '={{ $json.missing }}' }),
				'Origin URL is required (item 0: got "")',
			],
			[
				'an added but empty created date',
				create({ additionalFields: { createdAt: '' } }),
				'Created At is empty: give a date, or remove the field to record the time of the request (item 0: got "")',
			],
			[
				'a created date that an expression leaves empty',
				create({ additionalFields: { createdAt: '={{ $json.missing }}' } }),
				'Created At is empty: give a date, or remove the field to record the time of the request (item 0: got undefined)',
			],
			[
				'a bad created date',
				create({ additionalFields: { createdAt: 'last tuesday' } }),
				'Created At must be a date (ISO 8601, e.g. 2026-01-31T12:00:00Z) or UNIX seconds (item 0: got "last tuesday")',
			],
			[
				'properties JSON that does not parse',
				create({ endUserPropertiesInput: 'json', endUserPropertiesJson: '{"plan": pro}' }),
				'End User Properties (JSON) must be a JSON object (item 0: got "{"plan": pro}")',
			],
			[
				'properties JSON that is a list',
				create({ endUserPropertiesInput: 'json', endUserPropertiesJson: '["pro"]' }),
				'End User Properties (JSON) must be a JSON object (item 0: got ["pro"])',
			],
			[
				'a property without a name',
				create({ endUserProperties: { property: [{ name: ' ', value: 'pro' }] } }),
				'End User Properties needs a name for every property (item 0: got "pro")',
			],
			[
				'get: response id 0',
				{ operation: 'get', endUserId: 1, responseId: 0 },
				'Response ID must be a whole number of at least 1 (item 0: got 0)',
			],
			[
				'get many: a category of one end user with Include Excluded',
				{
					operation: 'getAll',
					scope: 'endUser',
					endUserId: 1,
					category: 'promoters',
					filters: { includeExcluded: true },
				},
				'Filters Updated and Include Excluded From Calculations cannot be used with a category of one end user; choose Category All, or remove them (item 0: got "promoters")',
			],
			[
				'get: response id "abc"',
				{ operation: 'get', endUserId: 1, responseId: '={{ "abc" }}' },
				'Response ID must be a whole number of at least 1 (item 0: got "abc")',
			],
			[
				'delete: end user id -1',
				{ operation: 'delete', endUserId: -1, responseId: 5 },
				'End User ID must be a whole number of at least 1 (item 0: got -1)',
			],
			[
				'update: response id -1',
				{ operation: 'update', responseId: -1, updateFields: { completed: true } },
				'Response ID must be a whole number of at least 1 (item 0: got -1)',
			],
			[
				'update: nothing to update',
				{ operation: 'update', responseId: 5 },
				'Update Fields must set Completed, Excluded From Calculations or End User Properties: there is nothing to update (item 0: got {})',
			],
			[
				'update: a flag that is not true/false',
				{ operation: 'update', responseId: 5, updateFields: { completed: '={{ "yes" }}' } },
				'Completed must be true or false (item 0: got "yes")',
			],
			[
				'update: bad properties JSON',
				{
					operation: 'update',
					responseId: 5,
					endUserPropertiesInput: 'json',
					endUserPropertiesJson: 'plan=pro',
				},
				'End User Properties (JSON) must be a JSON object (item 0: got "plan=pro")',
			],
			[
				'get many: end user id 0',
				{ operation: 'getAll', scope: 'endUser', endUserId: 0 },
				'End User ID must be a whole number of at least 1 (item 0: got 0)',
			],
			[
				'get many: limit 0',
				{ operation: 'getAll', limit: 0 },
				'Limit must be a whole number of at least 1 (item 0: got 0)',
			],
		])('%s', async (_, parameters, message) => {
			const result = await run(parameters);

			expect(result.error?.message).toBe(message);
			expect(fake.apiRequests()).toEqual([]);
		});
	});
});
