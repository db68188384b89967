import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { dayRangeFields, readDayRange } from '../../helpers/dates';
import { wootricRequest } from '../../transport';
import type { ItemRequests } from '../types';

export const option = {
	name: 'Get',
	action: 'Get email statistics',
	description:
		'Get how many survey emails were sent, delivered, bounced, opened and answered in a period',
};

export const toolDescription =
	'Get email statistics in Wootric for a period. Returns the survey emails sent, delivered, bounced, opened and answered, as counts and as percentages.';

export const description: INodeProperties[] = dayRangeFields('period');

/**
 * The rates the service sends as preformatted text (`"42.9%"`, `"2 (29%)"`), and the name of each
 * as a number under `percentages`.
 */
const PERCENT_TEXTS: Array<[text: string, number: string]> = [
	['delivered_percentage', 'delivered'],
	['bounce_rate_percentage', 'bounce_rate'],
	['open_rate', 'open_rate'],
	['response_rate', 'response_rate'],
	['not_eligible', 'not_eligible'],
];

/** The percentage in `"42.9%"` or `"2 (29%)"`; null for anything else. */
function percentOf(text: unknown): number | null {
	const match = typeof text === 'string' ? /(-?\d+(?:\.\d+)?)%/.exec(text) : null;
	return match ? Number(match[1]) : null;
}

/**
 * One block of statistics with its percentages also as numbers, and the range's start under its
 * own name (the service's documented example spells it `sart_date`).
 */
function withNumbers(stats: unknown): unknown {
	if (!stats || typeof stats !== 'object') return stats;
	const block = stats as IDataObject;
	const percentages = Object.fromEntries(
		PERCENT_TEXTS.filter(([text]) => text in block).map(([text, name]) => [
			name,
			percentOf(block[text]),
		]),
	);
	const raw = block.raw_results;
	if (!raw || typeof raw !== 'object' || !('sart_date' in raw) || 'start_date' in raw)
		return { ...block, percentages };
	const { sart_date, ...rawResults } = raw as IDataObject;
	return { ...block, raw_results: { ...rawResults, start_date: sart_date }, percentages };
}

/** The blocks of statistics the answer has: the period's, its first sends' and its reminders'. */
const STATS_BLOCKS = ['email_stats', 'initial_send', 'reminder_send'];

/**
 * GET /v2/email_stats with `date_range[start_date]` / `date_range[end_date]`: the statistics of the
 * period, and of its first sends and reminders (null when there are none). One item; no paging.
 */
export function prepare(this: IExecuteFunctions, itemIndex: number): ItemRequests<IDataObject> {
	const { start, end } = readDayRange(this, itemIndex, true);
	const dateRange = { start_date: start, end_date: end };
	return async () => {
		// An empty body, null or a list is no statistics: the transport fails it, naming the endpoint.
		const answer = await wootricRequest<IDataObject>(this, {
			method: 'GET',
			path: '/v2/email_stats',
			answer: 'record',
			query: { date_range: dateRange },
			itemIndex,
		});
		return Object.fromEntries(
			Object.entries(answer).map(([key, value]) => [
				key,
				STATS_BLOCKS.includes(key) ? withNumbers(value) : value,
			]),
		) as IDataObject;
	};
}
