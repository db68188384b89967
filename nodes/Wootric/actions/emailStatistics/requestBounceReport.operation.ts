import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { dayRangeFields, readDayRange } from '../../helpers/dates';
import { successRecord } from '../../helpers/output';
import { invalid } from '../../helpers/validation';
import { wootricRequest } from '../../transport';
import type { ItemRequests } from '../types';

export const option = {
	name: 'Request Bounce Report',
	action: 'Request a bounce report',
	description: 'Ask Wootric to email a report of the survey emails that bounced in a period',
};

export const toolDescription =
	'Request a bounce report in Wootric: Wootric emails the bounced survey emails of a period and source to the account. Returns the period, the source and that the report is requested.';

const HINT =
	'Wootric emails the report to the user the credential signs in as (the account owner for a client ID and secret)';

/** The always-on sources; a CSV upload's is its whole-number ID. */
const ONGOING_SOURCES = ['email_api', 'webhook_trigger'];

export const description: INodeProperties[] = [
	...dayRangeFields('period'),
	{
		displayName: 'Source',
		// Not `source`: Email Survey → Send CSV has an options field of that name.
		name: 'reportSource',
		type: 'string',
		default: 'email_api',
		required: true,
		description:
			'Where the emails came from: email_api, webhook_trigger, or the ID of a CSV upload (Get Sources lists them)',
	},
	{
		displayName: `The report is not returned here: ${HINT}.`,
		name: 'bounceReportNotice',
		type: 'notice',
		default: '',
	},
];

function readSource(context: IExecuteFunctions, itemIndex: number): string {
	const value: unknown = context.getNodeParameter('reportSource', itemIndex, '');
	const source = String(value ?? '').trim();
	if (ONGOING_SOURCES.includes(source) || /^\d+$/.test(source)) return source;
	throw invalid(
		context,
		itemIndex,
		'Source',
		'must be email_api, webhook_trigger or the ID of a CSV upload (a whole number)',
		value,
	);
}

/**
 * POST /v2/email_stats/bounce_report with `date_range[...]` and `source`, form-encoded: the service
 * answers null and emails the report.
 */
export function prepare(this: IExecuteFunctions, itemIndex: number): ItemRequests<IDataObject> {
	const { start, end } = readDayRange(this, itemIndex, true);
	const dateRange = { start_date: start, end_date: end };
	const source = readSource(this, itemIndex);
	return async () => {
		await wootricRequest(this, {
			method: 'POST',
			path: '/v2/email_stats/bounce_report',
			form: { date_range: dateRange, source },
			itemIndex,
		});
		return successRecord({ ...dateRange, source, bounce_report: 'requested', hint: HINT });
	};
}
