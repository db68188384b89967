import type { INodeParameterResourceLocator, INodeParameters } from 'n8n-workflow';

import {
	addDecline,
	addResponse,
	createEndUser,
	seedSurveyTemplates,
	startFakeWootric,
	type FakeWootric,
} from '../fake';
import type { EndUser } from '../fake/store';
import { runListSearch, runLoadOptions, runNode } from '../harness';
import { credentialsFor, requestsSeen, VERSION_BEFORE_LOCATORS } from '../support/wootric';

/** A resource locator's value as the editor saves it. */
const locator = (mode: string, value: string | number): INodeParameterResourceLocator => ({
	__rl: true,
	mode,
	value,
});

/**
 * Node version 1.2 (the default): the end user and the survey template picked with resource
 * locators (From List, By ID, By Email, …), their lists as n8n loads them for the editor, and the
 * same requests as the older fields send.
 */
describe('resource locators (node version 1.2)', () => {
	let fake: FakeWootric;
	let ada: EndUser;

	beforeEach(async () => {
		fake = await startFakeWootric();
		ada = createEndUser(fake.account, fake.store, 'ada+nps@example.com', {
			externalId: 'acme/42',
			phoneNumber: '+15550100',
		});
	});
	afterEach(async () => await fake.close());

	const run = (
		parameters: INodeParameters,
		options: { nodeTypeVersion?: number; inputItems?: Array<{ json: object }> } = {},
	) =>
		runNode({
			nodeType: 'wootric',
			parameters,
			credentials: credentialsFor(fake),
			...options,
			inputItems: options.inputItems as never,
		});

	describe('End User', () => {
		it.each([
			['From List', locator('list', 0), () => `/v1/end_users/${ada.id}`, ''],
			['By ID', locator('id', 0), () => `/v1/end_users/${ada.id}`, ''],
			[
				'By Email',
				locator('email', ' ada+nps@example.com '),
				() => '/v1/end_users/ada%2Bnps%40example.com',
				'lookup_by_email=true',
			],
			[
				'By External ID',
				locator('externalId', 'acme/42'),
				() => '/v1/end_users/acme%2F42',
				'lookup_by_external_id=true',
			],
			[
				'By Phone Number',
				locator('phoneNumber', '+1 555 0100'),
				() => '/v1/end_users/phone_number/%2B15550100',
				'',
			],
		])('End User → Get %s sends the lookup of that mode', async (_, endUser, path, rawQuery) => {
			const value = endUser.value === 0 ? String(ada.id) : endUser.value;

			const result = await run({
				resource: 'endUser',
				operation: 'get',
				endUser: { ...endUser, value },
			});

			expect(result.error).toBeUndefined();
			expect(requestsSeen(fake)).toEqual([
				{ method: 'GET', path: path(), rawQuery, rawBody: '', status: 200 },
			]);
			expect(result.items).toEqual([
				{ json: expect.objectContaining({ id: ada.id }), pairedItem: { item: 0 } },
			]);
		});

		it('End User → Delete By Email sends the email in the path without a lookup flag', async () => {
			const result = await run({
				resource: 'endUser',
				operation: 'delete',
				endUser: locator('email', 'ada+nps@example.com'),
			});

			expect(result.error).toBeUndefined();
			expect(requestsSeen(fake)).toEqual([
				{
					method: 'DELETE',
					path: '/v1/end_users/ada%2Bnps%40example.com',
					rawQuery: '',
					rawBody: '',
					status: 200,
				},
			]);
			expect(result.items[0].json).toMatchObject({ id: ada.id, email: 'ada+nps@example.com' });
		});

		it('reads an expression in the locator for each item', async () => {
			const other = createEndUser(fake.account, fake.store, 'alan@example.com');

			const result = await run(
				{
					resource: 'endUserSettings',
					operation: 'get',
					endUser: locator('id', '={{ $json.id }}'),
				},
				{ inputItems: [{ json: { id: ada.id } }, { json: { id: other.id } }] },
			);

			expect(result.error).toBeUndefined();
			expect(requestsSeen(fake).map(({ method, path }) => `${method} ${path}`)).toEqual([
				`GET /v1/end_users/${ada.id}/settings`,
				`GET /v1/end_users/${other.id}/settings`,
			]);
			expect(result.items.map((item) => item.json.end_user_id)).toEqual([ada.id, other.id]);
		});

		it.each([
			[
				'End User → Update',
				{ resource: 'endUser', operation: 'update', updateFields: { externalId: 'crm-7' } },
				'PUT',
				(id: number) => `/v1/end_users/${id}`,
			],
			[
				'End User → Export Data',
				{ resource: 'endUser', operation: 'exportData' },
				'GET',
				(id: number) => `/v1/end_users/${id}/export`,
			],
			[
				'End User Settings → Update',
				{ resource: 'endUserSettings', operation: 'update', updateFields: { emailSurveys: false } },
				'PUT',
				(id: number) => `/v1/end_users/${id}/settings`,
			],
			[
				'Response → Create',
				{
					resource: 'response',
					operation: 'create',
					score: 9,
					ipAddress: '10.0.0.1',
					originUrl: 'https://example.com',
				},
				'POST',
				(id: number) => `/v1/end_users/${id}/responses`,
			],
			[
				'Response → Get Many of one end user',
				{ resource: 'response', operation: 'getAll', scope: 'endUser', returnAll: true },
				'GET',
				(id: number) => `/v1/end_users/${id}/responses`,
			],
			[
				'Decline → Create',
				{ resource: 'decline', operation: 'create' },
				'POST',
				(id: number) => `/v1/end_users/${id}/declines`,
			],
		])('%s addresses the end user picked From List', async (_, parameters, method, path) => {
			const result = await run({ ...parameters, endUser: locator('list', ada.id) });

			expect(result.error).toBeUndefined();
			expect(requestsSeen(fake).map((request) => `${request.method} ${request.path}`)).toEqual([
				`${method} ${path(ada.id)}`,
			]);
		});

		it('Response and Decline → Get and Delete address the end user By ID', async () => {
			const response = addResponse(fake.account, fake.store, { endUserId: ada.id, score: 9 });
			const decline = addDecline(fake.account, fake.store, { endUserId: ada.id });

			for (const [resource, operation, idName, id] of [
				['response', 'get', 'responseId', response.id],
				['decline', 'get', 'declineId', decline.id],
				['response', 'delete', 'responseId', response.id],
				['decline', 'delete', 'declineId', decline.id],
			] as const) {
				const result = await run({
					resource,
					operation,
					endUser: locator('id', String(ada.id)),
					[idName]: id,
				});
				expect(result.error).toBeUndefined();
			}

			expect(requestsSeen(fake).map((request) => `${request.method} ${request.path}`)).toEqual([
				`GET /v1/end_users/${ada.id}/responses/${response.id}`,
				`GET /v1/end_users/${ada.id}/declines/${decline.id}`,
				`DELETE /v1/end_users/${ada.id}/responses/${response.id}`,
				`DELETE /v1/end_users/${ada.id}/declines/${decline.id}`,
			]);
		});

		it.each([
			[
				'an ID that is not a number',
				{ operation: 'get', mode: 'id' },
				'abc',
				'End User (By ID) must be a whole number of at least 1 (item 1: got "abc")',
			],
			[
				'an ID an expression leaves empty',
				{ operation: 'exportData', mode: 'id' },
				'',
				'End User (By ID) is required (item 1: got "")',
			],
			[
				'a picked value that is not an ID',
				{ operation: 'update', mode: 'list', updateFields: { externalId: 'crm-7' } },
				'x',
				'End User (From List) must be a whole number of at least 1 (item 1: got "x")',
			],
			[
				'an email that is not one',
				{ operation: 'delete', mode: 'email' },
				'ada.example.com',
				'End User (By Email) must be an email address like name@example.com (item 1: got "ada.example.com")',
			],
		])(
			'%s fails the item, naming the field and the item, before anything is sent',
			async (_, { mode, ...parameters }, badValue, message) => {
				const result = await run(
					{ resource: 'endUser', ...parameters, endUser: locator(mode, '={{ $json.endUser }}') },
					// The first item is fine: nothing is sent for it either, as every item is read first.
					{
						inputItems: [
							{ json: { endUser: mode === 'email' ? ada.email : ada.id } },
							{ json: { endUser: badValue } },
						],
					},
				);

				expect(result.error?.message).toBe(message);
				expect(result.error).toMatchObject({ context: { itemIndex: 1 } });
				expect(fake.apiRequests()).toEqual([]);
			},
		);

		it('a mode the operation does not offer fails, naming the modes it offers', async () => {
			const result = await run({
				resource: 'endUser',
				operation: 'exportData',
				endUser: locator('email', ada.email),
			});

			expect(result.error?.message).toBe(
				'End User must be chosen From List or By ID (item 0: got "email")',
			);
			expect(fake.apiRequests()).toEqual([]);
		});

		it('versions before 1.2 keep End User ID and Look Up By, with the same requests', async () => {
			for (const parameters of [
				{ resource: 'endUser', operation: 'get', lookUpBy: 'email', email: 'ada+nps@example.com' },
				{ resource: 'endUserSettings', operation: 'get', endUserId: ada.id },
			]) {
				for (const nodeTypeVersion of [1, VERSION_BEFORE_LOCATORS]) {
					const result = await run(parameters, { nodeTypeVersion });
					expect(result.error).toBeUndefined();
				}
			}

			expect(requestsSeen(fake).map(({ path, rawQuery }) => `${path}?${rawQuery}`)).toEqual([
				'/v1/end_users/ada%2Bnps%40example.com?lookup_by_email=true',
				'/v1/end_users/ada%2Bnps%40example.com?lookup_by_email=true',
				`/v1/end_users/${ada.id}/settings?`,
				`/v1/end_users/${ada.id}/settings?`,
			]);
		});
	});

	describe('End User list (searchEndUsers)', () => {
		const search = (filter?: string, paginationToken?: string) =>
			runListSearch({
				nodeType: 'wootric',
				method: 'searchEndUsers',
				parameterPath: 'endUser',
				filter,
				paginationToken,
				credentials: credentialsFor(fake),
				currentParameters: { resource: 'endUser', operation: 'get' },
			});

		it('lists the end users by email, 50 a page, and hands the next page on', async () => {
			for (let index = 0; index < 50; index++)
				createEndUser(
					fake.account,
					fake.store,
					`person${String(index).padStart(2, '0')}@example.com`,
				);

			const first = await search();
			const second = await search(undefined, first.result.paginationToken);

			expect(first.result.results).toHaveLength(50);
			expect(first.result.results[0]).toEqual({ name: 'ada+nps@example.com', value: ada.id });
			expect(first.result.paginationToken).toBe('2');
			expect(second.result).toEqual({
				results: [{ name: 'person49@example.com', value: expect.any(Number) }],
				paginationToken: undefined,
			});
			expect(
				requestsSeen(fake).map(({ method, path, rawQuery }) => ({ method, path, rawQuery })),
			).toEqual([
				{
					method: 'GET',
					path: '/v1/end_users',
					rawQuery: 'page=1&per_page=50&sort_key=email&sort_order=asc',
				},
				{
					method: 'GET',
					path: '/v1/end_users',
					rawQuery: 'page=2&per_page=50&sort_key=email&sort_order=asc',
				},
			]);
		});

		it('searches by the whole email address, the only filter the API has', async () => {
			createEndUser(fake.account, fake.store, 'alan@example.com');

			const found = await search(' ada+nps@example.com ');
			const partial = await search('ada');

			expect(found.result).toEqual({
				results: [{ name: 'ada+nps@example.com', value: ada.id }],
				paginationToken: undefined,
			});
			expect(partial.result.results).toEqual([]);
			expect(requestsSeen(fake).map(({ path, rawQuery }) => `${path}?${rawQuery}`)).toEqual([
				'/v1/end_users?email=ada%2Bnps%40example.com',
				'/v1/end_users?email=ada',
			]);
		});
	});

	describe('Survey Template', () => {
		beforeEach(() => seedSurveyTemplates(fake.account));

		it.each([
			['From List', locator('list', 502)],
			['By ID', locator('id', ' 502 ')],
		])('Email Survey → Send sends the template picked %s', async (_, surveyTemplate) => {
			const result = await run({
				resource: 'emailSurvey',
				operation: 'send',
				emails: 'ada+nps@example.com',
				surveyTemplate,
				language: 'ES',
			});

			expect(result.error).toBeUndefined();
			const [post] = fake.requestsTo('/v1/email_survey', 'POST');
			expect(post.rawBody).toContain(
				'survey_settings[language]=ES&survey_settings[survey_template_id]=502',
			);
		});

		it('sends no template when none is picked (the account default)', async () => {
			const result = await run({
				resource: 'emailSurvey',
				operation: 'send',
				emails: 'ada+nps@example.com',
			});

			expect(result.error).toBeUndefined();
			expect(fake.requestsTo('/v1/email_survey', 'POST')[0].rawBody).not.toContain(
				'survey_template_id',
			);
		});

		it('a template ID that is not a number fails the item before anything is sent', async () => {
			const result = await run({
				resource: 'emailSurvey',
				operation: 'send',
				emails: 'ada+nps@example.com',
				// A literal is checked by n8n against the mode's pattern before the run.
				surveyTemplate: locator('id', '={{ "nps" }}'),
			});

			expect(result.error?.message).toBe(
				'Survey Template must be a whole number of at least 1 (item 0: got "nps")',
			);
			expect(fake.apiRequests()).toEqual([]);
		});

		it('lists the templates, the default first, and searches them by name or ID', async () => {
			const search = async (filter?: string) =>
				(
					await runListSearch({
						nodeType: 'wootric',
						method: 'searchSurveyTemplates',
						parameterPath: 'surveyTemplate',
						filter,
						credentials: credentialsFor(fake),
					})
				).result;

			expect(await search()).toEqual({
				results: [
					{ name: 'Default NPS (default)', value: 501 },
					{ name: 'Multi-language NPS', value: 502 },
				],
			});
			expect(await search('MULTI')).toEqual({
				results: [{ name: 'Multi-language NPS', value: 502 }],
			});
			expect(await search('501')).toEqual({
				results: [{ name: 'Default NPS (default)', value: 501 }],
			});
			expect(requestsSeen(fake).map(({ method, path }) => `${method} ${path}`)).toEqual(
				Array(3).fill('GET /v1/survey_templates'),
			);
		});

		it('the Language dropdown lists the languages of the template in the locator', async () => {
			const languages = async (surveyTemplate: INodeParameterResourceLocator) =>
				(
					await runLoadOptions({
						nodeType: 'wootric',
						method: 'getSurveyTemplateLanguages',
						parameterPath: 'language',
						credentials: credentialsFor(fake),
						currentParameters: { resource: 'emailSurvey', operation: 'send', surveyTemplate },
					})
				).options.map((option) => option.value);

			expect(await languages(locator('list', 502))).toEqual(['EN', 'ES', 'DE']);
			expect(await languages(locator('id', '501'))).toEqual(['EN']);
		});
	});
});
