import { seedDemoData } from '../index';
import { DAY, FIXED_NOW, useFakeApi } from './setup';

const { fake, api } = useFakeApi({ now: FIXED_NOW });

describe('GET /v1/segments', () => {
	it('answers an empty array for an account without segments', async () => {
		const reply = await api().get('/v1/segments');
		expect(reply.status).toBe(200);
		expect(reply.body).toEqual([]);
	});

	it('lists the account’s segments as {name, data_type, created_at}, created_at in the account’s offset', async () => {
		fake().account.segments.push(
			{ name: 'plan', dataType: 'string', createdAt: FIXED_NOW - 2 * DAY },
			{ name: 'renewal_date', dataType: 'date', createdAt: FIXED_NOW - DAY },
			{ name: 'seats', dataType: 'integer', createdAt: FIXED_NOW },
		);
		const reply = await api().get('/v1/segments');
		expect(reply.status).toBe(200);
		expect(reply.body).toEqual([
			{ name: 'plan', data_type: 'string', created_at: '2024-03-08 12:00:00 -0800' },
			{ name: 'renewal_date', data_type: 'date', created_at: '2024-03-09 12:00:00 -0800' },
			{ name: 'seats', data_type: 'integer', created_at: '2024-03-10 12:00:00 -0800' },
		]);

		fake().account.utcOffsetMinutes = 60;
		expect((await api().get('/v1/segments')).body[2]).toEqual({
			name: 'seats',
			data_type: 'integer',
			created_at: '2024-03-10 21:00:00 +0100',
		});
	});

	it('lists the demo segments after seedDemoData', async () => {
		seedDemoData(fake().store, fake().account);
		const reply = await api().get('/v1/segments');
		expect(
			reply.body.map(({ name, data_type }: { name: string; data_type: string }) => [
				name,
				data_type,
			]),
		).toEqual([
			['plan', 'string'],
			['seats', 'integer'],
			['renewal_date', 'date'],
		]);
		for (const segment of reply.body)
			expect(segment.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} -0800$/);
	});

	it('needs authentication', async () => {
		const reply = await api().send('GET', '/v1/segments', { auth: false });
		expect(reply.status).toBe(401);
	});
});

describe('GET /v1/survey_templates', () => {
	it('lists the demo templates after seedDemoData, 501 the default', async () => {
		seedDemoData(fake().store, fake().account);
		const reply = await api().get('/v1/survey_templates');
		expect(reply.status).toBe(200);
		expect(reply.body).toMatchObject({
			default_survey_template_id: 501,
			survey_templates: [
				{ id: 501, languages: [{ code: 'EN' }] },
				{ id: 502, languages: [{ code: 'EN' }, { code: 'ES' }, { code: 'DE' }] },
			],
		});
	});

	it('shows templates and the default as the account holds them', async () => {
		fake().account.surveyTemplates.push({
			id: 77,
			name: 'CSAT',
			defaultLanguage: 'FR',
			languages: [
				{ code: 'FR', name: 'French' },
				{ code: 'EN', name: 'English' },
			],
			nonConfiguredLanguageCount: 5,
		});
		fake().account.defaultSurveyTemplateId = 77;
		const reply = await api().get('/v1/survey_templates');
		expect(reply.body).toEqual({
			default_survey_template_id: 77,
			survey_templates: [
				{
					id: 77,
					name: 'CSAT',
					default_language: 'FR',
					languages: [
						{ code: 'FR', name: 'French' },
						{ code: 'EN', name: 'English' },
					],
					non_configured_language_count: 5,
					custom_samplings: [],
				},
			],
		});
	});

	it('answers an empty list, without a default, for an account without templates', async () => {
		const reply = await api().get('/v1/survey_templates');
		expect(reply.status).toBe(200);
		expect(reply.body).toEqual({ default_survey_template_id: null, survey_templates: [] });
	});

	it('takes the access token as an access_token query parameter', async () => {
		seedDemoData(fake().store, fake().account);
		const token = await api().token();
		const reply = await api().send('GET', '/v1/survey_templates', {
			query: `access_token=${token}`,
			auth: false,
		});
		expect(reply.status).toBe(200);
		expect(reply.body).toEqual((await api().get('/v1/survey_templates')).body);
		expect(
			(
				await api().send('GET', '/v1/survey_templates', {
					query: 'access_token=wrong',
					auth: false,
				})
			).status,
		).toBe(401);
	});
});
