import { FormData } from 'undici';

import { createEndUser, MAX_CSV_ROWS, seedSurveyTemplates } from '../index';
import { emailsOf, expectSurveyRejected, FIXED_NOW, useFakeApi } from './setup';

const { fake, api } = useFakeApi({
	now: FIXED_NOW,
	seed: (started) => seedSurveyTemplates(started.account),
});

/** POST /v1/email_survey_csv with `csv` as a multipart file part, plus form fields. */
function uploadCsv(csv: string, fields: Record<string, string> = {}) {
	const form = new FormData();
	for (const [name, value] of Object.entries(fields)) form.append(name, value);
	form.append('csv', new Blob([csv], { type: 'text/csv' }), 'people.csv');
	return api().postMultipart('/v1/email_survey_csv', form);
}

const base64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

const PEOPLE_CSV = [
	'email,plan,mrr_amount,___context:first_name',
	'ada@example.com,enterprise,1200,Ada',
	'grace@example.com,"pro, annual",300,Grace',
	'',
].join('\n');

const PEOPLE_ROWS = [
	{
		email: 'ada@example.com',
		plan: 'enterprise',
		mrr_amount: '1200',
		'___context:first_name': 'Ada',
	},
	{
		email: 'grace@example.com',
		plan: 'pro, annual',
		mrr_amount: '300',
		'___context:first_name': 'Grace',
	},
];

describe('POST /v1/email_survey_csv: the csv field', () => {
	it('takes the CSV as a multipart file part: 200, the rows recorded, end users created with the custom columns as properties', async () => {
		const reply = await uploadCsv(PEOPLE_CSV, {
			survey_immediately: 'true',
			subject: 'Hi {{first_name}}, how likely are you to recommend us?',
			intro: 'A quick question',
			'survey_settings[product_name]': 'Acme',
		});
		expect(reply.status).toBe(200);
		expect(reply.body).toEqual({ status: 'scheduled', emails_count: 2 });
		expect(fake().account.emailSurveys).toEqual([
			{
				endpoint: 'email_survey_csv',
				receivedAt: expect.any(Number),
				emails: ['ada@example.com', 'grace@example.com'],
				rows: PEOPLE_ROWS,
				fileName: 'people.csv',
				params: {
					survey_immediately: 'true',
					subject: 'Hi {{first_name}}, how likely are you to recommend us?',
					intro: 'A quick question',
					survey_settings: { product_name: 'Acme' },
				},
			},
		]);
		const grace = await api().get('/v1/end_users/grace@example.com', 'lookup_by_email=true');
		expect(grace.status).toBe(200);
		expect(grace.body.properties).toEqual({ plan: 'pro, annual', mrr_amount: '300' });
		expect(grace.body.last_surveyed).toMatch(/^2024-03-10 12:00:\d\d$/);
		expect(fake().account.endUsers.size).toBe(2);
	});

	it('takes the CSV as URL-safe Base64 (RFC 4648 §5, with - and _) in a form field, padded or not', async () => {
		const csv =
			'email,plan,note\nada@example.com,pro,Zürich ~ ok?>\ngrace@example.com,starter,Ünïcödé >>> ???\n';
		const encoded = base64url(csv);
		expect(encoded).toMatch(/-/);
		expect(encoded).toMatch(/_/);
		const rows = [
			{ email: 'ada@example.com', plan: 'pro', note: 'Zürich ~ ok?>' },
			{ email: 'grace@example.com', plan: 'starter', note: 'Ünïcödé >>> ???' },
		];

		const reply = await api().post(
			'/v1/email_survey_csv',
			`csv=${encoded}&survey_immediately=false`,
		);
		expect(reply.status).toBe(200);
		expect(fake().account.emailSurveys[0]).toEqual({
			endpoint: 'email_survey_csv',
			receivedAt: expect.any(Number),
			emails: ['ada@example.com', 'grace@example.com'],
			rows,
			params: { survey_immediately: 'false' },
		});

		expect(encoded.length % 4).toBe(2);
		const padded = await api().post('/v1/email_survey_csv', `csv=${encoded}%3D%3D`);
		expect(padded.status).toBe(200);
		expect(fake().account.emailSurveys[1].rows).toEqual(rows);
		expect(fake().account.endUsers.size).toBe(2);
	});

	it('answers 400 to Base64 in the standard alphabet (+ and /), and to a missing or empty csv', async () => {
		const csv = 'email,plan,note\nada@example.com,pro,Zürich ~ ok?>\n';
		const standard = Buffer.from(csv).toString('base64');
		expect(standard).toMatch(/[+/]/);
		expectSurveyRejected(
			fake(),
			await api().post('/v1/email_survey_csv', `csv=${encodeURIComponent(standard)}`),
			'csv',
		);
		expectSurveyRejected(
			fake(),
			await api().post('/v1/email_survey_csv', 'survey_immediately=true'),
			'csv',
		);
		expectSurveyRejected(fake(), await api().post('/v1/email_survey_csv', 'csv='), 'csv');
	});

	it('takes the access token as a form parameter, and records neither it nor the file', async () => {
		const token = await api().token();
		const reply = await api().send('POST', '/v1/email_survey_csv', {
			form: `access_token=${token}&csv=${base64url(PEOPLE_CSV)}&subject=Hi`,
			auth: false,
		});
		expect(reply.status).toBe(200);
		expect(fake().account.emailSurveys.map((record) => record.params)).toEqual([{ subject: 'Hi' }]);
	});
});

describe('POST /v1/email_survey_csv: the CSV rules', () => {
	const rowsCsv = (count: number) =>
		['email', ...Array.from({ length: count }, (_, index) => `person${index}@example.com`)].join(
			'\n',
		);

	it(`takes ${MAX_CSV_ROWS} rows and answers 400 to ${MAX_CSV_ROWS + 1}`, async () => {
		expectSurveyRejected(
			fake(),
			await uploadCsv(rowsCsv(MAX_CSV_ROWS + 1)),
			'csv',
			new RegExp(`${MAX_CSV_ROWS}`),
		);
		const reply = await uploadCsv(rowsCsv(MAX_CSV_ROWS));
		expect(reply.status).toBe(200);
		expect(reply.body.emails_count).toBe(MAX_CSV_ROWS);
		expect(fake().account.emailSurveys[0].rows).toHaveLength(MAX_CSV_ROWS);
		expect(fake().account.endUsers.size).toBe(MAX_CSV_ROWS);
	});

	it.each([
		[
			'no header row (data from the first line)',
			'ada@example.com,pro\ngrace@example.com,starter\n',
			/email/,
		],
		['an empty file', '', /header/],
		['a header without rows', 'email,plan\n', /rows/],
		['no email column', 'name,plan\nAda,pro\n', /email/],
		['the email column not first', 'plan,email\npro,ada@example.com\n', /email/],
		['another delimiter than the comma', 'email;plan\nada@example.com;pro\n', /email/],
		[
			'an invalid email on row 3',
			'email,plan\nada@example.com,pro\ngrace.example.com,starter\n',
			/row 3\b/,
		],
		['an empty email on row 2', 'email,plan\n,pro\n', /row 2\b/],
		[
			'a row with too few cells (row 2)',
			'email,plan,seats\nada@example.com,pro\ngrace@example.com,pro,3\n',
			/row 2\b/,
		],
		[
			'a row with too many cells (row 3)',
			'email,plan\nada@example.com,pro\ngrace@example.com,pro,3\n',
			/row 3\b/,
		],
		[
			'an unterminated quote',
			'email,plan\nada@example.com,"pro\ngrace@example.com,starter\n',
			/malformed|quote/i,
		],
		[
			'a context column without a variable name',
			'email,___context:\nada@example.com,Ada\n',
			/___context:/,
		],
		[
			'a context variable with a space',
			'email,___context:first name\nada@example.com,Ada\n',
			/___context:first name/,
		],
		[
			'a context variable with a dash',
			'email,___context:first-name\nada@example.com,Ada\n',
			/___context:first-name/,
		],
	])('answers 400 to %s, creating nothing', async (_case, csv, mentions) => {
		expectSurveyRejected(fake(), await uploadCsv(csv), 'csv', mentions);
	});

	it('accepts a byte-order mark and CRLF line ends', async () => {
		const reply = await uploadCsv(
			'\uFEFFemail,plan\r\nada@example.com,pro\r\ngrace@example.com,starter\r\n',
		);
		expect(reply.status).toBe(200);
		expect(fake().account.emailSurveys[0].rows).toEqual([
			{ email: 'ada@example.com', plan: 'pro' },
			{ email: 'grace@example.com', plan: 'starter' },
		]);
		expect(fake().account.endUsers.size).toBe(2);

		const encoded = await api().post(
			'/v1/email_survey_csv',
			`csv=${base64url('\uFEFFemail,plan\r\nlinus@example.com,pro\r\n')}`,
		);
		expect(encoded.status).toBe(200);
		expect(fake().account.emailSurveys[1].rows).toEqual([
			{ email: 'linus@example.com', plan: 'pro' },
		]);
	});

	it('accepts a CSV with the email column only', async () => {
		const reply = await uploadCsv('email\nada@example.com\ngrace@example.com\n');
		expect(reply.status).toBe(200);
		expect(fake().account.emailSurveys[0].rows).toEqual([
			{ email: 'ada@example.com' },
			{ email: 'grace@example.com' },
		]);
	});

	it('reads quoted cells with commas, doubled quotes and line breaks, and skips blank lines', async () => {
		const reply = await uploadCsv(
			'email,note\n"ada@example.com","Said ""wow"", twice"\n\ngrace@example.com,"line one\nline two"\n',
		);
		expect(reply.status).toBe(200);
		expect(fake().account.emailSurveys[0].rows).toEqual([
			{ email: 'ada@example.com', note: 'Said "wow", twice' },
			{ email: 'grace@example.com', note: 'line one\nline two' },
		]);
	});

	it('keeps context columns with the rows but out of the end users’ properties', async () => {
		const reply = await uploadCsv(
			'email,___context:first_name,___context:team,plan\nada@example.com,Ada,Compilers,pro\n',
			{ subject: 'Hi {{first_name}} of {{team}}' },
		);
		expect(reply.status).toBe(200);
		expect(fake().account.emailSurveys[0].rows).toEqual([
			{
				email: 'ada@example.com',
				'___context:first_name': 'Ada',
				'___context:team': 'Compilers',
				plan: 'pro',
			},
		]);
		expect([...fake().account.endUsers.values()][0].properties).toEqual({ plan: 'pro' });
	});

	it('merges custom columns into the properties of end users the account already has', async () => {
		const known = createEndUser(fake().account, fake().store, 'ada@example.com', {
			properties: { plan: 'starter', region: 'EU' },
		});
		const reply = await uploadCsv('email,plan,seats\nada@example.com,enterprise,40\n');
		expect(reply.status).toBe(200);
		expect(emailsOf(fake())).toEqual(['ada@example.com']);
		expect(fake().account.endUsers.get(known.id)!.properties).toEqual({
			plan: 'enterprise',
			region: 'EU',
			seats: '40',
		});
	});
});

describe('POST /v1/email_survey_csv: the language column', () => {
	const LANGUAGE_CSV =
		'email,language,plan\nada@example.com,EN,pro\ngrace@example.com,ES,starter\n';
	const multiLanguage = (templateId: string) => ({
		'survey_settings[language]': 'multi_language',
		'survey_settings[survey_template_id]': templateId,
	});

	it('is taken with survey_settings[language]=multi_language and a template configured for every row’s code', async () => {
		const reply = await uploadCsv(LANGUAGE_CSV, multiLanguage('502'));
		expect(reply.status).toBe(200);
		expect(fake().account.emailSurveys[0]).toMatchObject({
			rows: [
				{ email: 'ada@example.com', language: 'EN', plan: 'pro' },
				{ email: 'grace@example.com', language: 'ES', plan: 'starter' },
			],
			params: { survey_settings: { language: 'multi_language', survey_template_id: '502' } },
		});
		expect([...fake().account.endUsers.values()].map((user) => user.properties)).toEqual([
			{ plan: 'pro' },
			{ plan: 'starter' },
		]);
	});

	it.each([
		['without survey settings', {}, LANGUAGE_CSV, /multi_language/],
		[
			'without a template',
			{ 'survey_settings[language]': 'multi_language' },
			LANGUAGE_CSV,
			/survey_template_id/,
		],
		[
			'with a single language instead of multi_language',
			{ 'survey_settings[language]': 'EN', 'survey_settings[survey_template_id]': '502' },
			LANGUAGE_CSV,
			/multi_language/,
		],
		[
			'with a code the template does not configure (row 3)',
			multiLanguage('502'),
			'email,language\nada@example.com,DE\ngrace@example.com,FR\n',
			/row 3\b/,
		],
		[
			'with a code in the wrong case (row 2)',
			multiLanguage('502'),
			'email,language\nada@example.com,es\n',
			/row 2\b/,
		],
		[
			'with a template that lacks a row’s code (row 3)',
			multiLanguage('501'),
			LANGUAGE_CSV,
			/row 3\b/,
		],
	])('answers 400 %s', async (_case, fields, csv, mentions) => {
		expectSurveyRejected(fake(), await uploadCsv(csv, fields), 'csv', mentions);
	});

	it('answers 400 naming survey_settings[survey_template_id] for an unknown template', async () => {
		const reply = await uploadCsv(LANGUAGE_CSV, multiLanguage('999'));
		expect(reply.status).toBe(400);
		expect(reply.body.errors[0].field).toBe('survey_settings[survey_template_id]');
		expect(fake().account.emailSurveys).toEqual([]);
	});
});
