import type { INodeParameters } from 'n8n-workflow';

import { seedSurveyTemplates, startFakeWootric, type FakeWootric } from '../fake';
import { runNode, type InputItem } from '../harness';
import { wootricRunner, VERSION_BEFORE_LOCATORS } from '../support/wootric';

const csvItem = (content: string, fileName = 'people.csv'): InputItem => ({
	json: {},
	binary: { data: { content, fileName, mimeType: 'text/csv' } },
});
const rowsOf = (count: number) =>
	Array.from({ length: count }, (_, index) => [
		`person${index + 1}@example.com`,
		`P${index + 1}`,
		index % 2 ? 'pro' : 'free',
	]);
const csvText = (header: string[], rows: string[][], newline = '\n') =>
	[header, ...rows].map((cells) => cells.join(',')).join(newline) + newline;

/**
 * Email Survey → Send From CSV: POST /v1/email_survey_csv as multipart, in chunks of 5,000 rows,
 * checked first.
 */
describe('Email Survey: Send From CSV', () => {
	let fake: FakeWootric;

	beforeEach(async () => {
		fake = await startFakeWootric();
		seedSurveyTemplates(fake.account);
	});
	afterEach(async () => await fake.close());

	const runSendCsv = wootricRunner(
		() => fake,
		{ resource: 'emailSurvey', operation: 'sendCsv' },
		VERSION_BEFORE_LOCATORS,
	);
	const sendCsv = (
		parameters: INodeParameters,
		inputItems: InputItem[],
		options: { continueOnFail?: boolean } = {},
	) => runSendCsv(parameters, { inputItems, ...options });
	const csvPosts = () => fake.requestsTo('/v1/email_survey_csv', 'POST');
	const header = ['email', '___context:first_name', 'plan'];

	it('sends a 12,001-row file as 3 requests, each with the header, and the service reads every row', async () => {
		const rows = rowsOf(12001);

		const run = await sendCsv(
			{ source: 'binary', subject: 'Hi {{first_name}}', surveyImmediately: true },
			[csvItem(csvText(header, rows))],
		);

		expect(run.error).toBeUndefined();
		expect(csvPosts()).toHaveLength(3);
		for (const request of csvPosts()) {
			expect(request.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
			expect(request.files).toEqual([
				expect.objectContaining({ field: 'csv', filename: 'people.csv' }),
			]);
			expect(request.files[0].content.split('\r\n')[0]).toBe(header.join(','));
			expect(request.body).toEqual({ survey_immediately: 'true', subject: 'Hi {{first_name}}' });
		}
		const received = fake.account.emailSurveys.flatMap((survey) =>
			survey.rows!.map((row) => header.map((column) => row[column])),
		);
		expect(received).toEqual(rows);
		expect(run.items.map(({ json }) => [json.rows, json.request, json.requests])).toEqual([
			[{ from: 1, to: 5000 }, 1, 3],
			[{ from: 5001, to: 10000 }, 2, 3],
			[{ from: 10001, to: 12001 }, 3, 3],
		]);
		expect(run.items[0].pairedItem).toEqual({ item: 0 });
	});

	it("uploads under the binary's own name, the File Name option when set, and surveys.csv for a file without a name", async () => {
		const csv = csvText(header, rowsOf(2));
		const unnamed: InputItem = {
			json: {},
			binary: { data: { content: csv, mimeType: 'text/csv' } },
		};

		const runs = [
			await sendCsv({ source: 'binary', subject: 'Hi' }, [csvItem(csv, 'march-customers.csv')]),
			await sendCsv({ source: 'binary', subject: 'Hi', options: { fileName: 'renamed.csv' } }, [
				csvItem(csv, 'march-customers.csv'),
			]),
			await sendCsv({ source: 'binary', subject: 'Hi' }, [unnamed]),
		];

		expect(runs.map((run) => run.error)).toEqual([undefined, undefined, undefined]);
		expect(csvPosts().map((request) => request.files.map((file) => file.filename))).toEqual([
			['march-customers.csv'],
			['renamed.csv'],
			['surveys.csv'],
		]);
		expect(runs.map((run) => run.items[0].json.file)).toEqual([
			'march-customers.csv',
			'renamed.csv',
			'surveys.csv',
		]);
	});

	it('reads a file with a byte-order mark, CRLF line ends and quoted cells', async () => {
		const text =
			'\uFEFFemail,note\r\n"ada@example.com","says ""hi"", twice"\r\ngrace@example.com,"two\r\nlines"\r\n';

		const run = await sendCsv({ source: 'binary' }, [csvItem(text)]);

		expect(run.error).toBeUndefined();
		expect(fake.account.emailSurveys[0].rows).toEqual([
			{ email: 'ada@example.com', note: 'says "hi", twice' },
			{ email: 'grace@example.com', note: 'two\r\nlines' },
		]);
	});

	it.each([
		['an empty file', '', /is empty/],
		['a header only', 'email,plan\n', /has a header but no rows/],
		['email not first', 'plan,email\npro,a@example.com\n', /must have "email" as its first column/],
		[
			'invalid addresses',
			csvText(['email'], [['a@example.com'], ['nope'], ['b@example.com'], ['also nope']]),
			/has invalid email addresses: row 2 \("nope"\), row 4 \("also nope"\)/,
		],
		[
			'ragged rows',
			'email,plan\na@example.com,pro\nb@example.com\nc@example.com,pro,extra\n',
			/differs from the header's 2: row 2 \(1\), row 3 \(3\)/,
		],
		[
			'an unterminated quote',
			'email,plan\na@example.com,"pro\n',
			/cannot be read: quoted field unterminated at row 1 \(line 2\)/,
		],
		[
			'a quote inside an unquoted cell, in two rows',
			'email,height\r\na@example.com,"tall\r\nish"\r\nb@example.com,5\'11" tall\r\nc@example.com,6"\r\n',
			/cannot be read: a quote inside an unquoted field \(quote the whole cell, and double the quote\) at row 2 \(line 4\); a quote inside an unquoted field \(quote the whole cell, and double the quote\) at row 3 \(line 5\)$/,
		],
		[
			'text after a closing quote',
			'email,plan\n"a@example.com"x,pro\n',
			/cannot be read: text after the closing quote of a quoted field at row 1 \(line 2\)/,
		],
		[
			'a bad context column',
			'email,___context:first name\na@example.com,x\n',
			/___context:first name.*letters, digits and _/,
		],
		['a duplicate column', 'email,plan,plan\na@example.com,x,y\n', /has the column "plan" twice/],
		[
			'a placeholder without its column',
			csvText(['email'], [['a@example.com']]),
			/Subject\/Intro use placeholders the CSV has no "___context:…" column for: first_name/,
			{ subject: 'Hi {{first_name}}' },
		],
		[
			'a language column without Multi-Language',
			csvText(['email', 'language'], [['a@example.com', 'EN']]),
			/Language must be Multi-Language, with a Survey Template chosen/,
		],
		[
			'Multi-Language without a language column',
			csvText(['email'], [['a@example.com']]),
			/Multi-Language needs a "language" column/,
			{ language: 'multi_language', surveyTemplateId: 502 },
		],
		[
			'Start at Row past the end',
			csvText(['email'], [['a@example.com']]),
			/Start at Row must be a whole number from 1 to 1/,
			{ options: { startAtRow: 2 } },
		],
	] as Array<[string, string, RegExp, INodeParameters?]>)(
		'rejects %s before sending anything',
		async (_, text, message, parameters = {}) => {
			const run = await sendCsv({ source: 'binary', ...parameters }, [csvItem(text)]);

			expect(run.error?.message).toMatch(message);
			expect(run.error).toMatchObject({ context: { itemIndex: 0 } });
			expect(fake.apiRequests()).toEqual([]);
		},
	);

	it('rejects language codes the template does not have, naming rows and the allowed codes, and sends no survey', async () => {
		const text = csvText(
			['email', 'language'],
			[
				['a@example.com', 'EN'],
				['b@example.com', 'FR'],
				['c@example.com', 'ES'],
				['d@example.com', 'FR'],
			],
		);

		const run = await sendCsv(
			{ source: 'binary', language: 'multi_language', surveyTemplateId: 502 },
			[csvItem(text)],
		);

		expect(run.error?.message).toMatch(
			/holds codes the survey template does not have: "FR" \(rows 2, 4\)\. Allowed: EN, ES, DE\b/,
		);
		expect(fake.apiRequests().map((request) => request.path)).toEqual(['/v1/survey_templates']);
	});

	it('sends a language column with Multi-Language and its template', async () => {
		const text = csvText(
			['email', 'language'],
			[
				['a@example.com', 'EN'],
				['b@example.com', 'ES'],
			],
		);

		const run = await sendCsv(
			{ source: 'binary', language: 'multi_language', surveyTemplateId: 502 },
			[csvItem(text)],
		);

		expect(run.error).toBeUndefined();
		expect(csvPosts()[0].body).toEqual({
			survey_settings: { language: 'multi_language', survey_template_id: '502' },
		});
	});

	it.each([
		['a string', 'EN', 'none (the template lists no language Wootric’s answer could read)'],
		[
			'a record',
			{ EN: 'English' },
			'none (the template lists no language Wootric’s answer could read)',
		],
		['a list with null', [null, { code: 'EN', name: 'English' }], 'EN'],
	])(
		'checks a language column against a template whose languages are %s, and sends no survey for a code it cannot read',
		async (_, languages, allowed) => {
			fake.faults.inject({
				path: '/v1/survey_templates',
				fault: {
					kind: 'mangle',
					mangle: (body) => {
						for (const template of (body as { survey_templates: Array<Record<string, unknown>> })
							.survey_templates)
							template.languages = languages;
						return body;
					},
				},
			});
			const text = csvText(['email', 'language'], [['a@example.com', 'ES']]);

			const run = await sendCsv(
				{ source: 'binary', language: 'multi_language', surveyTemplateId: 502 },
				[csvItem(text)],
			);

			expect(run.error?.message).toBe(
				`CSV language column holds codes the survey template does not have: "ES" (row 1). Allowed: ${allowed} (item 0: got ["ES"])`,
			);
			expect(csvPosts()).toEqual([]);
		},
	);

	it('says the binary field is missing', async () => {
		const run = await sendCsv({ source: 'binary', binaryPropertyName: 'file' }, [
			csvItem('email\na@example.com\n'),
		]);

		expect(run.error?.message).toMatch(/file/);
		expect(fake.apiRequests()).toEqual([]);
	});

	it('builds one CSV from the items; the service reads back exactly their fields', async () => {
		const people = [
			{ email: 'ada@example.com', first: 'Ada, "the first"', plan: 'pro\nplus', lang: 'EN' },
			{ email: 'jose@example.com', first: 'José 😀', plan: 'free', lang: 'ES' },
		];

		const run = await sendCsv(
			{
				source: 'items',
				csvEmail: '={{ $json.email }}',
				csvLanguage: '={{ $json.lang }}',
				csvContext: { columns: [{ name: 'first_name', value: '={{ $json.first }}' }] },
				csvProperties: { columns: [{ name: 'plan', value: '={{ $json.plan }}' }] },
				language: 'multi_language',
				surveyTemplateId: 502,
				intro: 'Hello {{first_name}}',
			},
			people.map((json) => ({ json })),
		);

		expect(run.error).toBeUndefined();
		expect(fake.account.emailSurveys[0].rows).toEqual(
			people.map((person) => ({
				email: person.email,
				language: person.lang,
				'___context:first_name': person.first,
				plan: person.plan,
			})),
		);
		expect(run.items).toHaveLength(1);
		expect(csvPosts()[0].files.map((file) => file.filename)).toEqual(['surveys.csv']);
		expect(run.items[0].pairedItem).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('building from items: a bad item stops the run naming it, or with Continue On Fail gets its error while the others are sent', async () => {
		const people = [
			{ email: 'ada@example.com' },
			{ email: 'not an address' },
			{ email: 'grace@example.com' },
		].map((json) => ({ json }));
		const parameters = { source: 'items', csvEmail: '={{ $json.email }}' };

		const stopped = await sendCsv(parameters, people);
		expect(stopped.error?.message).toBe(
			'Email must be an email address like name@example.com (item 1: got "not an address")',
		);
		expect(fake.apiRequests()).toEqual([]);

		const run = await sendCsv(parameters, people, { continueOnFail: true });

		expect(fake.account.emailSurveys.map((survey) => survey.rows?.map((row) => row.email))).toEqual(
			[['ada@example.com', 'grace@example.com']],
		);
		expect(run.items.map(({ json, pairedItem }) => [json.error ?? json.rows, pairedItem])).toEqual([
			[
				'Email must be an email address like name@example.com (item 1: got "not an address")',
				{ item: 1 },
			],
			[{ from: 1, to: 2 }, [{ item: 0 }, { item: 2 }]],
		]);
	});

	it('stops at a failed chunk, says which rows were sent, and resumes with Start at Row', async () => {
		const rows = rowsOf(12001);
		const item = csvItem(csvText(header, rows));
		fake.faults.inject({
			method: 'POST',
			path: '/v1/email_survey_csv',
			when: () => csvPosts().length === 2,
			fault: { kind: 'status', status: 502 },
		});

		const failed = await sendCsv({ source: 'binary' }, [item]);

		expect(failed.error?.message).toBe(
			'CSV request 2 of 3 (rows 5001–10000) failed: Wootric had a server error (502) on POST /v1/email_survey_csv',
		);
		expect(failed.error?.description).toContain(
			'Sent: rows 1–5000. Not sent: rows 5001–12001. To resume, set Start at Row to 5001.',
		);
		expect(csvPosts()).toHaveLength(2);

		const resumed = await sendCsv({ source: 'binary', options: { startAtRow: 5001 } }, [item]);

		expect(resumed.error).toBeUndefined();
		const received = fake.account.emailSurveys.flatMap((survey) =>
			survey.rows!.map((row) => row.email),
		);
		expect(received).toEqual(rows.map(([email]) => email));
	});

	it('sends an upload again once when its token had expired, since the service refused it unread', async () => {
		const first = await sendCsv({ source: 'binary' }, [csvItem('email\na@example.com\n')]);
		fake.store.expireAccessTokens();

		const second = await runNode({
			nodeType: 'wootric',
			nodeTypeVersion: VERSION_BEFORE_LOCATORS,
			parameters: { resource: 'emailSurvey', operation: 'sendCsv', source: 'binary' },
			inputItems: [csvItem('email\nb@example.com\n')],
			credentialsHelper: first.credentialsHelper,
			credentialId: first.credentialId,
		});

		expect(second.error).toBeUndefined();
		expect(csvPosts().map((request) => request.status)).toEqual([200, 401, 200]);
		expect(fake.account.emailSurveys.map((survey) => survey.emails)).toEqual([
			['a@example.com'],
			['b@example.com'],
		]);
	});
});
