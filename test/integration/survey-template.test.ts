import {
	seedSurveyTemplates,
	startFakeWootric,
	surveyTemplateView,
	type FakeWootric,
} from '../fake';
import { wootricRunner } from '../support/wootric';

/** Survey Template → Get Many through n8n's engine against the fake API. */
describe('Survey Template / Get Many', () => {
	let fake: FakeWootric;

	beforeEach(async () => (fake = await startFakeWootric()));
	afterEach(async () => await fake.close());

	const run = wootricRunner(() => fake, { resource: 'surveyTemplate', operation: 'getAll' });

	it('outputs one item per template, marking the default, paired with the input item', async () => {
		seedSurveyTemplates(fake.account);

		const result = await run();

		expect(result.error).toBeUndefined();
		expect(fake.requestsTo('/v1/survey_templates')).toEqual([
			expect.objectContaining({
				method: 'GET',
				path: '/v1/survey_templates',
				rawQuery: '',
				rawBody: '',
				status: 200,
			}),
		]);
		const [defaultNps, multiLanguageNps] = fake.account.surveyTemplates.map(surveyTemplateView);
		expect(result.items).toEqual([
			{ json: { ...defaultNps, is_default: true }, pairedItem: { item: 0 } },
			{ json: { ...multiLanguageNps, is_default: false }, pairedItem: { item: 0 } },
		]);
	});

	it('follows the account’s default template', async () => {
		seedSurveyTemplates(fake.account);
		fake.account.defaultSurveyTemplateId = 502;

		const result = await run();

		expect(result.items.map((item) => [item.json.id, item.json.is_default])).toEqual([
			[501, false],
			[502, true],
		]);
	});

	it('gives each input item the whole list, paired with that item', async () => {
		seedSurveyTemplates(fake.account);

		const result = await run(
			{},
			{ inputItems: [{ json: { team: 'emea' } }, { json: { team: 'apac' } }] },
		);

		expect(result.error).toBeUndefined();
		expect(fake.requestsTo('/v1/survey_templates')).toHaveLength(2);
		expect(
			result.items.map((item) => [item.json.id, item.json.is_default, item.pairedItem]),
		).toEqual([
			[501, true, { item: 0 }],
			[502, false, { item: 0 }],
			[501, true, { item: 1 }],
			[502, false, { item: 1 }],
		]);
	});

	it('outputs nothing, without an error, for an account without templates', async () => {
		const result = await run();

		expect(result.error).toBeUndefined();
		expect(result.items).toEqual([]);
		expect(fake.requestsTo('/v1/survey_templates')).toHaveLength(1);
	});
});
