import type { INodeParameters } from 'n8n-workflow';

import { startFakeWootric, type FakeWootric } from '../fake';
import { wootricRunner, VERSION_BEFORE_LOCATORS } from '../support/wootric';

/** Email Survey → Send: POST /v1/email_survey, batched by 100, checked before anything is sent. */
describe('Email Survey: Send', () => {
	let fake: FakeWootric;

	beforeEach(async () => {
		fake = await startFakeWootric();
		fake.account.surveyTemplates.push({
			id: 501,
			name: 'NPS',
			defaultLanguage: 'EN',
			languages: [{ code: 'EN', name: 'English' }],
			nonConfiguredLanguageCount: 0,
		});
	});
	afterEach(async () => await fake.close());

	const runSend = wootricRunner(
		() => fake,
		{ resource: 'emailSurvey', operation: 'send' },
		VERSION_BEFORE_LOCATORS,
	);
	const send = (
		parameters: INodeParameters,
		inputItems = [{ json: {} }],
		options: { continueOnFail?: boolean } = {},
	) => runSend(parameters, { inputItems, ...options });
	const surveyPosts = () => fake.requestsTo('/v1/email_survey', 'POST');
	const people = (count: number) =>
		Array.from({ length: count }, (_, index) => ({
			json: { email: `person${index}@example.com`, crm: `crm-${index}`, first: `P${index}` },
		}));

	it('sends 1,000 items as exactly 10 requests of 100, external ids aligned with the addresses', async () => {
		const items = people(1000);

		const run = await send(
			{ emails: '={{ $json.email }}', externalIds: '={{ $json.crm }}', combineItems: true },
			items,
		);

		expect(run.error).toBeUndefined();
		expect(surveyPosts()).toHaveLength(10);
		expect(fake.account.emailSurveys.map((survey) => survey.emails.length)).toEqual(
			Array(10).fill(100),
		);
		expect(fake.account.emailSurveys.flatMap((survey) => survey.emails)).toEqual(
			items.map((item) => item.json.email),
		);
		expect(fake.account.emailSurveys[3].params.external_ids).toEqual(
			items.slice(300, 400).map((item) => item.json.crm),
		);
		expect(surveyPosts()[0].rawBody).toMatch(
			/^emails\[\]=person0%40example\.com&emails\[\]=person1%40example\.com&.*&external_ids\[\]=crm-0&external_ids\[\]=crm-1&/,
		);
		for (const item of items.slice(0, 5)) {
			const user = [...fake.account.endUsers.values()].find(
				(candidate) => candidate.email === item.json.email,
			);
			expect(user?.externalId).toBe(item.json.crm);
		}
		expect(run.items).toHaveLength(10);
		expect(run.items[1].pairedItem).toEqual(
			items.slice(100, 200).map((_, index) => ({ item: 100 + index })),
		);
		expect(run.items[1].json).toMatchObject({
			request: 2,
			requests: 10,
			emails: items.slice(100, 200).map((item) => item.json.email),
		});
	});

	it('sends one request per item when items are not combined', async () => {
		const run = await send(
			{ emails: '={{ $json.email }}, extra{{ $itemIndex }}@example.com', combineItems: false },
			people(3),
		);

		expect(run.error).toBeUndefined();
		expect(fake.account.emailSurveys.map((survey) => survey.emails)).toEqual([
			['person0@example.com', 'extra0@example.com'],
			['person1@example.com', 'extra1@example.com'],
			['person2@example.com', 'extra2@example.com'],
		]);
		expect(run.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
	});

	it('sends every parameter of the spec in its bracket notation', async () => {
		const run = await send({
			emails: 'ada@example.com, alan@example.com',
			externalIds: 'crm-1, crm-2',
			context: {
				values: [
					{ name: 'first_name', value: 'friend' },
					{ name: 'product', value: 'Acme' },
				],
			},
			endUserPropertiesInput: 'pairs',
			endUserProperties: { property: [{ name: 'plan', value: 'pro' }] },
			surveyTemplateId: 501,
			language: 'EN',
			surveyImmediately: true,
			subject: 'Hi {{first_name}}',
			intro: 'About {{ product }}',
			surveySettings: {
				logo_url: 'https://example.com/logo.png',
				audience_text: 'your team',
				product_name: 'Acme',
				custom_messages: {
					followup_text: 'a',
					detractor_followup_text: 'b',
					passive_followup_text: 'c',
					promoter_followup_text: 'd',
					prompt_text: 'e',
					detractor_prompt_text: 'f',
					passive_prompt_text: 'g',
					promoter_prompt_text: 'h',
				},
				sampling: {
					first_survey_delay: 3,
					response_throttle: 90,
					decline_throttle: 30,
					registered_percent: 100,
				},
			},
			additionalFields: {
				senders_name: 'Acme Support',
				reply_to_email: 'support@example.com',
				delay: 7,
			},
		});

		expect(run.error).toBeUndefined();
		expect(surveyPosts()[0].rawBody).toBe(
			[
				'emails[]=ada%40example.com&emails[]=alan%40example.com',
				'external_ids[]=crm-1&external_ids[]=crm-2',
				'survey_immediately=true',
				'end_user[properties][plan]=pro',
				'subject=Hi%20%7B%7Bfirst_name%7D%7D',
				'intro=About%20%7B%7B%20product%20%7D%7D',
				'context[][first_name]=friend&context[][product]=Acme&context[][first_name]=friend&context[][product]=Acme',
				'senders_name=Acme%20Support',
				'reply_to_email=support%40example.com',
				'delay=7',
				'survey_settings[language]=EN&survey_settings[survey_template_id]=501&survey_settings[logo_url]=https%3A%2F%2Fexample.com%2Flogo.png',
				'survey_settings[audience_text]=your%20team&survey_settings[product_name]=Acme',
				'survey_settings[custom_messages][followup_text]=a&survey_settings[custom_messages][detractor_followup_text]=b',
				'survey_settings[custom_messages][passive_followup_text]=c&survey_settings[custom_messages][promoter_followup_text]=d',
				'survey_settings[custom_messages][prompt_text]=e&survey_settings[custom_messages][detractor_prompt_text]=f',
				'survey_settings[custom_messages][passive_prompt_text]=g&survey_settings[custom_messages][promoter_prompt_text]=h',
				'survey_settings[sampling][first_survey_delay]=3&survey_settings[sampling][response_throttle]=90',
				'survey_settings[sampling][decline_throttle]=30&survey_settings[sampling][registered_percent]=100',
			].join('&'),
		);
		expect(fake.account.emailSurveys[0].params.context).toEqual([
			{ first_name: 'friend', product: 'Acme' },
			{ first_name: 'friend', product: 'Acme' },
		]);
	});

	it('keeps items whose survey fields differ in separate requests', async () => {
		const items = people(150);

		await send(
			{ emails: '={{ $json.email }}', subject: '={{ $itemIndex % 2 ? "Odd" : "Even" }}' },
			items,
		);

		expect(
			fake.account.emailSurveys.map((survey) => [survey.params.subject, survey.emails.length]),
		).toEqual([
			['Even', 75],
			['Odd', 75],
		]);
	});

	it.each([
		[
			'a malformed address',
			{ emails: 'ada@example.com, not-an-address' },
			/^Email Addresses must be an email address .*\(item 0: got "not-an-address"\)/,
		],
		['no address', { emails: ' , ' }, /^Email Addresses needs at least one address/],
		[
			'a delay of 0 days',
			{ emails: 'a@example.com', additionalFields: { delay: 0 } },
			/^Delay \(Days\) must be a whole number from 1 to 31/,
		],
		[
			'a delay of 32 days',
			{ emails: 'a@example.com', additionalFields: { delay: 32 } },
			/^Delay \(Days\) must be a whole number from 1 to 31/,
		],
		[
			'registered_percent 101',
			{ emails: 'a@example.com', surveySettings: { sampling: { registered_percent: 101 } } },
			/^Sampling: Registered Percent must be a whole number from 0 to 100/,
		],
		[
			'fewer external ids than addresses',
			{ emails: 'a@example.com, b@example.com', externalIds: 'crm-1' },
			/^External IDs must hold one ID per address \(2 addresses, 1 IDs\)/,
		],
		[
			'a placeholder without a value',
			{ emails: 'a@example.com', subject: 'Hi {{first_name}}' },
			/^Context Values need a value for every placeholder of Subject and Intro; missing: first_name/,
		],
		[
			'a bad context variable name',
			{ emails: 'a@example.com', context: { values: [{ name: 'first name', value: 'x' }] } },
			/^Context Values: Variable may hold only letters/,
		],
		[
			'a bad reply-to address',
			{ emails: 'a@example.com', additionalFields: { reply_to_email: 'support' } },
			/^Reply-To Email must be an email address/,
		],
		[
			'Multi-Language without a CSV',
			{ emails: 'a@example.com', language: 'multi_language' },
			/^Language Multi-Language takes each row’s language from a CSV/,
		],
		[
			'a bad logo URL',
			{ emails: 'a@example.com', surveySettings: { logo_url: 'logo.png' } },
			/^Survey Settings: Logo URL must be an http\(s\) URL/,
		],
	])('rejects %s before sending anything', async (_, parameters, message) => {
		const run = await send(parameters as INodeParameters);

		expect(run.error?.message).toMatch(message);
		expect(fake.apiRequests()).toEqual([]);
	});

	it('checks every combined item before the first request: one bad item sends nothing', async () => {
		const items = [...people(250), { json: { email: 'broken', crm: 'x', first: 'x' } }];

		const run = await send({ emails: '={{ $json.email }}' }, items);

		expect(run.error?.message).toMatch(/\(item 250: got "broken"\)/);
		expect(fake.apiRequests()).toEqual([]);
	});

	it('stops at a failed request, never repeats it, and says what was and was not sent', async () => {
		fake.faults.inject({
			method: 'POST',
			path: '/v1/email_survey',
			when: () => surveyPosts().length === 3,
			fault: { kind: 'status', status: 500 },
		});

		const run = await send({ emails: '={{ $json.email }}' }, people(1000));

		expect(surveyPosts()).toHaveLength(3);
		expect(fake.account.emailSurveys).toHaveLength(2);
		expect(run.error?.message).toBe(
			'Email survey request 3 of 10 failed: Wootric had a server error (500) on POST /v1/email_survey',
		);
		expect(run.error?.description).toContain('It was not retried');
		expect(run.error?.description).toContain(
			'Sent: requests 1–2 (200 addresses). Not sent: requests 3–10, with the addresses of items 200, 201,',
		);
	});
});
