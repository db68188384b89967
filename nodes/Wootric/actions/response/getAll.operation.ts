import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { collectRecords, getManyFields, readSurveyRecordList } from '../../helpers/surveyRecords';
import { invalid } from '../../helpers/validation';
import type { ParamHash } from '../../transport';
import { npsCategory } from '../../helpers/records';
import type { ItemRequests } from '../types';

export const option = {
	name: 'Get Many',
	action: 'Get many responses',
	description:
		'List responses (NPS scores 0–10, comments, end users, dates), of everyone or of one end user',
};

export const toolDescription =
	'Get many responses in Wootric: NPS survey answers, of everyone or of one end user, newest first. Returns one record per response: score (0–10), NPS category, comment, end user, date.';

export const description: INodeProperties[] = getManyFields('responses', {
	beforeReturnAll: [
		{
			displayName: 'Category',
			name: 'category',
			type: 'options',
			options: [
				{ name: 'All', value: 'all', description: 'Responses of every score' },
				{ name: 'Promoters (9–10)', value: 'promoters', description: 'Scores 9 and 10' },
				{ name: 'Passives (7–8)', value: 'passives', description: 'Scores 7 and 8' },
				{ name: 'Detractors (0–6)', value: 'detractors', description: 'Scores 0 to 6' },
			],
			default: 'all',
			description:
				"Only responses of one NPS category. For one end user this uses Wootric's category lists, which take no Updated or Include Excluded filter (those filters are then not applied); for all end users the responses are filtered by score.",
		},
	],
	filters: [
		{
			displayName: 'Include Excluded From Calculations',
			name: 'includeExcluded',
			type: 'boolean',
			default: false,
			description:
				'Whether to include responses excluded from NPS calculations (invalidated). Not available with a category for one end user.',
		},
	],
});

const CATEGORY_OF: Record<string, string> = {
	promoters: 'promoter',
	passives: 'passive',
	detractors: 'detractor',
};

/**
 * GET /v1/responses, /v1/end_users/<id>/responses or its promoters/passives/detractors list, all
 * pages.
 */
export function prepare(this: IExecuteFunctions, itemIndex: number): ItemRequests<IDataObject[]> {
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
	} = readSurveyRecordList(this, itemIndex, 'responses');

	const query: ParamHash = {};
	const categoryList = endUserId !== undefined && category !== 'all';
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
	// For all end users there is no category list: the responses are filtered by score here.
	const keep =
		endUserId === undefined && category !== 'all'
			? (record: IDataObject) => npsCategory(Number(record.score)) === CATEGORY_OF[category]
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
