import type { INodeParameters } from 'n8n-workflow';

import { createEndUser, startFakeWootric, type FakeWootric } from '../fake';
import type { EndUser } from '../fake/store';
import {
	notFoundItem,
	onlyRequest as onlyRequestOf,
	wootricRunner,
	VERSION_BEFORE_LOCATORS,
} from '../support/wootric';

/** 2023-11-14T22:13:20Z: 14:13:20 on the 14th at the fake account's offset of -08:00. */
const T = 1_700_000_000;

/** End User Settings through n8n's engine against the fake API. */
describe('End User Settings', () => {
	let fake: FakeWootric;
	let user: EndUser;

	beforeEach(async () => {
		fake = await startFakeWootric();
		fake.clock.set(T);
		user = createEndUser(fake.account, fake.store, 'ada@example.com');
		user.settings.createdAt = T - 3600;
		user.settings.updatedAt = T - 60;
	});
	afterEach(async () => await fake.close());

	const run = wootricRunner(() => fake, { resource: 'endUserSettings' }, VERSION_BEFORE_LOCATORS);
	const onlyRequest = () => onlyRequestOf(fake);

	describe('Get', () => {
		it('GETs the settings and outputs them', async () => {
			const result = await run({ operation: 'get', endUserId: user.id });

			expect(result.error).toBeUndefined();
			expect(onlyRequest()).toMatchObject({
				method: 'GET',
				path: `/v1/end_users/${user.id}/settings`,
				rawQuery: '',
				rawBody: '',
				status: 200,
			});
			expect(result.items).toEqual([
				{
					json: {
						id: user.settings.id,
						end_user_id: user.id,
						created_at: '2023-11-14 13:13:20-08:00',
						updated_at: '2023-11-14 14:12:20-08:00',
						email_nps: true,
					},
					pairedItem: { item: 0 },
				},
			]);
		});

		it('simplifies the datetimes', async () => {
			const result = await run({
				operation: 'get',
				endUserId: user.id,
				options: { simplify: true },
			});

			expect(result.items[0].json).toMatchObject({
				created_at: '2023-11-14T21:13:20.000Z',
				updated_at: '2023-11-14T22:12:20.000Z',
			});
		});

		it('names the end user on a 404', async () => {
			const result = await run({ operation: 'get', endUserId: 424242 });

			expect(result.error).toMatchObject({
				message: 'The end user 424242 was not found in Wootric',
				description: 'Wootric says: The record could not be found.',
			});
			expect(onlyRequest()).toMatchObject({
				method: 'GET',
				path: '/v1/end_users/424242/settings',
				status: 404,
			});
		});
	});

	describe('Update', () => {
		it('PUTs the flags chosen, false ones included', async () => {
			const result = await run({
				operation: 'update',
				endUserId: user.id,
				updateFields: { emailSurveys: false, forceWebSurvey: true },
			});

			expect(result.error).toBeUndefined();
			expect(onlyRequest()).toMatchObject({
				method: 'PUT',
				path: `/v1/end_users/${user.id}/settings`,
				rawQuery: '',
				rawBody: 'email_nps=false&force_web_survey=true',
				status: 200,
			});
			expect(result.items).toEqual([
				{
					json: {
						id: user.settings.id,
						end_user_id: user.id,
						created_at: '2023-11-14T13:13:20.000-08:00',
						updated_at: expect.stringMatching(/^2023-11-14T14:13:[2-5]\d\.000-08:00$/),
						email_nps: false,
					},
					pairedItem: { item: 0 },
				},
			]);
			expect(user.settings).toMatchObject({
				email_nps: false,
				mobile_nps: true,
				web_nps: true,
				force_web_survey: true,
				force_mobile_survey: false,
			});
		});

		it('sends all five flags, and simplifies', async () => {
			const result = await run({
				operation: 'update',
				endUserId: user.id,
				updateFields: {
					emailSurveys: true,
					mobileSurveys: false,
					webSurveys: false,
					forceWebSurvey: false,
					forceMobileSurvey: true,
				},
				options: { simplify: true },
			});

			expect(result.error).toBeUndefined();
			expect(onlyRequest().rawBody).toBe(
				'email_nps=true&mobile_nps=false&web_nps=false&force_web_survey=false&force_mobile_survey=true',
			);
			expect(result.items[0].json).toMatchObject({
				created_at: '2023-11-14T21:13:20.000Z',
				updated_at: expect.stringMatching(/^2023-11-14T22:13:[2-5]\d\.000Z$/),
			});
			expect(user.settings).toMatchObject({
				email_nps: true,
				mobile_nps: false,
				web_nps: false,
				force_web_survey: false,
				force_mobile_survey: true,
			});
		});
	});

	it('with Continue On Fail, outputs the failed item’s error and updates the other; pairing holds', async () => {
		const result = await run(
			{ operation: 'update', endUserId: '={{ $json.id }}', updateFields: { webSurveys: false } },
			{ continueOnFail: true, inputItems: [{ json: { id: 999999 } }, { json: { id: user.id } }] },
		);

		expect(result.error).toBeUndefined();
		expect(result.items).toEqual([
			notFoundItem('end user 999999', 0),
			{ json: expect.objectContaining({ end_user_id: user.id }), pairedItem: { item: 1 } },
		]);
		expect(fake.apiRequests().map(({ method, path, rawBody }) => [method, path, rawBody])).toEqual([
			['PUT', '/v1/end_users/999999/settings', 'web_nps=false'],
			['PUT', `/v1/end_users/${user.id}/settings`, 'web_nps=false'],
		]);
		expect(user.settings.web_nps).toBe(false);
	});

	describe('validation, before any request', () => {
		it.each<[string, INodeParameters, string]>([
			[
				'no setting chosen',
				{ operation: 'update', endUserId: 5 },
				'Update Fields must choose at least one setting to change (item 0: got {})',
			],
			[
				'ID 0',
				{ operation: 'get', endUserId: 0 },
				'End User ID must be a whole number of at least 1 (item 0: got 0)',
			],
			[
				'ID -1',
				{ operation: 'update', endUserId: -1, updateFields: { webSurveys: true } },
				'End User ID must be a whole number of at least 1 (item 0: got -1)',
			],
			[
				'ID abc',
				{ operation: 'get', endUserId: 'abc' },
				'End User ID must be a whole number of at least 1 (item 0: got "abc")',
			],
			[
				'a flag that is not true or false',
				{ operation: 'update', endUserId: 5, updateFields: { mobileSurveys: "={{ 'maybe' }}" } },
				'Mobile Surveys must be true or false (item 0: got "maybe")',
			],
		])(
			'%s stops the item with an error naming the field and the item, and sends nothing',
			async (_, parameters, message) => {
				const result = await run(parameters);

				expect(result.error?.message).toBe(message);
				expect(fake.apiRequests()).toEqual([]);
			},
		);
	});
});
