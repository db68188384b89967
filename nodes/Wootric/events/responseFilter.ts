import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { NpsCategory } from '../helpers/records';
import { integerValue, invalid, type ValueContext } from '../helpers/validation';
import type { ResponseFilter } from './index';

/**
 * What both triggers, the polling one and the webhook one, show and read alike, so that a workflow
 * can move from one to the other unchanged: the response filters and Simplify.
 */
export const RESPONSE_FILTERS: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	description: 'Which responses start the workflow; declines have no score and are not filtered',
	options: [
		{
			displayName: 'Include Excluded From Calculations',
			name: 'includeExcluded',
			type: 'boolean',
			default: false,
			description: 'Whether to include responses excluded from NPS calculations (invalidated)',
		},
		{
			displayName: 'Maximum Score',
			name: 'maxScore',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 10 },
			default: 10,
			description: 'Only responses with this score or lower',
		},
		{
			displayName: 'Minimum Score',
			name: 'minScore',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 10 },
			default: 0,
			description: 'Only responses with this score or higher',
		},
		{
			displayName: 'NPS Category',
			name: 'categories',
			type: 'multiOptions',
			options: [
				{ name: 'Detractor (0–6)', value: 'detractor', description: 'Scores 0 to 6' },
				{ name: 'Passive (7–8)', value: 'passive', description: 'Scores 7 and 8' },
				{ name: 'Promoter (9–10)', value: 'promoter', description: 'Scores 9 and 10' },
			],
			default: [],
			description: 'Only responses of these categories; none chosen means all',
		},
		{
			displayName: 'Only With a Comment',
			name: 'onlyWithComment',
			type: 'boolean',
			default: false,
			description: 'Whether to skip responses that have a score but no comment',
		},
	],
};

export const SIMPLIFY_OPTION: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: false,
	description: 'Whether to add nps_category to responses and turn every datetime into ISO 8601 UTC',
};

/** The Filters collection as a ResponseFilter; a score out of range or an empty range is refused. */
export function readResponseFilter(context: ValueContext, filters: IDataObject): ResponseFilter {
	const minScore = integerValue(context, undefined, 'Minimum Score', filters.minScore ?? 0, {
		min: 0,
		max: 10,
	});
	const maxScore = integerValue(context, undefined, 'Maximum Score', filters.maxScore ?? 10, {
		min: 0,
		max: 10,
	});
	if (minScore > maxScore)
		throw invalid(
			context,
			undefined,
			'Minimum Score',
			`must not be above the Maximum Score (${maxScore})`,
			minScore,
		);
	return {
		categories: (filters.categories as NpsCategory[] | undefined) ?? [],
		minScore,
		maxScore,
		onlyWithComment: filters.onlyWithComment === true,
		includeExcluded: filters.includeExcluded === true,
	};
}
