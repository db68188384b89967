import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { listAll, type CreatedRange, type ListRequest, type ParamHash, simplifyRecord } from '../transport';
import { propertiesFields, readLimit, readProperties, readTimeRange, simplifyOption, timeRangeField } from './fields';
import { idParameter, invalid } from './validation';

/**
 * What the Response and Decline resources share: an owning end user, get/update/delete by id, Get Many
 * over everyone's or one end user's records, and end-user properties kept with each record.
 */

/** The id field of an end user, or of one response or decline. */
export function idField(name: string, displayName: string, description: string): INodeProperties {
	return { displayName, name, type: 'number', default: 0, required: true, description };
}

/** `end_user[properties]` on create: the end user's current properties, also kept with the new record. */
export function currentPropertiesFields(record: 'response' | 'decline'): INodeProperties[] {
	return propertiesFields(
		'endUserProperties',
		'End User Properties',
		`Optional. The end user's current properties (e.g. plan = pro): the end user's profile is updated and the properties are kept with this ${record}.`,
	);
}

/** `end_user[properties]` on update: a historical edit of one record, which the account must have enabled. */
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
		...propertiesFields(
			'endUserProperties',
			'End User Properties',
			`Optional. The properties kept with this ${record} only, replacing the ones it has; the end user's current profile is not changed.`,
		),
	];
}

/** The end-user properties set with currentPropertiesFields or historicalPropertiesFields, as `end_user[properties]`. */
export function readEndUserProperties(context: IExecuteFunctions, itemIndex: number): ParamHash | undefined {
	const properties = readProperties(context, itemIndex, 'endUserProperties', 'End User Properties');
	return properties ? { properties } : undefined;
}

/** A non-empty text field, trimmed: an empty one is an error, whether required or added as an option. */
export function nonEmptyText(context: IExecuteFunctions, itemIndex: number, field: string, value: unknown): string {
	const text = typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
	if (text === '') throw invalid(context, itemIndex, field, 'must not be empty', value ?? '');
	return text;
}

/** "Responses Of" / "Declines Of": everyone's records, or one end user's. */
export function listScopeFields(records: 'Responses' | 'Declines'): INodeProperties[] {
	return [
		{
			displayName: `${records} Of`,
			name: 'scope',
			type: 'options',
			options: [
				{ name: 'All End Users', value: 'all' },
				{ name: 'One End User', value: 'endUser' },
			],
			default: 'all',
		},
		{
			...idField('endUserId', 'End User ID', `The end user whose ${records.toLowerCase()} to list`),
			displayOptions: { show: { scope: ['endUser'] } },
		},
	];
}

/** The Filters collection: the time ranges and a resource's own filters (`extra`), by name as n8n lists them. */
export function listFiltersField(extra: INodeProperties[] = []): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [timeRangeField('created', 'Created'), timeRangeField('updated', 'Updated'), ...extra].sort((a, b) => a.displayName.localeCompare(b.displayName)),
	};
}

export const listOptionsField: INodeProperties = {
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
};

export interface SurveyRecordList {
	/** Set when the list is one end user's. */
	endUserId?: number;
	/** Undefined with Return All. */
	limit?: number;
	created?: CreatedRange;
	updated?: CreatedRange;
	order: 'asc' | 'desc';
	simplify: boolean;
	filters: IDataObject;
}

/** The fields set with listScopeFields, listFiltersField and listOptionsField, validated. */
export function readSurveyRecordList(context: IExecuteFunctions, itemIndex: number): SurveyRecordList {
	const scope = context.getNodeParameter('scope', itemIndex) as string;
	const filters = context.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return {
		endUserId: scope === 'endUser' ? idParameter(context, itemIndex, 'endUserId', 'End User ID') : undefined,
		limit: readLimit(context, itemIndex),
		created: readTimeRange(context, itemIndex, 'filters.created', 'Created'),
		updated: readTimeRange(context, itemIndex, 'filters.updated', 'Updated'),
		order: (options.order as 'asc' | 'desc' | undefined) ?? 'desc',
		simplify: options.simplify === true,
		filters,
	};
}

/**
 * The records of a list endpoint, in its order, up to `limit`: every page through listAll. `keep` drops
 * records here (a filter the endpoint does not have); then paging goes on until the limit is reached.
 */
export async function collectRecords(
	context: IExecuteFunctions,
	request: ListRequest,
	options: { keep?: (record: IDataObject) => boolean; simplify?: boolean } = {},
): Promise<IDataObject[]> {
	const { keep } = options;
	const wanted = request.limit ?? Infinity;
	const records: IDataObject[] = [];
	for await (const page of listAll(context, { ...request, limit: keep ? undefined : request.limit })) {
		records.push(...(keep ? page.filter(keep) : page));
		if (records.length >= wanted) break;
	}
	records.length = Math.min(records.length, wanted);
	return options.simplify ? records.map(simplifyRecord) : records;
}
