import type { INodeParameters } from 'n8n-workflow';

import {
	addDecline,
	addResponse,
	createEndUser,
	startFakeWootric,
	type FakeWootric,
} from '../fake';
import { EXAMPLES_FOLDER } from '../../scripts/e2e/paths';
import { readWorkflows } from '../../scripts/e2e/workflow-files';
import { runNode } from '../harness';
import { credentialsFor, wootricRunner } from '../support/wootric';

/** A local time of the fake account (UTC-08:00) as UNIX seconds. */
const pacific = (isoLocal: string) => Date.parse(`${isoLocal}-08:00`) / 1000;

/** `date[start]=…&date[end]=…`, the query of one period's summary request. */
const range = (start: string, end: string) => `date[start]=${start}&date[end]=${end}`;

/**
 * One period's expected record, with its responses counted by category (none unless given); they
 * all come from the web channel, so no email response rate.
 */
const period = (
	start: string,
	end: string,
	partial: boolean,
	counts: { promoters?: number; detractors?: number },
	nps: number | null,
	npsChange: number | null,
) => {
	const { promoters = 0, detractors = 0 } = counts;
	const responses = promoters + detractors;
	return {
		start,
		end,
		partial,
		nps,
		responses,
		detractors,
		passives: 0,
		promoters,
		response_rate: responses > 0 ? 100 : 0,
		email_response_rate: 0,
		nps_change: npsChange,
		no_responses: responses === 0,
	};
};

/** NPS Summary → Get Trend through n8n's engine against the fake API. */
describe('NPS Summary / Get Trend', () => {
	let fake: FakeWootric;

	beforeEach(async () => {
		fake = await startFakeWootric();
		fake.clock.set(pacific('2026-03-20T12:00:00'));
		const user = createEndUser(fake.account, fake.store, 'ada@example.com');
		const respond = (score: number, at: string) =>
			addResponse(fake.account, fake.store, {
				endUserId: user.id,
				score,
				createdAt: pacific(at),
				updatedAt: pacific(at),
			});
		respond(10, '2026-01-22T10:00:00');
		// 07:30 UTC on 1 February, still 31 January in the account's time zone.
		respond(3, '2026-01-31T23:30:00');
		respond(9, '2026-02-01T00:30:00');
		// The week of 2 February has a decline and no response.
		addDecline(fake.account, fake.store, {
			endUserId: user.id,
			createdAt: pacific('2026-02-04T10:00:00'),
		});
		respond(10, '2026-02-10T09:00:00');
	});

	afterEach(async () => await fake.close());

	const run = wootricRunner(() => fake, { resource: 'npsSummary', operation: 'trend' });
	const summaryQueries = () => fake.requestsTo('/v1/nps_summary').map((call) => call.rawQuery);

	it('splits the range into weeks from Monday, one request each, the first and last cut to the range', async () => {
		const result = await run({ startDate: '2026-01-21', endDate: '2026-02-11', period: 'week' });

		expect(result.error).toBeUndefined();
		expect(summaryQueries()).toEqual([
			range('2026-01-21', '2026-01-25'),
			// A week across the month's end is one period.
			range('2026-01-26', '2026-02-01'),
			range('2026-02-02', '2026-02-08'),
			range('2026-02-09', '2026-02-11'),
		]);
		expect(result.items).toEqual(
			[
				period('2026-01-21', '2026-01-25', true, { promoters: 1 }, 100, null),
				// A real 0: one promoter and one detractor.
				period('2026-01-26', '2026-02-01', false, { promoters: 1, detractors: 1 }, 0, -100),
				// Its decline makes a response rate of 0; there is no NPS.
				period('2026-02-02', '2026-02-08', false, {}, null, null),
				// No change from a period without an NPS.
				period('2026-02-09', '2026-02-11', true, { promoters: 1 }, 100, null),
			].map((json) => ({ json, pairedItem: { item: 0 } })),
		);
	});

	it('splits into calendar months, each counted in the account’s time zone', async () => {
		const result = await run({ startDate: '2026-01-01', endDate: '2026-02-28', period: 'month' });

		expect(result.error).toBeUndefined();
		expect(summaryQueries()).toEqual([
			range('2026-01-01', '2026-01-31'),
			range('2026-02-01', '2026-02-28'),
		]);
		// The 3 of 31 January at 23:30 in the account's zone (1 February in UTC) is January's.
		expect(result.items.map((item) => item.json)).toEqual([
			expect.objectContaining({
				start: '2026-01-01',
				end: '2026-01-31',
				partial: false,
				responses: 2,
				detractors: 1,
				nps: 0,
				nps_change: null,
			}),
			expect.objectContaining({
				start: '2026-02-01',
				end: '2026-02-28',
				partial: false,
				responses: 2,
				promoters: 2,
				nps: 100,
				nps_change: 100,
			}),
		]);
	});

	it('gives one period per day', async () => {
		const result = await run({ startDate: '2026-01-31', endDate: '2026-02-02', period: 'day' });

		expect(result.error).toBeUndefined();
		expect(summaryQueries()).toEqual([
			range('2026-01-31', '2026-01-31'),
			range('2026-02-01', '2026-02-01'),
			range('2026-02-02', '2026-02-02'),
		]);
		expect(result.items.map(({ json }) => [json.nps, json.nps_change, json.no_responses])).toEqual([
			[-100, null, false],
			[100, 200, false],
			[null, null, true],
		]);
	});

	it.each([
		[
			'weeks across the spring change, from Luxon dates in the account’s zone',
			"={{ DateTime.fromISO('2026-03-02T00:00:00', { zone: 'America/Los_Angeles' }) }}",
			"={{ DateTime.fromISO('2026-03-15T23:30:00', { zone: 'America/Los_Angeles' }) }}",
			'week',
			[range('2026-03-02', '2026-03-08'), range('2026-03-09', '2026-03-15')],
		],
		[
			'days across the spring change (8 March 2026 has 23 hours)',
			'2026-03-07',
			'2026-03-09',
			'day',
			[
				range('2026-03-07', '2026-03-07'),
				range('2026-03-08', '2026-03-08'),
				range('2026-03-09', '2026-03-09'),
			],
		],
		[
			'days across the autumn change (1 November 2026 has 25 hours), from JS Dates',
			"={{ new Date('2026-10-31T12:00:00Z') }}",
			"={{ new Date('2026-11-02T12:00:00Z') }}",
			'day',
			[
				range('2026-10-31', '2026-10-31'),
				range('2026-11-01', '2026-11-01'),
				range('2026-11-02', '2026-11-02'),
			],
		],
		[
			'months across both changes',
			'2026-03-01',
			'2026-11-30',
			'month',
			[
				range('2026-03-01', '2026-03-31'),
				range('2026-04-01', '2026-04-30'),
				range('2026-05-01', '2026-05-31'),
				range('2026-06-01', '2026-06-30'),
				range('2026-07-01', '2026-07-31'),
				range('2026-08-01', '2026-08-31'),
				range('2026-09-01', '2026-09-30'),
				range('2026-10-01', '2026-10-31'),
				range('2026-11-01', '2026-11-30'),
			],
		],
	])(
		'keeps whole calendar days over a daylight-saving change: %s',
		async (_, startDate, endDate, period, queries) => {
			const result = await runNode({
				nodeType: 'wootric',
				parameters: { resource: 'npsSummary', operation: 'trend', startDate, endDate, period },
				credentials: credentialsFor(fake),
				timezone: 'America/Los_Angeles',
			});

			expect(result.error).toBeUndefined();
			expect(summaryQueries()).toEqual(queries);
			expect(result.items.every(({ json }) => json.partial === false)).toBe(true);
		},
	);

	it('takes 100 periods, and stops before any request at 101, naming the field and the item', async () => {
		const allowed = await run({ startDate: '2026-01-01', endDate: '2026-04-10', period: 'day' });
		expect(allowed.error).toBeUndefined();
		expect(allowed.items).toHaveLength(100);
		const sentBefore = fake.requests.length;

		const result = await run({ startDate: '2026-01-01', endDate: '2026-04-11', period: 'day' });

		expect(result.error?.message).toBe(
			'Start Date is more than 100 days before the End Date, 2026-04-11: a trend has at most 100 periods (one request each), so choose a later start or a longer Period (item 0: got "2026-01-01")',
		);
		expect(result.items).toEqual([]);
		expect(fake.requests).toHaveLength(sentBefore);
	});

	// n8n itself stops a run whose required field is left empty; an expression can still be empty.
	it.each([
		['Start Date', { startDate: '={{ $json.missing }}', endDate: '2026-02-01' }],
		['End Date', { startDate: '2026-02-01', endDate: '={{ "" }}' }],
	])('requires the %s, before any request', async (field, parameters) => {
		const result = await run(parameters);

		expect(result.error?.message).toMatch(new RegExp(`^${field} is required \\(item 0: got `));
		expect(fake.requests).toHaveLength(0);
	});

	it('takes a Period only of day, week or month, before any request', async () => {
		const result = await run({
			startDate: '2026-01-01',
			endDate: '2026-12-31',
			period: '={{ "year" }}',
		});

		expect(result.error?.message).toBe('Period must be day, week or month (item 0: got "year")');
		expect(fake.requests).toHaveLength(0);
	});

	it('stops before any request when the start is after the end', async () => {
		const result = await run({ startDate: '2026-02-01', endDate: '2026-01-31' });

		expect(result.error?.message).toBe(
			'Start Date must be on or before the End Date, 2026-01-31 (item 0: got "2026-02-01")',
		);
		expect(fake.requests).toHaveLength(0);
	});

	it('waits for the rate limit between periods instead of exceeding it', async () => {
		fake.rateLimits.set('GET /v1/nps_summary', 2, 1);

		const result = await run({ startDate: '2026-01-05', endDate: '2026-02-01', period: 'week' });

		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(4);
		expect(fake.requestsTo('/v1/nps_summary').map((call) => call.status)).toEqual([
			200, 200, 200, 200,
		]);
	});

	it('with Continue On Fail gives a bad item its error and the others their periods, paired', async () => {
		const result = await run(
			{ startDate: '={{ $json.from }}', endDate: '={{ $json.to }}', period: 'month' },
			{
				continueOnFail: true,
				inputItems: [
					{ json: { from: '2026-01-01', to: '2026-01-31' } },
					{ json: { from: '2000-01-01', to: '2026-01-31' } },
					{ json: { from: '2026-02-01', to: '2026-02-28' } },
				],
			},
		);

		expect(result.error).toBeUndefined();
		expect(summaryQueries()).toEqual([
			range('2026-01-01', '2026-01-31'),
			range('2026-02-01', '2026-02-28'),
		]);
		expect(
			result.items.map(({ json, pairedItem }) => [json.start ?? json.error, pairedItem]),
		).toEqual([
			['2026-01-01', { item: 0 }],
			[
				'Start Date is more than 100 months before the End Date, 2026-01-31: a trend has at most 100 periods (one request each), so choose a later start or a longer Period (item 1: got "2000-01-01")',
				{ item: 1 },
			],
			['2026-02-01', { item: 2 }],
		]);
	});

	it('runs the example "Weekly NPS trend report": the 12 whole weeks before this one, Monday to Sunday', async () => {
		const trendNode = readWorkflows(EXAMPLES_FOLDER)
			.find((workflow) => workflow.id === 'exWeeklyNpsTrend')
			?.nodes.find((node) => node.parameters.operation === 'trend');

		const result = await run((trendNode?.parameters ?? {}) as INodeParameters);

		expect(result.error).toBeUndefined();
		const weeks = result.items.map(({ json }) => [json.start, json.end, json.partial]);
		expect(weeks).toHaveLength(12);
		const dayAfter = (day: unknown, days: number) =>
			new Date(Date.parse(`${String(day)}T00:00:00Z`) + days * 86400000).toISOString().slice(0, 10);
		weeks.forEach(([start, end, partial], index) => {
			expect(new Date(`${String(start)}T00:00:00Z`).getUTCDay()).toBe(1);
			expect([end, partial]).toEqual([dayAfter(start, 6), false]);
			if (index > 0) expect(start).toBe(dayAfter(weeks[index - 1][1], 1));
		});
		expect(summaryQueries()).toEqual(
			weeks.map(([start, end]) => range(String(start), String(end))),
		);
	});
});
