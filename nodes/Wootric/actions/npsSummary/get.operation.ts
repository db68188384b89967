import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { dayRangeFields, readDayRange } from '../../helpers/dates';
import { surveyScaleOf } from '../../helpers/surveyTypes';
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

export const description: INodeProperties[] = dayRangeFields(
	'period',
	'Leave both dates empty for the last month.',
);

/**
 * Wootric has no CSAT or CES summary, and does not say what nps_summary counts for such an account:
 * a CSAT or CES credential's run says so once, beside its output.
 */
export async function hintIfNotNps(context: IExecuteFunctions, itemIndex: number): Promise<void> {
	if (itemIndex !== 0) return;
	const { type, label } = await surveyScaleOf(context);
	if (type === 'nps') return;
	context.addExecutionHints?.({
		message: `The credential's Survey Type is ${label}: Wootric has no summary of such surveys, and what it counts here for them (on NPS's 0–6 / 7–8 / 9–10) is not documented`,
		type: 'warning',
		location: 'outputPane',
	});
}

/** One summary request: GET /v1/nps_summary with `date[start]` / `date[end]` when given. */
export async function requestSummary(
	context: IExecuteFunctions,
	itemIndex: number,
	date: ParamHash,
): Promise<IDataObject> {
	return await wootricRequest<IDataObject>(context, {
		method: 'GET',
		path: '/v1/nps_summary',
		answer: 'record',
		query: Object.keys(date).length > 0 ? { date } : undefined,
		itemIndex,
	});
}

/**
 * GET /v1/nps_summary with `date[start]` / `date[end]` as YYYY-MM-DD; no range means the last
 * month.
 */
export async function prepare(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<ItemRequests<IDataObject>> {
	const { start, end } = readDayRange(this, itemIndex, false);
	await hintIfNotNps(this, itemIndex);
	const date: ParamHash = {};
	if (start !== undefined) date.start = start;
	if (end !== undefined) date.end = end;
	return async () => await requestSummary(this, itemIndex, date);
}
