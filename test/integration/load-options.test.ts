import { seedDemoData, startFakeWootric, type FakeWootric } from '../fake';
import { runListSearch, runLoadOptions, runNode } from '../harness';
import { credentialsFor, VERSION_BEFORE_LOCATORS } from '../support/wootric';

/**
 * The node's loadOptions methods as n8n runs them for the editor's dropdowns (a LoadOptionsContext
 * with the node's current parameters), against the fake API with the demo templates: 501 "Default
 * NPS" (EN, the default) and 502 "Multi-language NPS" (EN default, ES, DE), plus 77 "CSAT" (FR
 * default, EN, PT).
 */
describe('loadOptions', () => {
	let fake: FakeWootric;

	beforeEach(async () => {
		fake = await startFakeWootric();
		seedDemoData(fake.store, fake.account);
		fake.account.surveyTemplates.push({
			id: 77,
			name: 'CSAT',
			defaultLanguage: 'FR',
			languages: [
				{ code: 'EN', name: 'English' },
				{ code: 'FR', name: 'French' },
				{ code: 'PT', name: 'Portuguese' },
			],
			nonConfiguredLanguageCount: 0,
		});
	});

	afterEach(async () => await fake.close());

	const load = (method: string, currentParameters = {}) =>
		runLoadOptions({
			nodeType: 'wootric',
			nodeTypeVersion: VERSION_BEFORE_LOCATORS,
			method,
			credentials: credentialsFor(fake),
			currentParameters,
		});

	describe('getSurveyTemplates', () => {
		it('lists the templates by name with their ids, the default first and marked', async () => {
			const { options } = await load('getSurveyTemplates');

			expect(options).toEqual([
				{ name: 'Default NPS (default)', value: 501, description: 'ID 501 · languages: EN' },
				{ name: 'CSAT', value: 77, description: 'ID 77 · languages: EN, FR, PT' },
				{ name: 'Multi-language NPS', value: 502, description: 'ID 502 · languages: EN, ES, DE' },
			]);
		});

		it('signs in with the node’s credential, saves the token, and sends one GET', async () => {
			const run = await load('getSurveyTemplates');

			const [tokenRequest, templatesRequest, ...others] = fake.requests;
			expect(others).toEqual([]);
			expect(tokenRequest).toMatchObject({ method: 'POST', path: '/oauth/token' });
			expect(templatesRequest).toMatchObject({
				method: 'GET',
				path: '/v1/survey_templates',
				rawQuery: '',
				status: 200,
			});
			const saved = await run.credentialsHelper.getCredentialData(run.credentialId!);
			expect(templatesRequest.headers.authorization).toBe(`Bearer ${saved.accessToken}`);
		});

		it('lists no templates for an account without any', async () => {
			fake.account.surveyTemplates.length = 0;
			fake.account.defaultSurveyTemplateId = null;

			expect((await load('getSurveyTemplates')).options).toEqual([]);
		});

		it('fails like the editor’s request does when the API fails, with the API error', async () => {
			fake.faults.inject({
				path: '/v1/survey_templates',
				fault: { kind: 'status', status: 400, message: 'bad request' },
			});

			await expect(load('getSurveyTemplates')).rejects.toMatchObject({
				httpCode: '400',
				description: expect.stringContaining('bad request'),
			});
		});
	});

	describe('getSurveyTemplateLanguages', () => {
		const fromCsv = { resource: 'emailSurvey', operation: 'sendCsv' };
		const multiLanguage = {
			name: 'Multi-Language (Language Column of the CSV)',
			value: 'multi_language',
			description:
				'Each CSV row is surveyed in the language of its "language" column; needs a survey template',
		};

		it.each([
			['a number', 502],
			['a numeric string', '502'],
		])(
			'lists the chosen template’s languages, its default first and marked (template id as %s)',
			async (_, surveyTemplateId) => {
				const { options } = await load('getSurveyTemplateLanguages', {
					...fromCsv,
					surveyTemplateId,
				});

				expect(options).toEqual([
					multiLanguage,
					{ name: 'English (default)', value: 'EN', description: 'Language code EN' },
					{ name: 'Spanish', value: 'ES', description: 'Language code ES' },
					{ name: 'German', value: 'DE', description: 'Language code DE' },
				]);
			},
		);

		it('puts a template’s default language first even when the API lists it later', async () => {
			const { options } = await load('getSurveyTemplateLanguages', {
				...fromCsv,
				surveyTemplateId: 77,
			});

			expect(options.map((option) => option.name)).toEqual([
				multiLanguage.name,
				'French (default)',
				'English',
				'Portuguese',
			]);
		});

		it.each([
			['no template is chosen', {}],
			['the template field is empty', { surveyTemplateId: '' }],
			['the id matches no template', { surveyTemplateId: 999 }],
			['the id is an unresolved expression', { surveyTemplateId: '={{ $json.templateId }}' }],
		])(
			'lists every language of every template, each once, by name, when %s',
			async (_, currentParameters) => {
				const { options } = await load('getSurveyTemplateLanguages', {
					...fromCsv,
					...currentParameters,
				});

				expect(options).toEqual([
					multiLanguage,
					{ name: 'English', value: 'EN', description: 'Language code EN' },
					{ name: 'French', value: 'FR', description: 'Language code FR' },
					{ name: 'German', value: 'DE', description: 'Language code DE' },
					{ name: 'Portuguese', value: 'PT', description: 'Language code PT' },
					{ name: 'Spanish', value: 'ES', description: 'Language code ES' },
				]);
			},
		);

		it('offers Multi-Language only to Send From CSV: Send has no language column', async () => {
			const { options } = await load('getSurveyTemplateLanguages', {
				resource: 'emailSurvey',
				operation: 'send',
				surveyTemplateId: 502,
			});

			expect(options.map((option) => option.value)).toEqual(['EN', 'ES', 'DE']);
		});
	});

	describe('templates whose languages are malformed', () => {
		/** 501's languages a string, 502's a list with null and a code-less entry, 77's a record. */
		beforeEach(() =>
			fake.faults.inject({
				path: '/v1/survey_templates',
				times: 5,
				fault: {
					kind: 'mangle',
					mangle: (body) => {
						const languages: Record<number, unknown> = {
							501: 'EN',
							502: [null, { code: 'ES', name: 'Spanish' }, { name: 'German' }],
							77: { EN: 'English' },
						};
						for (const template of (body as { survey_templates: Array<{ id: number }> })
							.survey_templates)
							Object.assign(template, { languages: languages[template.id] });
						return body;
					},
				},
			}),
		);

		it('the Survey Template dropdown lists every template, with the languages it can read', async () => {
			expect((await load('getSurveyTemplates')).options).toEqual([
				{ name: 'Default NPS (default)', value: 501, description: 'ID 501' },
				{ name: 'CSAT', value: 77, description: 'ID 77' },
				{ name: 'Multi-language NPS', value: 502, description: 'ID 502 · languages: ES' },
			]);
		});

		it('the Survey Template list search lists every template', async () => {
			const { result } = await runListSearch({
				nodeType: 'wootric',
				method: 'searchSurveyTemplates',
				parameterPath: 'surveyTemplate',
				filter: 'nps',
				credentials: credentialsFor(fake),
			});

			expect(result.results).toEqual([
				{ name: 'Default NPS (default)', value: 501 },
				{ name: 'Multi-language NPS', value: 502 },
			]);
		});

		it.each([
			['of the chosen template', { surveyTemplateId: 502 }],
			['of every template', {}],
		])('the Language dropdown lists the languages it can read %s', async (_, chosen) => {
			const { options } = await load('getSurveyTemplateLanguages', {
				resource: 'emailSurvey',
				operation: 'send',
				...chosen,
			});

			expect(options).toEqual([{ name: 'Spanish', value: 'ES', description: 'Language code ES' }]);
		});
	});

	it('reuses the token a node run saved into the credential', async () => {
		const first = await runNode({
			nodeType: 'wootric',
			nodeTypeVersion: VERSION_BEFORE_LOCATORS,
			parameters: { resource: 'surveyTemplate', operation: 'getAll' },
			credentials: credentialsFor(fake),
		});

		await runLoadOptions({
			nodeType: 'wootric',
			nodeTypeVersion: VERSION_BEFORE_LOCATORS,
			method: 'getSurveyTemplates',
			credentialsHelper: first.credentialsHelper,
			credentialId: first.credentialId,
		});

		expect(fake.requestsTo('/oauth/token')).toHaveLength(1);
		expect(fake.requestsTo('/v1/survey_templates')).toHaveLength(2);
	});

	it('refuses a method the node does not have, as n8n does', async () => {
		await expect(load('getNothing')).rejects.toThrow('Node type does not have method defined');
	});
});
