import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INode,
	INodeProperties,
} from 'n8n-workflow';

import type { TimeRange, ParamHash } from '../transport';
import type { RecordShape } from './records';
import { integerValue, invalid, unixSeconds } from './validation';

/** A `show` condition: the node versions from `version` on. */
const fromVersion = (version: number) => ({ '@version': [{ _cnd: { gte: version } }] });

/** A `show` condition: the node versions before `version`. */
const beforeVersion = (version: number) => ({ '@version': [{ _cnd: { lt: version } }] });

/**
 * Node version 1.2 picks the end user and the survey template with resource locators (From List,
 * By ID, …); older versions keep the fields their workflows were saved with.
 */
export const LOCATORS_VERSION = 1.2;

/** Whether the node reads its end user and survey template from resource locators. */
export const usesLocators = (node: INode) => node.typeVersion >= LOCATORS_VERSION;

/** Shown on the node versions that read the resource locators. */
export const fromLocatorsVersion = fromVersion(LOCATORS_VERSION);

/** Shown on the node versions before the resource locators. */
export const beforeLocatorsVersion = beforeVersion(LOCATORS_VERSION);

/**
 * Node version 1.3 speaks one vocabulary: every record it outputs has its datetimes in ISO 8601 UTC
 * and every response its nps_category (what Simplify added before); Simplify keeps only the main
 * fields, as the tool's Simplified output does; End User → Delete answers `{ deleted: true, … }`
 * like the other deletes; parameters read once per run take no expression. Older versions keep
 * what their workflows were saved with.
 */
export const ONE_VOCABULARY_VERSION = 1.3;

/** Whether the node outputs and reads as version 1.3 does (ONE_VOCABULARY_VERSION). */
export const speaksOneVocabulary = (node: INode) => node.typeVersion >= ONE_VOCABULARY_VERSION;

/** Shown on the node versions from 1.3 on. */
export const fromOneVocabularyVersion = fromVersion(ONE_VOCABULARY_VERSION);

/** Shown on the node versions before 1.3. */
export const beforeOneVocabularyVersion = beforeVersion(ONE_VOCABULARY_VERSION);

/**
 * A parameter the node reads once per run, from the first item: from 1.3 it takes no expression
 * (`noDataExpression`), so the editor does not suggest a per-item value it would not read. Older
 * versions keep the copy without it: n8n strips a leading `=` from a noDataExpression value when it
 * loads a workflow, which would change what saved expressions give.
 */
export function readOncePerRun(field: INodeProperties): INodeProperties[] {
	return [
		shownWhen(field, beforeOneVocabularyVersion),
		shownWhen({ ...field, noDataExpression: true }, fromOneVocabularyVersion),
	];
}

/** The field shown only when `show` also holds, besides what its own displayOptions ask. */
export function shownWhen(field: INodeProperties, show: IDisplayOptions['show']): INodeProperties {
	return {
		...field,
		displayOptions: {
			...field.displayOptions,
			show: { ...field.displayOptions?.show, ...show },
		},
	};
}

/** The id field of a record: Wootric's ids are positive whole numbers. */
export function idField(name: string, displayName: string, description: string): INodeProperties {
	return { displayName, name, type: 'number', default: 0, required: true, description };
}

/** End User ID, as every operation on one end user or on one end user's records asks for it. */
export function endUserIdField(
	description = "Wootric's numeric ID of the end user (the ID field of an end user record)",
): INodeProperties {
	return { ...idField('endUserId', 'End User ID', description), placeholder: '123456' };
}

function collection(
	displayName: string,
	name: string,
	placeholder: string,
	options: INodeProperties[],
): INodeProperties {
	return { displayName, name, type: 'collection', placeholder, default: {}, options };
}

/** The optional fields of a create. */
export const additionalFieldsCollection = (options: INodeProperties[]) =>
	collection('Additional Fields', 'additionalFields', 'Add Field', options);

/** The fields an update may change. */
export const updateFieldsCollection = (options: INodeProperties[], placeholder = 'Add Field') =>
	collection('Update Fields', 'updateFields', placeholder, options);

/** Options that change how an operation reads or outputs, not what it sends. */
export const optionsCollection = (options: INodeProperties[]) =>
	collection('Options', 'options', 'Add Option', options);

/**
 * A create's Additional Fields and its Simplify option. Version 1 had Simplify under Additional
 * Fields; from 1.1 it is under Options, as on every other operation; from 1.3 it keeps the main
 * fields of `shape`. Workflows saved with older versions keep their layout.
 */
export function createFieldsWithSimplify(
	shape: RecordShape,
	fields: INodeProperties[],
): INodeProperties[] {
	return [
		{
			...additionalFieldsCollection([...fields, simplifyOption]),
			displayOptions: { show: { '@version': [1] } },
		},
		{ ...additionalFieldsCollection(fields), displayOptions: { show: fromVersion(1.1) } },
		...simplifyOptionsCollections(shape).map((options) => ({
			...options,
			displayOptions: { ...options.displayOptions, hide: { '@version': [1] } },
		})),
	];
}

/**
 * Shown only in the node's tool variant, the one an AI agent calls: n8n names that node type
 * `wootricTool` and resolves `@tool` to true for it (n8n-workflow's getNodeParameters).
 */
export const asTool = { '@tool': [true] };

/** Shown only outside the tool variant: the node in a workflow, as before it was a tool. */
export const notAsTool = { '@tool': [false] };

/** The Limit of a Get Many in an agent's tool: a model reads every record it gets. */
export const TOOL_LIMIT = 10;

const limitField: INodeProperties = {
	displayName: 'Limit',
	name: 'limit',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 50,
	description: 'Max number of results to return',
	displayOptions: { show: { returnAll: [false], ...notAsTool } },
};

/** Return All / Limit, as every Get Many offers them; as an agent's tool Limit starts small. */
export const returnAllFields: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	limitField,
	// The same parameter in the tool variant, where n8n's usual default of 50 is too many.
	{
		...limitField,
		default: TOOL_LIMIT,
		description: 'Max number of results to return; keep it small, the agent reads every result',
		displayOptions: { show: { returnAll: [false], ...asTool } },
	},
];

/** The limit a Get Many asks for: undefined with Return All. */
export function readLimit(context: IExecuteFunctions, itemIndex: number): number | undefined {
	if (context.getNodeParameter('returnAll', itemIndex) as boolean) return undefined;
	return integerValue(context, itemIndex, 'Limit', context.getNodeParameter('limit', itemIndex), {
		min: 1,
	});
}

const COMPARISONS = [
	{ name: 'After', value: 'gt', description: 'Later than the time' },
	{ name: 'At or After', value: 'gte', description: 'At the time or later' },
	{ name: 'At or Before', value: 'lte', description: 'At the time or earlier' },
	{ name: 'Before', value: 'lt', description: 'Earlier than the time' },
	{ name: 'Exactly At', value: 'eq', description: 'At that second' },
];

/** A `created[...]` or `updated[...]` range: any of eq, lt, lte, gt, gte, combined. */
function timeRangeField(name: 'created' | 'updated', displayName: string): INodeProperties {
	return {
		displayName,
		name,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Condition',
		default: {},
		description: `Only records whose ${name === 'created' ? 'creation' : 'last update'} time matches every condition`,
		options: [
			{
				displayName: 'Condition',
				name: 'conditions',
				values: [
					{
						displayName: 'Comparison',
						name: 'comparison',
						type: 'options',
						options: COMPARISONS,
						default: 'gte',
						description: 'How the record’s time compares with the time given',
					},
					{
						displayName: 'Time',
						name: 'time',
						type: 'dateTime',
						default: '',
						description: 'A date and time, or UNIX seconds',
					},
				],
			},
		],
	};
}

/**
 * The Filters collection of a Get Many: the Created and Updated time ranges and the resource's own
 * filters (`extra`), by name as n8n lists them.
 */
export function filtersCollection(extra: INodeProperties[] = []): INodeProperties {
	const options = [
		timeRangeField('created', 'Created'),
		timeRangeField('updated', 'Updated'),
		...extra,
	];
	return collection(
		'Filters',
		'filters',
		'Add Filter',
		options.sort((a, b) => a.displayName.localeCompare(b.displayName)),
	);
}

/** The Created and Updated ranges of filtersCollection, in UNIX seconds; undefined when not set. */
export function readTimeFilters(
	context: IExecuteFunctions,
	itemIndex: number,
): { created?: TimeRange; updated?: TimeRange } {
	return {
		created: readTimeRange(context, itemIndex, 'filters.created', 'Created'),
		updated: readTimeRange(context, itemIndex, 'filters.updated', 'Updated'),
	};
}

/**
 * The range set with timeRangeField, in UNIX seconds; `path` is where the field sits, e.g.
 * `filters.created`.
 */
function readTimeRange(
	context: IExecuteFunctions,
	itemIndex: number,
	path: string,
	label: string,
): TimeRange | undefined {
	const conditions =
		(context.getNodeParameter(`${path}.conditions`, itemIndex, []) as IDataObject[]) ?? [];
	if (conditions.length === 0) return undefined;
	const range: TimeRange = {};
	for (const { comparison, time } of conditions) {
		const shown =
			COMPARISONS.find((entry) => entry.value === comparison)?.name ?? String(comparison);
		range[comparison as keyof TimeRange] = unixSeconds(
			context,
			itemIndex,
			`${label} ${shown.toLowerCase()}`,
			time,
		);
	}
	return range;
}

/** Simplify before node version 1.3: it added to the record. */
const simplifyOption: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: false,
	description:
		'Whether to add nps_category (promoter, passive or detractor) to responses and turn every datetime into ISO 8601 UTC. Off returns the API’s records unchanged.',
};

/** Simplify from node version 1.3: fewer fields, those the tool's Simplified output keeps. */
function fewerFieldsSimplifyOption(shape: RecordShape): INodeProperties {
	return {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: false,
		description: `Whether to return only the main fields of the ${shape.records}: ${shape.simplified.join(', ')}`,
	};
}

/**
 * The Options of a Get Many: `options` and, outside an agent's tool, Simplify (before 1.3 the one
 * that adds, from 1.3 the one that keeps fewer fields of `shape`); as a tool the Output option
 * (output.ts, toolOutputFields) takes its place.
 */
export function listOptionsCollections(
	shape: RecordShape,
	options: INodeProperties[],
): INodeProperties[] {
	const byName = (a: INodeProperties, b: INodeProperties) =>
		a.displayName.localeCompare(b.displayName);
	return [
		{
			...optionsCollection([...options, simplifyOption].sort(byName)),
			displayOptions: { show: { ...notAsTool, ...beforeOneVocabularyVersion } },
		},
		{
			...optionsCollection([...options, fewerFieldsSimplifyOption(shape)].sort(byName)),
			displayOptions: { show: { ...notAsTool, ...fromOneVocabularyVersion } },
		},
		{ ...optionsCollection(options), displayOptions: { show: asTool } },
	];
}

/**
 * Options holding only Simplify, for operations that output one record of `shape`; without a
 * shape (a record with no fields to leave out) Simplify is offered only before 1.3, where it added.
 */
export function simplifyOptionsCollections(shape?: RecordShape): INodeProperties[] {
	return [
		{
			...optionsCollection([simplifyOption]),
			displayOptions: { show: beforeOneVocabularyVersion },
		},
		...(shape
			? [
					{
						...optionsCollection([fewerFieldsSimplifyOption(shape)]),
						displayOptions: { show: fromOneVocabularyVersion },
					},
				]
			: []),
	];
}

/**
 * End-user properties (plan, seats, …): as key/value pairs, or as a JSON object for power users and
 * expressions. `name` is the parameter holding the pairs; `<name>Input` picks pairs or JSON,
 * `<name>Json` holds the JSON.
 */
export function propertiesFields(
	name: string,
	displayName: string,
	description: string,
): INodeProperties[] {
	return [
		{
			displayName: `${displayName} Input`,
			name: `${name}Input`,
			type: 'options',
			options: [
				{ name: 'Key/Value Pairs', value: 'pairs', description: 'One name and value at a time' },
				{ name: 'JSON', value: 'json', description: 'One JSON object, e.g. from an expression' },
			],
			default: 'pairs',
			description:
				'Enter the properties one name and value at a time, or as one JSON object (e.g. from an expression)',
		},
		{
			displayName,
			name,
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add Property',
			default: {},
			description,
			displayOptions: { show: { [`${name}Input`]: ['pairs'] } },
			options: [
				{
					displayName: 'Property',
					name: 'property',
					values: [
						{
							displayName: 'Name',
							name: 'name',
							type: 'string',
							default: '',
							description: 'The property name, e.g. plan',
						},
						{
							displayName: 'Value',
							name: 'value',
							type: 'string',
							default: '',
							description: 'The property value, e.g. pro',
						},
					],
				},
			],
		},
		{
			displayName: `${displayName} (JSON)`,
			name: `${name}Json`,
			type: 'json',
			default: '{}',
			description,
			displayOptions: { show: { [`${name}Input`]: ['json'] } },
		},
	];
}

/**
 * The properties set with propertiesFields as a flat string hash; undefined when none were given.
 */
export function readProperties(
	context: IExecuteFunctions,
	itemIndex: number,
	name: string,
	displayName: string,
): Record<string, string> | undefined {
	const mode = context.getNodeParameter(`${name}Input`, itemIndex, 'pairs') as string;
	let entries: Array<[string, unknown]>;
	if (mode === 'json') {
		let value = context.getNodeParameter(`${name}Json`, itemIndex, '{}') as unknown;
		if (typeof value === 'string') {
			try {
				value = JSON.parse(value || '{}');
			} catch {
				throw invalid(context, itemIndex, `${displayName} (JSON)`, 'must be a JSON object', value);
			}
		}
		if (!value || typeof value !== 'object' || Array.isArray(value))
			throw invalid(context, itemIndex, `${displayName} (JSON)`, 'must be a JSON object', value);
		entries = Object.entries(value);
	} else {
		const pairs = context.getNodeParameter(`${name}.property`, itemIndex, []) as IDataObject[];
		entries = pairs.map(({ name: key, value }) => [String(key ?? '').trim(), value]);
	}
	if (entries.length === 0) return undefined;
	const properties: Record<string, string> = {};
	for (const [key, value] of entries) {
		if (key === '')
			throw invalid(context, itemIndex, displayName, 'needs a name for every property', value);
		if (value !== null && typeof value === 'object')
			throw invalid(
				context,
				itemIndex,
				`${displayName} "${key}"`,
				'must be a text, number or true/false value',
				value,
			);
		properties[key] = value === null || value === undefined ? '' : String(value);
	}
	return properties;
}

/**
 * `end_user[properties]`: an end user's properties sent along with another record (a response, a
 * decline, an email survey), read with readEndUserProperties.
 */
export function endUserPropertiesFields(description: string): INodeProperties[] {
	return propertiesFields('endUserProperties', 'End User Properties', description);
}

/**
 * The properties set with endUserPropertiesFields as `end_user[properties]`; undefined when none
 * were given.
 */
export function readEndUserProperties(
	context: IExecuteFunctions,
	itemIndex: number,
): ParamHash | undefined {
	const properties = readProperties(context, itemIndex, 'endUserProperties', 'End User Properties');
	return properties ? { properties } : undefined;
}
