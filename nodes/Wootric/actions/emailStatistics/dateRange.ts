import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { calendarDay, checkStartNotAfterEnd } from '../../helpers/dates';
import { invalid } from '../../helpers/validation';
import type { ParamHash } from '../../transport';

const dayField = (displayName: string, name: string, which: string): INodeProperties => ({
	displayName,
	name,
	type: 'dateTime',
	default: '',
	required: true,
	description: `${which} day of the period, included. Only the day counts (the time is ignored), in your Wootric account’s time zone.`,
});

/** The period both Get and Request Bounce Report take. */
export const dateRangeFields: INodeProperties[] = [
	dayField('Start Date', 'startDate', 'First'),
	dayField('End Date', 'endDate', 'Last'),
];

/**
 * `date_range[start_date]` / `date_range[end_date]` as YYYY-MM-DD: both days are required (the
 * service documents no default period).
 */
export function readDateRange(context: IExecuteFunctions, itemIndex: number): ParamHash {
	const day = (field: string, name: string) => {
		const value: unknown = context.getNodeParameter(name, itemIndex, '');
		const text = calendarDay(context, itemIndex, field, value);
		if (text === undefined) throw invalid(context, itemIndex, field, 'is required', value);
		return text;
	};
	const start = day('Start Date', 'startDate');
	const end = day('End Date', 'endDate');
	checkStartNotAfterEnd(context, itemIndex, start, end);
	return { start_date: start, end_date: end };
}
