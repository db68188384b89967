import { createEndUser, MAX_SURVEY_EMAILS, seedSurveyTemplates } from '../index';
import { DAY, emailsOf, expectSurveyRejected, FIXED_NOW, useFakeApi } from './setup';

const { fake, api } = useFakeApi({
	now: FIXED_NOW,
	seed: (started) => seedSurveyTemplates(started.account),
});

const survey = (form: string) => api().post('/v1/email_survey', form);

const CUSTOM_MESSAGES = {
	followup_text: 'Why that score?',
	detractor_followup_text: 'What went wrong?',
	passive_followup_text: 'What would make it a 10?',
	promoter_followup_text: 'What do you like most?',
	prompt_text: 'How likely are you to recommend us?',
	detractor_prompt_text: 'Sorry to hear that.',
	passive_prompt_text: 'Thanks!',
	promoter_prompt_text: 'Wonderful!',
};

describe('POST /v1/email_survey', () => {
	it('surveys the given emails: answers 200 and records exactly the parameters asked for', async () => {
		const customMessages = Object.entries(CUSTOM_MESSAGES)
			.map(([key, text]) => `survey_settings[custom_messages][${key}]=${encodeURIComponent(text)}`)
			.join('&');
		const reply = await survey(
			[
				'emails[]=ada@example.com&emails[]=grace@example.com',
				'external_ids[]=crm-1&external_ids[]=crm-2',
				'survey_immediately=true',
				'end_user[properties][plan]=pro&end_user[properties][seats]=12',
				'subject=%7B%7Bname%7D%7D%2C%20how%20likely%20are%20you%20to%20recommend%20us%3F',
				'intro=Hi%20%7B%7Bname%7D%7D%20from%20%7B%7Bteam%7D%7D',
				'context[][name]=Ada&context[][team]=Compilers&context[][name]=Grace&context[][team]=Navy',
				'senders_name=Acme%20Success%20Team',
				'reply_to_email=support@acme.example',
				'delay=3',
				'survey_settings[language]=ES',
				'survey_settings[logo_url]=https%3A%2F%2Fcdn.acme.example%2Flogo.png',
				'survey_settings[audience_text]=Acme%20customers',
				'survey_settings[product_name]=Acme',
				'survey_settings[survey_template_id]=502',
				customMessages,
				'survey_settings[sampling][first_survey_delay]=0&survey_settings[sampling][response_throttle]=90',
				'survey_settings[sampling][decline_throttle]=30&survey_settings[sampling][registered_percent]=100',
			].join('&'),
		);
		expect(reply.status).toBe(200);
		expect(reply.body).toEqual({ status: 'scheduled', emails_count: 2 });
		expect(fake().account.emailSurveys).toEqual([
			{
				endpoint: 'email_survey',
				receivedAt: expect.any(Number),
				emails: ['ada@example.com', 'grace@example.com'],
				params: {
					emails: ['ada@example.com', 'grace@example.com'],
					external_ids: ['crm-1', 'crm-2'],
					survey_immediately: 'true',
					end_user: { properties: { plan: 'pro', seats: '12' } },
					subject: '{{name}}, how likely are you to recommend us?',
					intro: 'Hi {{name}} from {{team}}',
					context: [
						{ name: 'Ada', team: 'Compilers' },
						{ name: 'Grace', team: 'Navy' },
					],
					senders_name: 'Acme Success Team',
					reply_to_email: 'support@acme.example',
					delay: '3',
					survey_settings: {
						language: 'ES',
						logo_url: 'https://cdn.acme.example/logo.png',
						audience_text: 'Acme customers',
						product_name: 'Acme',
						survey_template_id: '502',
						custom_messages: CUSTOM_MESSAGES,
						sampling: {
							first_survey_delay: '0',
							response_throttle: '90',
							decline_throttle: '30',
							registered_percent: '100',
						},
					},
				},
			},
		]);
		expect(fake().account.emailSurveys[0].receivedAt).toBeGreaterThanOrEqual(FIXED_NOW);
	});

	it('creates end users for unknown addresses, with the properties and external ids given', async () => {
		const reply = await survey(
			'emails[]=ada@example.com&emails[]=grace@example.com&external_ids[]=crm-1&external_ids[]=crm-2&end_user[properties][plan]=pro',
		);
		expect(reply.status).toBe(200);
		expect(emailsOf(fake())).toEqual(['ada@example.com', 'grace@example.com']);

		const grace = await api().get('/v1/end_users/crm-2', 'lookup_by_external_id=true');
		expect(grace.status).toBe(200);
		expect(grace.body).toMatchObject({
			email: 'grace@example.com',
			external_id: 'crm-2',
			properties: { plan: 'pro' },
		});
		expect(grace.body.last_surveyed).toMatch(/^2024-03-10 12:00:\d\d$/);
		const ada = await api().get('/v1/end_users/ada@example.com', 'lookup_by_email=true');
		expect(ada.body).toMatchObject({ external_id: 'crm-1', properties: { plan: 'pro' } });
	});

	it('surveys known end users without duplicating them, merging the properties given into theirs', async () => {
		const known = createEndUser(fake().account, fake().store, 'ada@example.com', {
			properties: { plan: 'starter', region: 'EU' },
			createdAt: FIXED_NOW - DAY,
			updatedAt: FIXED_NOW - DAY,
		});
		const reply = await survey(
			'emails[]=ada@example.com&end_user[properties][plan]=pro&end_user[properties][seats]=12',
		);
		expect(reply.status).toBe(200);
		expect(emailsOf(fake())).toEqual(['ada@example.com']);
		const ada = fake().account.endUsers.get(known.id)!;
		expect(ada.properties).toEqual({ plan: 'pro', region: 'EU', seats: '12' });
		expect(ada.updatedAt).toBeGreaterThanOrEqual(FIXED_NOW);
		expect(ada.lastSurveyed).toBeGreaterThanOrEqual(FIXED_NOW);
	});

	it(`takes up to ${MAX_SURVEY_EMAILS} emails and answers 400 to ${MAX_SURVEY_EMAILS + 1}`, async () => {
		const emails = (count: number) =>
			Array.from({ length: count }, (_, index) => `emails[]=person${index}@example.com`).join('&');
		expectSurveyRejected(fake(), await survey(emails(101)), 'emails');
		const reply = await survey(emails(100));
		expect(reply.status).toBe(200);
		expect(reply.body.emails_count).toBe(100);
		expect(fake().account.endUsers.size).toBe(100);
		expect(fake().account.emailSurveys[0].emails).toHaveLength(100);
	});

	it.each([
		['no emails at all', 'subject=Hello', 'emails'],
		['an empty email list', 'emails[]=', 'emails'],
		['emails not sent as a list', 'emails=ada@example.com', 'emails[]'],
		['an address without @', 'emails[]=ada@example.com&emails[]=grace.example.com', 'emails'],
		['an address without a domain', 'emails[]=ada@', 'emails'],
		['an address with a space', 'emails[]=ada%20lovelace@example.com', 'emails'],
		[
			'fewer external ids than emails',
			'emails[]=ada@example.com&emails[]=grace@example.com&external_ids[]=crm-1',
			'external_ids',
		],
		[
			'more external ids than emails',
			'emails[]=ada@example.com&external_ids[]=crm-1&external_ids[]=crm-2',
			'external_ids',
		],
		[
			'one external id for two addresses',
			'emails[]=ada@example.com&emails[]=grace@example.com&external_ids[]=crm-1&external_ids[]=crm-1',
			'external_ids',
		],
		[
			'a survey_immediately that is not a boolean',
			'emails[]=ada@example.com&survey_immediately=sometimes',
			'survey_immediately',
		],
		[
			'a malformed reply_to_email',
			'emails[]=ada@example.com&reply_to_email=support',
			'reply_to_email',
		],
		['context not sent as a list of hashes', 'emails[]=ada@example.com&context=Ada', 'context[]'],
		['delay 0', 'emails[]=ada@example.com&delay=0', 'delay'],
		['delay 32', 'emails[]=ada@example.com&delay=32', 'delay'],
		['delay 1.5', 'emails[]=ada@example.com&delay=1.5', 'delay'],
		['delay soon', 'emails[]=ada@example.com&delay=soon', 'delay'],
		[
			'an unknown custom message',
			'emails[]=ada@example.com&survey_settings[custom_messages][thanks_text]=Thanks',
			'survey_settings[custom_messages][thanks_text]',
		],
		[
			'registered_percent 101',
			'emails[]=ada@example.com&survey_settings[sampling][registered_percent]=101',
			'survey_settings[sampling][registered_percent]',
		],
		[
			'registered_percent −1',
			'emails[]=ada@example.com&survey_settings[sampling][registered_percent]=-1',
			'survey_settings[sampling][registered_percent]',
		],
		[
			'a sampling value that is not an integer',
			'emails[]=ada@example.com&survey_settings[sampling][response_throttle]=weekly',
			'survey_settings[sampling][response_throttle]',
		],
		[
			'a negative first_survey_delay',
			'emails[]=ada@example.com&survey_settings[sampling][first_survey_delay]=-3',
			'survey_settings[sampling][first_survey_delay]',
		],
		[
			'an unknown sampling key',
			'emails[]=ada@example.com&survey_settings[sampling][max_surveys]=3',
			'survey_settings[sampling][max_surveys]',
		],
		[
			'an unknown survey template',
			'emails[]=ada@example.com&survey_settings[survey_template_id]=999',
			'survey_settings[survey_template_id]',
		],
	])('answers 400 to %s, creating nothing', async (_case, form, field) => {
		expectSurveyRejected(fake(), await survey(form), field);
	});

	it('answers 400 to an external id another end user already holds', async () => {
		createEndUser(fake().account, fake().store, 'linus@example.com', { externalId: 'crm-1' });
		const reply = await survey('emails[]=ada@example.com&external_ids[]=crm-1');
		expect(reply.status).toBe(400);
		expect(reply.body.errors[0].field).toBe('external_ids');
		expect(emailsOf(fake())).toEqual(['linus@example.com']);
		expect(fake().account.emailSurveys).toEqual([]);
	});

	it.each([
		['delay', '1'],
		['delay', '31'],
		['survey_settings[sampling][registered_percent]', '0'],
		['survey_settings[sampling][registered_percent]', '100'],
	])('accepts %s=%s', async (name, value) => {
		expect((await survey(`emails[]=ada@example.com&${name}=${value}`)).status).toBe(200);
	});

	it('takes the access token as a form parameter, and does not record it', async () => {
		const token = await api().token();
		const reply = await api().send('POST', '/v1/email_survey', {
			form: `access_token=${token}&emails[]=ada@example.com&delay=2`,
			auth: false,
		});
		expect(reply.status).toBe(200);
		expect(fake().account.emailSurveys.map((record) => record.params)).toEqual([
			{ emails: ['ada@example.com'], delay: '2' },
		]);
	});

	it('is a POST endpoint only', async () => {
		expect((await api().get('/v1/email_survey', 'emails[]=ada@example.com')).status).toBe(404);
		expect(fake().account.emailSurveys).toEqual([]);
	});
});
