import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	filtersCollection,
	listOptionsCollections,
	readLimit,
	readTimeFilters,
	returnAllFields,
} from '../../helpers/fields';
import { readRecordOutput, toolOutputFields } from '../../helpers/output';
import { collectRecords } from '../../helpers/surveyRecords';
import { booleanValue, emailValue } from '../../helpers/validation';
import { parseSerializedProperties } from '../../helpers/properties';
import { END_USER_SHAPE } from '../../helpers/records';
import type { ParamHash } from '../../transport';
import type { ItemRequests } from '../types';

export const option = {
	name: 'Get Many',
	action: 'Get many end users',
	description: 'List end users (email, properties, last response), optionally filtered',
};

export const toolDescription =
	'Get many end users in Wootric: survey takers, optionally filtered by email or dates. Returns one record per end user: ID, email, external ID, properties, last response.';

export const description: INodeProperties[] = [
	...returnAllFields,
	filtersCollection([
		{
			displayName: 'Email',
			name: 'email',
			type: 'string',
			placeholder: 'name@email.com',
			default: '',
			description: 'Only the end user with this email address',
		},
		{
			displayName: 'Opted Out of Surveys',
			name: 'surveysDisabled',
			type: 'boolean',
			default: true,
			description:
				'Whether to list only end users who opted out of surveys (on) or only those who did not (off). Without this filter Wootric lists only those who did not opt out.',
		},
	]),
	...listOptionsCollections(END_USER_SHAPE, [
		{
			displayName: 'Order',
			name: 'order',
			type: 'options',
			options: [
				{ name: 'Ascending', value: 'asc', description: 'A to Z, or oldest first' },
				{ name: 'Descending', value: 'desc', description: 'Z to A, or newest first' },
			],
			default: 'asc',
			description: 'Ascending is A to Z for email and oldest first for dates',
		},
		{
			displayName: 'Sort By',
			name: 'sortKey',
			type: 'options',
			options: [
				{
					name: 'Created At',
					value: 'created_at',
					description: 'When the end user was created; reads any number',
				},
				{ name: 'Email', value: 'email', description: 'Email address; reads at most 1,500' },
				{
					name: 'Updated At',
					value: 'updated_at',
					description: 'When the end user was last changed; reads any number',
				},
			],
			default: 'created_at',
			description:
				'Created At and Updated At read any number of end users. Wootric pages through at most 1,500 end users sorted by Email: more is an error then, so filter or use a limit.',
		},
	]),
	...toolOutputFields(END_USER_SHAPE),
];

/** GET /v1/end_users, every page (or up to the limit). */
export function prepare(this: IExecuteFunctions, itemIndex: number): ItemRequests<IDataObject[]> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const limit = readLimit(this, itemIndex);
	const { created, updated } = readTimeFilters(this, itemIndex);
	const query: ParamHash = {};
	if (filters.email !== undefined && filters.email !== '')
		query.email = emailValue(this, itemIndex, 'Email', filters.email);
	if (filters.surveysDisabled !== undefined)
		query.surveys_disabled = booleanValue(
			this,
			itemIndex,
			'Opted Out of Surveys',
			filters.surveysDisabled,
		);
	// Wootric's own default sort is by email, which cannot page past 1,500 end users.
	const sortKey = (options.sortKey as string | undefined) ?? 'created_at';
	const order = (options.order as 'asc' | 'desc' | undefined) ?? 'asc';
	const output = readRecordOutput(this, itemIndex, END_USER_SHAPE, options.simplify === true);

	return async () => {
		const records = await collectRecords(this, {
			path: '/v1/end_users',
			query,
			created,
			updated,
			order,
			sortKey,
			limit,
			itemIndex,
		});
		return records.map((record) => output(parseSerializedProperties(record)));
	};
}
