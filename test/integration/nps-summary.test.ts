import {
	addDecline,
	addResponse,
	createEndUser,
	startFakeWootric,
	type FakeWootric,
} from '../fake';
import { pacific, wootricRunner } from '../support/wootric';

/** NPS Summary → Get through n8n's engine against the fake API. */
describe('NPS Summary / Get', () => {
	let fake: FakeWootric;

	beforeEach(async () => {
		fake = await startFakeWootric();
		fake.clock.set(pacific('2026-02-10T12:00:00'));
		const user = createEndUser(fake.account, fake.store, 'ada@example.com');
		const respond = (score: number, at: string, channel: 'email' | 'web' = 'web') =>
			addResponse(fake.account, fake.store, {
				endUserId: user.id,
				score,
				channel,
				createdAt: pacific(at),
				updatedAt: pacific(at),
			});
		respond(10, '2026-01-01T00:30:00', 'email');
		respond(9, '2026-01-15T09:00:00');
		respond(3, '2026-01-31T23:00:00');
		respond(0, '2026-02-01T00:30:00');
		addDecline(fake.account, fake.store, {
			endUserId: user.id,
			createdAt: pacific('2026-01-20T10:00:00'),
		});
	});

	afterEach(async () => await fake.close());

	const run = wootricRunner(() => fake, { resource: 'npsSummary', operation: 'get' });
	const summaryRequests = () => fake.requestsTo('/v1/nps_summary');

	it('sends the range as date[start] / date[end] and outputs the summary as one item', async () => {
		const result = await run({ startDate: '2026-01-01', endDate: '2026-01-31' });

		expect(result.error).toBeUndefined();
		expect(summaryRequests()).toEqual([
			expect.objectContaining({
				method: 'GET',
				path: '/v1/nps_summary',
				rawQuery: 'date[start]=2026-01-01&date[end]=2026-01-31',
				status: 200,
			}),
		]);
		expect(result.items).toEqual([
			{
				json: {
					nps: 33,
					responses: 3,
					detractors: 1,
					passives: 0,
					promoters: 2,
					response_rate: 75,
					email_response_rate: 100,
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	it('sends no parameters when both dates are empty (the API then covers the last month)', async () => {
		const result = await run({ startDate: '', endDate: '' });
		const defaults = await run({});

		expect(result.error).toBeUndefined();
		expect(defaults.error).toBeUndefined();
		expect(summaryRequests().map((request) => request.rawQuery)).toEqual(['', '']);
		// 2026-01-10 to 2026-02-10 in the account's time zone: the responses of the 15th, the 31st and
		// 1 February.
		expect(result.items).toEqual([
			{
				json: expect.objectContaining({ responses: 3, promoters: 1, detractors: 2 }),
				pairedItem: { item: 0 },
			},
		]);
	});

	it('sends only the date that is given', async () => {
		await run({ startDate: '2026-01-15' });
		await run({ endDate: '2026-01-31' });

		expect(summaryRequests().map((request) => request.rawQuery)).toEqual([
			'date[start]=2026-01-15',
			'date[end]=2026-01-31',
		]);
	});

	it.each([
		['an ISO date-time with an offset', '2026-01-01T23:30:00-08:00', '2026-01-31T00:30:00+09:00'],
		['what the date picker stores', '2026-01-01T00:00:00', '2026-01-31T23:59:59'],
		['ISO 8601 UTC with milliseconds', '2026-01-01T00:00:00.000Z', '2026-01-31T23:59:59.999Z'],
		[
			'a Luxon DateTime from an expression, in its own zone',
			"={{ DateTime.fromISO('2026-01-01T23:30:00', { zone: 'America/Los_Angeles' }) }}",
			"={{ DateTime.fromISO('2026-01-31T00:30:00', { zone: 'Asia/Tokyo' }) }}",
		],
	])(
		'keeps the calendar day as written for %s (no shift through UTC)',
		async (_, startDate, endDate) => {
			const result = await run({ startDate, endDate });

			expect(result.error).toBeUndefined();
			expect(summaryRequests().map((request) => request.rawQuery)).toEqual([
				'date[start]=2026-01-01&date[end]=2026-01-31',
			]);
		},
	);

	it('reads a JS Date from an expression as its day in the workflow’s time zone (n8n’s default, America/New_York)', async () => {
		const result = await run({
			startDate: "={{ new Date('2026-01-01T12:00:00Z') }}",
			endDate: "={{ new Date('2026-02-01T03:00:00Z') }}",
		});

		expect(result.error).toBeUndefined();
		expect(summaryRequests().map((request) => request.rawQuery)).toEqual([
			'date[start]=2026-01-01&date[end]=2026-01-31',
		]);
	});

	it('takes a start and an end on the same day', async () => {
		const result = await run({ startDate: '2026-01-15', endDate: '2026-01-15T18:00:00' });

		expect(result.error).toBeUndefined();
		expect(summaryRequests()[0].rawQuery).toBe('date[start]=2026-01-15&date[end]=2026-01-15');
		expect(result.items[0].json).toMatchObject({ responses: 1, promoters: 1, nps: 100 });
	});

	it('stops before any request when the start is after the end, naming the field and the item', async () => {
		const result = await run({ startDate: '2026-02-01', endDate: '2026-01-31' });

		expect(result.error?.message).toBe(
			'Start Date must be on or before the End Date, 2026-01-31 (item 0: got "2026-02-01")',
		);
		expect(result.items).toEqual([]);
		expect(fake.requests).toHaveLength(0);
	});

	it.each([
		['a day/month/year date', '31/01/2026'],
		['a day that does not exist', '2026-02-30'],
		['words', 'last week'],
	])('rejects %s before any request', async (_, endDate) => {
		const result = await run({ startDate: '2026-01-01', endDate });

		expect(result.error?.message).toBe(
			`End Date must be a date like 2026-01-31 (or an ISO date and time) (item 0: got "${endDate}")`,
		);
		expect(fake.requests).toHaveLength(0);
	});

	it('reads the dates per item; with Continue On Fail a bad item gets its error and the others their summary', async () => {
		const result = await run(
			{ startDate: '={{ $json.from }}', endDate: '={{ $json.to }}' },
			{
				continueOnFail: true,
				inputItems: [
					{ json: { from: '2026-01-01', to: '2026-01-31' } },
					{ json: { from: '2026-01-31', to: '2026-01-01' } },
					{ json: { from: '', to: '' } },
				],
			},
		);

		expect(result.error).toBeUndefined();
		expect(summaryRequests().map((request) => request.rawQuery)).toEqual([
			'date[start]=2026-01-01&date[end]=2026-01-31',
			'',
		]);
		expect(result.items).toEqual([
			{ json: expect.objectContaining({ responses: 3, nps: 33 }), pairedItem: { item: 0 } },
			{
				json: {
					error:
						'Start Date must be on or before the End Date, 2026-01-01 (item 1: got "2026-01-31")',
				},
				pairedItem: { item: 1 },
			},
			{ json: expect.objectContaining({ responses: 3 }), pairedItem: { item: 2 } },
		]);
	});
});
