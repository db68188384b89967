import { addResponse, createEndUser, startFakeWootric, type FakeWootric } from '../fake';
import { pacific, wootricRunner } from '../support/wootric';

/**
 * Email Statistics (API v2, not in the spec: API-FACTS, "Email statistics") through n8n's engine
 * against the fake: the exact requests, the outputs, and bad input stopped before any request.
 */
describe('Email Statistics', () => {
	let fake: FakeWootric;

	beforeEach(async () => {
		fake = await startFakeWootric();
		fake.clock.set(pacific('2026-02-10T12:00:00'));
		const answering = createEndUser(fake.account, fake.store, 'a@example.com');
		createEndUser(fake.account, fake.store, 'off@example.com').settings.email_nps = false;
		const send = (at: string, emails: string[], fileName?: string) =>
			fake.account.emailSurveys.push({
				endpoint: fileName ? 'email_survey_csv' : 'email_survey',
				receivedAt: pacific(at),
				emails,
				fileName,
				params: {},
			});
		// January: 7 emails, one to a bouncing address and one to an end user who turned email
		// surveys off; February's send is outside the range.
		send('2026-01-05T10:00:00', [
			'a@example.com',
			'b@bounce.example',
			'c@example.com',
			'off@example.com',
		]);
		send('2026-01-20T09:01:00', ['d@example.com', 'e@example.com', 'f@example.com'], 'january.csv');
		send('2026-02-05T10:00:00', ['g@example.com'], 'february.csv');
		for (const channel of ['email', 'web'] as const)
			addResponse(fake.account, fake.store, {
				endUserId: answering.id,
				score: 9,
				channel,
				createdAt: pacific('2026-01-06T08:00:00'),
			});
	});
	afterEach(async () => await fake.close());

	const run = wootricRunner(() => fake, { resource: 'emailStatistics' });
	const january = { startDate: '2026-01-01', endDate: '2026-01-31T23:00:00' };

	describe('Get', () => {
		it('sends the range as date_range[start_date] / date_range[end_date] and outputs the statistics, percentages also as numbers', async () => {
			const result = await run({ operation: 'get', ...january });

			expect(result.error).toBeUndefined();
			expect(fake.apiRequests()).toEqual([
				expect.objectContaining({
					method: 'GET',
					path: '/v2/email_stats',
					rawQuery: 'date_range[start_date]=2026-01-01&date_range[end_date]=2026-01-31',
					status: 200,
				}),
			]);
			expect(result.items).toEqual([
				{
					json: {
						email_stats: {
							send_requests: 2,
							emails_sent: 7,
							delivered: 5,
							delivered_percentage: '71.4%',
							bounce_rate: 1,
							bounce_rate_percentage: '14.3%',
							open_rate: '20.0%',
							response_rate: '20.0%',
							not_eligible: '1 (14%)',
							send_date: 'Jan 1, 2026 - Jan 31, 2026',
							raw_results: {
								processed: 7,
								bounce: 1,
								dropped: 0,
								delivered: 5,
								opted_out: 1,
								not_delivered: 2,
								open: 1,
								spamreport: 0,
								not_eligible: 1,
								total_surveys: 7,
								total_responses: 1,
								// The documented example's `sart_date`, under its name.
								start_date: '2026-01-01T00:00:00-08:00',
								end_date: '2026-01-31T23:59:59-08:00',
							},
							percentages: {
								delivered: 71.4,
								bounce_rate: 14.3,
								open_rate: 20,
								response_rate: 20,
								not_eligible: 14,
							},
						},
						initial_send: null,
						reminder_send: null,
					},
					pairedItem: { item: 0 },
				},
			]);
		});

		it('gives a percentage the service did not preformat as a number as null, and keeps a start_date the service spells right', async () => {
			fake.replyHooks.push((request, body) => {
				if (request.path !== '/v2/email_stats') return;
				const stats = (body as { email_stats: Record<string, unknown> }).email_stats;
				stats.open_rate = 'n/a';
				const raw = stats.raw_results as Record<string, unknown>;
				raw.start_date = raw.sart_date;
				delete raw.sart_date;
			});

			const result = await run({ operation: 'get', ...january });

			const stats = result.items[0].json.email_stats as Record<string, Record<string, unknown>>;
			expect(stats.percentages).toMatchObject({ open_rate: null, delivered: 71.4 });
			expect(stats.raw_results).toMatchObject({ start_date: '2026-01-01T00:00:00-08:00' });
			expect(stats.raw_results).not.toHaveProperty('sart_date');
		});

		it.each([
			[
				// From an expression: n8n itself stops on a required field left empty.
				'an empty Start Date',
				{ startDate: "={{ '' }}", endDate: '2026-01-31' },
				'Start Date is required (item 0: got "")',
			],
			[
				'an End Date that is no date',
				{ startDate: '2026-01-01', endDate: 'last week' },
				'End Date must be a date like 2026-01-31 (or an ISO date and time) (item 0: got "last week")',
			],
			[
				'a start after the end',
				{ startDate: '2026-02-01', endDate: '2026-01-31' },
				'Start Date must be on or before the End Date, 2026-01-31 (item 0: got "2026-02-01")',
			],
		])(
			'stops on %s before any request, naming the field and the item',
			async (_, dates, message) => {
				const result = await run({ operation: 'get', ...dates });

				expect(result.error?.message).toBe(message);
				expect(fake.requests).toHaveLength(0);
			},
		);

		it('waits out a rate limit and retries a server error on the v2 path, and names it in an error', async () => {
			fake.faults.inject({
				path: '/v2/email_stats',
				fault: { kind: 'rateLimited', resetInSeconds: 1 },
			});
			fake.faults.inject({ path: '/v2/email_stats', fault: { kind: 'status', status: 500 } });

			const recovered = await run({ operation: 'get', ...january });

			expect(recovered.error).toBeUndefined();
			expect(fake.requestsTo('/v2/email_stats').map((request) => request.status)).toEqual([
				429, 500, 200,
			]);

			fake.faults.inject({
				path: '/v2/email_stats/sources',
				fault: { kind: 'status', status: 404 },
			});
			const failed = await run({ operation: 'getSources' });

			expect(failed.error).toMatchObject({
				httpCode: '404',
				message: 'Wootric found nothing at GET /v2/email_stats/sources',
			});
		});

		it.each([
			['an empty body', '', 'nothing'],
			['null', 'null', 'null'],
			['a list', '[]', 'a list'],
		])('an answer of %s is an error naming the item, not a crash', async (_, body, shown) => {
			// On every try: a GET is tried four times.
			fake.faults.inject({ path: '/v2/email_stats', times: 4, fault: { kind: 'answer', body } });

			const result = await run({ operation: 'get', ...january });

			expect(result.error).toMatchObject({
				message: `Wootric answered GET /v2/email_stats with ${shown} where a record belongs`,
				context: { itemIndex: 0 },
			});
		});
	});

	describe('Get Sources', () => {
		it('outputs one item per source: the ongoing channels, then each CSV upload, ids as text', async () => {
			const result = await run({ operation: 'getSources' });

			expect(result.error).toBeUndefined();
			expect(fake.apiRequests()).toEqual([
				expect.objectContaining({
					method: 'GET',
					path: '/v2/email_stats/sources',
					rawQuery: '',
					status: 200,
				}),
			]);
			expect(result.items.map((item) => item.json)).toEqual([
				{ id: 'email_api', name: 'Email API', type: 'ongoing' },
				{ id: 'webhook_trigger', name: 'Webhook trigger', type: 'ongoing' },
				{ id: '1', name: 'january.csv', date: 'Jan 20, 2026  9:01AM', type: 'send' },
				{ id: '2', name: 'february.csv', date: 'Feb 05, 2026 10:00AM', type: 'send' },
			]);
		});
	});

	describe('Request Bounce Report', () => {
		it.each([
			['an ongoing source', 'webhook_trigger'],
			['a CSV upload by its id', '2'],
		])(
			'posts the range and %s form-encoded, and says the report is requested',
			async (_, source) => {
				const result = await run({
					operation: 'requestBounceReport',
					...january,
					reportSource: source,
				});

				expect(result.error).toBeUndefined();
				expect(fake.apiRequests()).toEqual([
					expect.objectContaining({
						method: 'POST',
						path: '/v2/email_stats/bounce_report',
						rawQuery: '',
						rawBody: `date_range[start_date]=2026-01-01&date_range[end_date]=2026-01-31&source=${source}`,
						status: 200,
					}),
				]);
				expect(result.items).toEqual([
					{
						json: {
							success: true,
							start_date: '2026-01-01',
							end_date: '2026-01-31',
							source,
							bounce_report: 'requested',
							hint: expect.stringMatching(/^Wootric emails the report to the user/),
						},
						pairedItem: { item: 0 },
					},
				]);
			},
		);

		it('does not repeat the POST after a server error, and says so', async () => {
			fake.faults.inject({
				path: '/v2/email_stats/bounce_report',
				fault: { kind: 'status', status: 500 },
			});

			const result = await run({
				operation: 'requestBounceReport',
				...january,
				reportSource: 'email_api',
			});

			expect(result.error).toMatchObject({
				httpCode: '500',
				message: 'Wootric had a server error (500) on POST /v2/email_stats/bounce_report',
				description: expect.stringContaining('It was not retried'),
			});
			expect(fake.requestsTo('/v2/email_stats/bounce_report')).toHaveLength(1);
		});

		it('checks every item before sending any: with Continue On Fail a bad Source gets its error naming field and item', async () => {
			const result = await run(
				{ operation: 'requestBounceReport', ...january, reportSource: '={{ $json.source }}' },
				{
					continueOnFail: true,
					inputItems: [{ json: { source: 'email_api' } }, { json: { source: 'csv upload' } }],
				},
			);

			expect(result.error).toBeUndefined();
			expect(fake.apiRequests().map((request) => request.rawBody)).toEqual([
				'date_range[start_date]=2026-01-01&date_range[end_date]=2026-01-31&source=email_api',
			]);
			expect(result.items[1]).toEqual({
				json: {
					error:
						'Source must be email_api, webhook_trigger or the ID of a CSV upload (a whole number) (item 1: got "csv upload")',
				},
				pairedItem: { item: 1 },
			});
		});

		it('stops on a bad Source before any request, without Continue On Fail', async () => {
			const result = await run(
				{ operation: 'requestBounceReport', ...january, reportSource: '={{ $json.source }}' },
				{ inputItems: [{ json: { source: 'email_api' } }, { json: { source: '' } }] },
			);

			expect(result.error?.message).toBe(
				'Source must be email_api, webhook_trigger or the ID of a CSV upload (a whole number) (item 1: got "")',
			);
			expect(fake.requests).toHaveLength(0);
		});
	});
});
