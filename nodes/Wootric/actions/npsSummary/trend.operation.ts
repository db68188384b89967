import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { dayRangeFields, readDayRange } from '../../helpers/dates';
import { invalid } from '../../helpers/validation';
import type { ItemRequests } from '../types';
import { hintIfNotNps, requestSummary } from './get.operation';

/** One request per period: a long range at a short period would take hours of rate limit. */
export const MAX_TREND_PERIODS = 100;

const PERIOD_UNITS = ['day', 'week', 'month'] as const;
type PeriodUnit = (typeof PERIOD_UNITS)[number];

export const option = {
	name: 'Get Trend',
	action: 'Get the NPS trend',
	description:
		'Get the NPS summary of each day, week or month of a date range, with the change from the period before',
};

export const toolDescription =
	'Get the NPS trend in Wootric: the NPS of each day, week or month of a date range. Returns one record per period: its days, NPS (null without responses), change from the period before and counts.';

export const description: INodeProperties[] = [
	...dayRangeFields('range'),
	{
		displayName: 'Period',
		name: 'period',
		type: 'options',
		options: [
			{ name: 'Day', value: 'day', description: 'One item per calendar day' },
			{
				name: 'Week (Monday to Sunday)',
				value: 'week',
				description: 'One item per week, from Monday to Sunday',
			},
			{ name: 'Month', value: 'month', description: 'One item per calendar month' },
		],
		default: 'week',
		description: `What each output item covers: one summary request per period, at most ${MAX_TREND_PERIODS}. A range that starts or ends inside a week or month gives a shorter first or last period (marked partial).`,
	},
];

/** Calendar days as `YYYY-MM-DD`, counted in UTC so that no clock change can add or lose one. */
const dayOf = (date: Date) => date.toISOString().slice(0, 10);
const dateOf = (day: string) => new Date(`${day}T00:00:00Z`);
const addDays = (day: string, days: number) => {
	const date = dateOf(day);
	date.setUTCDate(date.getUTCDate() + days);
	return dayOf(date);
};

/** The first and last days of the day, week (Monday first) or month holding `day`. */
function periodAround(day: string, unit: PeriodUnit): { first: string; last: string } {
	if (unit === 'day') return { first: day, last: day };
	const date = dateOf(day);
	if (unit === 'week') {
		const first = addDays(day, -((date.getUTCDay() + 6) % 7));
		return { first, last: addDays(first, 6) };
	}
	const year = date.getUTCFullYear();
	const month = date.getUTCMonth();
	return {
		first: dayOf(new Date(Date.UTC(year, month, 1))),
		last: dayOf(new Date(Date.UTC(year, month + 1, 0))),
	};
}

interface Period {
	start: string;
	end: string;
	/** The range cuts the period: it starts after the period's first day or ends before its last. */
	partial: boolean;
}

/**
 * The periods of `unit` from `start` to `end` (both included), cut to the range. Stops after
 * MAX_TREND_PERIODS + 1, enough to tell a range that has too many.
 */
function periodsOf(start: string, end: string, unit: PeriodUnit): Period[] {
	const periods: Period[] = [];
	for (let day = start; day <= end && periods.length <= MAX_TREND_PERIODS; ) {
		const { first, last } = periodAround(day, unit);
		const periodEnd = last < end ? last : end;
		periods.push({ start: day, end: periodEnd, partial: day !== first || periodEnd !== last });
		day = addDays(last, 1);
	}
	return periods;
}

/**
 * One record per period, in order. The API answers nps 0 for a period without responses; that
 * becomes null (with `no_responses: true`), and so does the change from or to such a period.
 */
function trendRecord(period: Period, summary: IDataObject, before: IDataObject | undefined) {
	const noResponses = summary.responses === 0;
	const nps = noResponses ? null : (summary.nps as number);
	const npsBefore = before?.nps;
	return {
		start: period.start,
		end: period.end,
		partial: period.partial,
		...summary,
		nps,
		nps_change: nps !== null && typeof npsBefore === 'number' ? nps - npsBefore : null,
		no_responses: noResponses,
	};
}

/**
 * GET /v1/nps_summary once per period with its `date[start]` / `date[end]`, one after the other
 * through the transport (which waits out the rate limit). The number of periods is checked before
 * anything is sent.
 */
export async function prepare(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<ItemRequests<IDataObject[]>> {
	const { start, end } = readDayRange(this, itemIndex, true);
	const unit = this.getNodeParameter('period', itemIndex, 'week') as PeriodUnit;
	// An expression can give any text.
	if (!PERIOD_UNITS.includes(unit))
		throw invalid(this, itemIndex, 'Period', 'must be day, week or month', unit);
	const periods = periodsOf(start, end, unit);
	if (periods.length > MAX_TREND_PERIODS)
		throw invalid(
			this,
			itemIndex,
			'Start Date',
			`is more than ${MAX_TREND_PERIODS} ${unit}s before the End Date, ${end}: a trend has at most ${MAX_TREND_PERIODS} periods (one request each), so choose a later start or a longer Period`,
			start,
		);
	await hintIfNotNps(this, itemIndex);
	return async () => {
		const records: IDataObject[] = [];
		for (const period of periods) {
			const summary = await requestSummary(this, itemIndex, {
				start: period.start,
				end: period.end,
			});
			records.push(trendRecord(period, summary, records.at(-1)));
		}
		return records;
	};
}
