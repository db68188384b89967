import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { collectRecords, getManyFields, readSurveyRecordList } from '../../helpers/surveyRecords';
import { categoryIndex, categoryRanges, surveyScaleOf } from '../../helpers/surveyTypes';
import { invalid } from '../../helpers/validation';
import type { ParamHash } from '../../transport';
import type { ItemRequests } from '../types';

export const option = {
	name: 'Get Many',
	action: 'Get many responses',
	description:
		'List responses (scores, comments, end users, dates), of everyone or of one end user',
};

export const toolDescription =
	'Get many responses in Wootric: survey answers, of everyone or of one end user, newest first. Returns one record per response: score, its category, comment, end user, date.';

export const description: INodeProperties[] = getManyFields('responses', {
	beforeReturnAll: [
		{
			displayName: 'Category',
			name: 'category',
			type: 'options',
			options: [
				{ name: 'All', value: 'all', description: 'Responses of every score' },
				{ name: 'Promoters / Positive', value: 'promoters', description: categoryRanges(2) },
				{ name: 'Passives / Neutral', value: 'passives', description: categoryRanges(1) },
				{ name: 'Detractors / Negative', value: 'detractors', description: categoryRanges(0) },
			],
			default: 'all',
			description:
				"Only responses of one category on the credential's Survey Type: promoters, passives or detractors on NPS; positive, neutral or negative on CSAT and CES. On NPS, for one end user this uses Wootric's category lists, which take no Updated or Include Excluded filter; otherwise the responses are filtered by score.",
		},
	],
	filters: [
		{
			displayName: 'Include Excluded From Calculations',
			name: 'includeExcluded',
			type: 'boolean',
			default: false,
			description:
				'Whether to include responses excluded from NPS calculations (invalidated). Not available with a category for one end user of an NPS account.',
		},
	],
});

/** The Category option's value → the category it keeps: low (0), middle (1) or high (2). */
const CATEGORY_INDEX: Record<string, number> = { detractors: 0, passives: 1, promoters: 2 };

/**
 * GET /v1/responses, /v1/end_users/<id>/responses or, on NPS, its promoters/passives/detractors
 * list, all pages. Wootric's category lists are NPS's; a CSAT or CES account's categories are drawn
 * here from the scores.
 */
export async function prepare(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<ItemRequests<IDataObject[]>> {
	const scale = await surveyScaleOf(this);
	const category = this.getNodeParameter('category', itemIndex) as string;
	const {
		endUserId,
		path: listPath,
		subject,
		limit,
		created,
		updated,
		order,
		output,
		filters,
	} = readSurveyRecordList(this, itemIndex, 'responses', scale);

	const query: ParamHash = {};
	const categoryList = endUserId !== undefined && category !== 'all' && scale.type === 'nps';
	const path = categoryList ? `${listPath}/${category}` : listPath;
	// The category lists take only created and sort_order: the other filters would be ignored
	// silently.
	if (categoryList && (updated || filters.includeExcluded)) {
		throw invalid(
			this,
			itemIndex,
			'Filters',
			'Updated and Include Excluded From Calculations cannot be used with a category of one end user; choose Category All, or remove them',
			category,
		);
	}
	if (filters.includeExcluded) query.excluded_from_calculations = true;
	// Without a category list, the responses are filtered by score here.
	const keep =
		!categoryList && category !== 'all'
			? (record: IDataObject) =>
					categoryIndex(scale, Number(record.score)) === CATEGORY_INDEX[category]
			: undefined;
	return async () =>
		await collectRecords(
			this,
			{
				path,
				query,
				created,
				updated,
				order,
				sortKey: categoryList ? null : undefined,
				limit,
				subject,
				itemIndex,
			},
			{ keep, output },
		);
}
