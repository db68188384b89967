import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { calendarDay, checkStartNotAfterEnd } from '../../helpers/dates';
import { wootricRequest, type ParamHash } from '../../transport';
import type { ItemRequests } from '../types';

export const option = {
	name: 'Get',
	action: 'Get the NPS summary',
	description:
		'Get the NPS score and its promoters, passives, detractors and response rates for a period',
};

export const toolDescription =
	'Get the NPS summary in Wootric for a period (the last month by default). Returns the NPS score, the numbers of promoters, passives and detractors, and the response rates.';

export const description: INodeProperties[] = [
	{
		displayName: 'Start Date',
		name: 'startDate',
		type: 'dateTime',
		default: '',
		description:
			'First day of the period, included. Only the day counts (the time is ignored), in your Wootric account’s time zone. Leave both dates empty for the last month.',
	},
	{
		displayName: 'End Date',
		name: 'endDate',
		type: 'dateTime',
		default: '',
		description:
			'Last day of the period, included. Only the day counts (the time is ignored), in your Wootric account’s time zone. Leave both dates empty for the last month.',
	},
];

/**
 * GET /v1/nps_summary with `date[start]` / `date[end]` as YYYY-MM-DD; no range means the last
 * month.
 */
export function prepare(this: IExecuteFunctions, itemIndex: number): ItemRequests<IDataObject> {
	const start = calendarDay(
		this,
		itemIndex,
		'Start Date',
		this.getNodeParameter('startDate', itemIndex, ''),
	);
	const end = calendarDay(
		this,
		itemIndex,
		'End Date',
		this.getNodeParameter('endDate', itemIndex, ''),
	);
	if (start !== undefined && end !== undefined) checkStartNotAfterEnd(this, itemIndex, start, end);
	const date: ParamHash = {};
	if (start !== undefined) date.start = start;
	if (end !== undefined) date.end = end;
	const query = Object.keys(date).length > 0 ? { date } : undefined;
	return async () =>
		await wootricRequest<IDataObject>(this, {
			method: 'GET',
			path: '/v1/nps_summary',
			query,
			itemIndex,
		});
}
