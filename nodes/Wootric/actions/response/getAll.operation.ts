import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readLimit, readTimeRange, returnAllFields, simplifyOption, timeRangeField } from '../../helpers/fields';
import { npsCategory, simplifyRecord } from '../../helpers/output';
import { idParameter } from '../../helpers/validation';
import { listAll, type ParamHash } from '../../transport';

export const option = { name: 'Get Many', action: 'Get many responses', description: 'List responses, of everyone or of one end user' };

export const description: INodeProperties[] = [
	{
		displayName: 'Responses Of',
		name: 'scope',
		type: 'options',
		options: [
			{ name: 'All End Users', value: 'all' },
			{ name: 'One End User', value: 'endUser' },
		],
		default: 'all',
	},
	{
		displayName: 'End User ID',
		name: 'endUserId',
		type: 'number',
		default: 0,
		required: true,
		displayOptions: { show: { scope: ['endUser'] } },
	},
	{
		displayName: 'Category',
		name: 'category',
		type: 'options',
		options: [
			{ name: 'All', value: 'all' },
			{ name: 'Promoters (9–10)', value: 'promoters' },
			{ name: 'Passives (7–8)', value: 'passives' },
			{ name: 'Detractors (0–6)', value: 'detractors' },
		],
		default: 'all',
		description:
			"Only responses of one NPS category. For one end user this uses Wootric's category lists; for all end users the responses are filtered by score.",
	},
	...returnAllFields,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			timeRangeField('created', 'Created'),
			timeRangeField('updated', 'Updated'),
			{
				displayName: 'Include Excluded From Calculations',
				name: 'includeExcluded',
				type: 'boolean',
				default: false,
				description: 'Whether to include responses excluded from NPS calculations (invalidated). Not available with a category for one end user.',
			},
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Order',
				name: 'order',
				type: 'options',
				options: [
					{ name: 'Newest First', value: 'desc' },
					{ name: 'Oldest First', value: 'asc' },
				],
				default: 'desc',
			},
			simplifyOption,
		],
	},
];

const CATEGORY_OF: Record<string, string> = { promoters: 'promoter', passives: 'passive', detractors: 'detractor' };

/** GET /v1/responses, /v1/end_users/<id>/responses or its promoters/passives/detractors list, all pages. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const scope = this.getNodeParameter('scope', itemIndex) as string;
	const category = this.getNodeParameter('category', itemIndex) as string;
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const limit = readLimit(this, itemIndex);
	const created = readTimeRange(this, itemIndex, 'filters.created', 'Created');
	const updated = readTimeRange(this, itemIndex, 'filters.updated', 'Updated');

	let path = '/v1/responses';
	const query: ParamHash = {};
	const categoryList = scope === 'endUser' && category !== 'all';
	if (scope === 'endUser') {
		path = `/v1/end_users/${idParameter(this, itemIndex, 'endUserId', 'End User ID')}/responses`;
		if (categoryList) path += `/${category}`;
	}
	// The category lists take only created and sort_order.
	if (!categoryList) {
		query.updated = updated as ParamHash | undefined;
		if (filters.includeExcluded) query.excluded_from_calculations = true;
	}
	// For all end users there is no category list: the responses are filtered by score here.
	const filteredHere = scope === 'all' && category !== 'all';
	const order = (options.order as 'asc' | 'desc' | undefined) ?? 'desc';
	const records: IDataObject[] = [];
	const wanted = limit ?? Infinity;
	for await (const page of listAll(this, { path, query, created, order, sortKey: categoryList ? null : undefined, limit: filteredHere ? undefined : limit, itemIndex })) {
		for (const record of page) {
			if (!filteredHere || npsCategory(Number(record.score)) === CATEGORY_OF[category]) records.push(record);
		}
		if (records.length >= wanted) break;
	}
	records.length = Math.min(records.length, wanted);
	return options.simplify ? records.map(simplifyRecord) : records;
}
