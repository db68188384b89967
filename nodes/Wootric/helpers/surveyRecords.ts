import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { listAll, type ListRequest, type TimeRange, type UnreadableRecords } from '../transport';
import { endUserFields, readEndUserId } from './endUsers';
import { DECLINE_SHAPE, RESPONSE_SHAPE } from './records';
import type { SurveyScale } from './surveyTypes';
import {
	endUserPropertiesFields,
	filtersCollection,
	listOptionsCollections,
	readLimit,
	readTimeFilters,
	returnAllFields,
	shownWhen,
} from './fields';
import { readRecordOutput, toolOutputFields } from './output';

/**
 * What the Response and Decline resources share (their requests for one end user's record are in
 * actions/surveyRecordRequests.ts): Get Many over everyone's or one end user's records, and end-user
 * properties kept with each record.
 */

/**
 * `end_user[properties]` on create: the end user's current properties, also kept with the new
 * record.
 */
export function currentPropertiesFields(record: 'response' | 'decline'): INodeProperties[] {
	return endUserPropertiesFields(
		`Optional. The end user's current properties (e.g. plan = pro): the end user's profile is updated and the properties are kept with this ${record}.`,
	);
}

/**
 * `end_user[properties]` on update: a historical edit of one record, which the account must have
 * enabled.
 */
export function historicalPropertiesFields(record: 'response' | 'decline'): INodeProperties[] {
	return [
		{
			displayName:
				`Changing the end-user properties kept with a past ${record} must be enabled for your Wootric account (ask Wootric support); ` +
				'otherwise Wootric refuses the update with error 423.',
			name: 'historicalPropertiesNotice',
			type: 'notice',
			default: '',
		},
		...endUserPropertiesFields(
			`Optional. The properties kept with this ${record} only, replacing the ones it has; the end user's current profile is not changed.`,
		),
	];
}

/** "Responses Of" / "Declines Of": everyone's records, or one end user's. */
function listScopeFields(records: 'Responses' | 'Declines'): INodeProperties[] {
	return [
		{
			displayName: `${records} Of`,
			name: 'scope',
			type: 'options',
			options: [
				{
					name: 'All End Users',
					value: 'all',
					description: `The ${records.toLowerCase()} of everyone`,
				},
				{
					name: 'One End User',
					value: 'endUser',
					description: `The ${records.toLowerCase()} of the end user you pick`,
				},
			],
			default: 'all',
		},
		...endUserFields(['id'], `The end user whose ${records.toLowerCase()} to list`).map((field) =>
			shownWhen(field, { scope: ['endUser'] }),
		),
	];
}

const SHAPES = { responses: RESPONSE_SHAPE, declines: DECLINE_SHAPE };

/** The Options of Get Many responses or declines, and as an agent's tool their Output. */
const listOutputFields = (records: 'responses' | 'declines'): INodeProperties[] => [
	...listOptionsCollections(SHAPES[records], [
		{
			displayName: 'Order',
			name: 'order',
			type: 'options',
			options: [
				{ name: 'Newest First', value: 'desc', description: 'The latest created first' },
				{ name: 'Oldest First', value: 'asc', description: 'The earliest created first' },
			],
			default: 'desc',
			description: 'By creation time',
		},
	]),
	...toolOutputFields(SHAPES[records]),
];

export interface SurveyRecordList {
	/** Set when the list is one end user's. */
	endUserId?: number;
	/** /v1/<records>, or /v1/end_users/<id>/<records>. */
	path: string;
	/** Named in a 404: the end user, for one end user's list. */
	subject?: string;
	/** Undefined with Return All. */
	limit?: number;
	created?: TimeRange;
	updated?: TimeRange;
	order: 'asc' | 'desc';
	/** Each record as the item's output (readRecordOutput). */
	output: (record: IDataObject) => IDataObject;
	filters: IDataObject;
}

/**
 * The fields of Get Many responses or declines: whose records, then `beforeReturnAll` (Response's
 * Category), Return All and Limit, the filters with `filters` added, and the output.
 */
export function getManyFields(
	records: 'responses' | 'declines',
	extra: { beforeReturnAll?: INodeProperties[]; filters?: INodeProperties[] } = {},
): INodeProperties[] {
	return [
		...listScopeFields(records === 'responses' ? 'Responses' : 'Declines'),
		...(extra.beforeReturnAll ?? []),
		...returnAllFields,
		filtersCollection(extra.filters),
		...listOutputFields(records),
	];
}

/**
 * The fields set with getManyFields, validated; responses are categorised on `scale`, the account's
 * survey type.
 */
export function readSurveyRecordList(
	context: IExecuteFunctions,
	itemIndex: number,
	records: 'responses' | 'declines',
	scale?: SurveyScale,
): SurveyRecordList {
	const scope = context.getNodeParameter('scope', itemIndex) as string;
	const filters = context.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const endUserId = scope === 'endUser' ? readEndUserId(context, itemIndex) : undefined;
	return {
		endUserId,
		path: endUserId === undefined ? `/v1/${records}` : `/v1/end_users/${endUserId}/${records}`,
		subject: endUserId === undefined ? undefined : `end user ${endUserId}`,
		limit: readLimit(context, itemIndex),
		...readTimeFilters(context, itemIndex),
		order: (options.order as 'asc' | 'desc' | undefined) ?? 'desc',
		output: readRecordOutput(context, itemIndex, SHAPES[records], options.simplify === true, scale),
		filters,
	};
}

/**
 * The records of a list endpoint, in its order, up to `limit`: every page through listAll. `keep`
 * drops records here (a filter the endpoint does not have); then paging goes on until the limit is
 * reached; `output` makes each record the item's output. Records that no filter can reach (listAll's UnreadableRecords) become a warning on the
 * node's output.
 */
export async function collectRecords(
	context: IExecuteFunctions,
	request: ListRequest,
	options: {
		keep?: (record: IDataObject) => boolean;
		output?: (record: IDataObject) => IDataObject;
	} = {},
): Promise<IDataObject[]> {
	const { keep } = options;
	const wanted = request.limit ?? Infinity;
	const records: IDataObject[] = [];
	// Records no filter can reach do not fail the run: what could be read is returned, and n8n shows
	// why not the rest.
	const onUnreadable = (unreadable: UnreadableRecords) =>
		context.addExecutionHints?.({
			message: unreadable.message,
			type: 'warning',
			location: 'outputPane',
		});
	for await (const page of listAll(context, {
		...request,
		limit: keep ? undefined : request.limit,
		onUnreadable,
	})) {
		records.push(...(keep ? page.filter(keep) : page));
		if (records.length >= wanted) break;
	}
	records.length = Math.min(records.length, wanted);
	return options.output ? records.map(options.output) : records;
}
