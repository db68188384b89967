import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import {
	additionalFieldsCollection,
	endUserPropertiesFields,
	readEndUserProperties,
	readOncePerRun,
} from '../../helpers/fields';
import { span, stoppedPartWay } from '../../helpers/progress';
import { emailValue, integerValue, invalid } from '../../helpers/validation';
import { wootricRequest, type ParamHash } from '../../transport';
import { MULTI_LANGUAGE } from '../../helpers/surveyTemplates';
import { placeholdersIn, readSurveyParams, surveyFields } from './surveySettings';
import type { EachItem, ItemRequests } from '../types';

/** The most addresses /v1/email_survey takes in one request. */
const MAX_SURVEY_EMAILS = 100;

export const option = {
	name: 'Send',
	action: 'Send a survey by email',
	description: 'Email an NPS survey to one or more addresses',
};

export const toolDescription =
	'Send a survey by email in Wootric: an NPS survey to one or more addresses. Returns what Wootric accepted: the addresses and the survey settings.';

export const description: INodeProperties[] = [
	{
		displayName: 'Email Addresses',
		name: 'emails',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'ada@example.com, grace@example.com',
		description:
			"One or more addresses, separated by commas. To survey each input item's address, drag the item's email field here.",
	},
	// Read once per run: it decides whether the items are sent together.
	...readOncePerRun({
		displayName: 'Combine Items',
		name: 'combineItems',
		type: 'boolean',
		default: true,
		description:
			'Whether to send the addresses of all input items together, 100 per request (the API limit), instead of one request per item. Items whose other survey fields differ go in separate requests.',
	}),
	{
		displayName: 'External IDs',
		name: 'externalIds',
		type: 'string',
		default: '',
		placeholder: 'crm-1, crm-2',
		description:
			'Your IDs for these end users, one per address and in the same order, separated by commas',
	},
	{
		displayName: 'Context Values',
		name: 'context',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Value',
		default: {},
		description:
			'Values for the {{variable}} placeholders of Subject and Intro, for the addresses of this item',
		options: [
			{
				displayName: 'Value',
				name: 'values',
				values: [
					{
						displayName: 'Variable',
						name: 'name',
						type: 'string',
						default: '',
						placeholder: 'first_name',
						description: 'The placeholder name, as in {{first_name}}',
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						description: 'What replaces the placeholder',
					},
				],
			},
		],
	},
	...endUserPropertiesFields(
		'Properties stored on the surveyed end users (created automatically when new)',
	),
	...surveyFields,
	additionalFieldsCollection([
		{
			displayName: 'Delay (Days)',
			name: 'delay',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 31 },
			default: 1,
			description: 'Days to wait before sending, from 1 to 31',
		},
		{
			displayName: 'Reply-To Email',
			name: 'reply_to_email',
			type: 'string',
			default: '',
			placeholder: 'support@example.com',
			description: 'Where replies to the survey email go, instead of the account default',
		},
		{
			displayName: "Sender's Name",
			name: 'senders_name',
			type: 'string',
			default: '',
			description: 'The sender name the survey email shows, instead of the account default',
		},
	]),
];

/** One item's part of a survey job: its addresses and what goes with them. */
interface SurveyPart {
	itemIndex: number;
	emails: string[];
	externalIds?: string[];
	contextValues?: Record<string, string>;
	/** The request-level parameters; items can share a request only when these are the same. */
	shared: ParamHash;
}

function splitList(value: unknown): string[] {
	const text = String(value ?? '');
	// Most items map one address: no separator, no list to build.
	if (!/[,;\n]/.test(text)) return text.trim() === '' ? [] : [text.trim()];
	return text
		.split(/[,;\n]/)
		.map((entry) => entry.trim())
		.filter((entry) => entry !== '');
}

/** An item's request-level parameters, and the placeholders its Subject and Intro use. */
interface SharedPart {
	params: ParamHash;
	placeholders: string[];
}

function readShared(context: IExecuteFunctions, itemIndex: number): SharedPart {
	const survey = readSurveyParams(context, itemIndex);
	if (survey.language === MULTI_LANGUAGE)
		throw invalid(
			context,
			itemIndex,
			'Language',
			'Multi-Language takes each row’s language from a CSV: use Send From CSV, or choose one language',
			survey.language,
		);
	const additional = context.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const params: ParamHash = {
		survey_immediately: survey.params.survey_immediately,
		end_user: readEndUserProperties(context, itemIndex),
		subject: survey.params.subject,
		intro: survey.params.intro,
		senders_name: additional.senders_name ? String(additional.senders_name) : undefined,
		reply_to_email: additional.reply_to_email
			? emailValue(context, itemIndex, 'Reply-To Email', additional.reply_to_email)
			: undefined,
		delay:
			additional.delay === undefined
				? undefined
				: integerValue(context, itemIndex, 'Delay (Days)', additional.delay, { min: 1, max: 31 }),
		survey_settings: survey.params.survey_settings,
	};
	return { params, placeholders: placeholdersIn(survey.subject, survey.intro) };
}

function readPart(context: IExecuteFunctions, itemIndex: number): SurveyPart {
	const emails = splitList(context.getNodeParameter('emails', itemIndex)).map((email) =>
		emailValue(context, itemIndex, 'Email Addresses', email),
	);
	if (emails.length === 0)
		throw invalid(context, itemIndex, 'Email Addresses', 'needs at least one address', '');
	const externalIdList = splitList(context.getNodeParameter('externalIds', itemIndex, ''));
	if (externalIdList.length > 0 && externalIdList.length !== emails.length) {
		throw invalid(
			context,
			itemIndex,
			'External IDs',
			`must hold one ID per address (${emails.length} addresses, ${externalIdList.length} IDs)`,
			externalIdList.join(', '),
		);
	}
	const contextEntries = (
		context.getNodeParameter('context.values', itemIndex, []) as IDataObject[]
	).map(({ name, value }) => [String(name ?? '').trim(), String(value ?? '')]);
	for (const [name] of contextEntries) {
		if (!/^\w+$/.test(name))
			throw invalid(
				context,
				itemIndex,
				'Context Values: Variable',
				'may hold only letters, digits and _',
				name,
			);
	}
	const contextValues =
		contextEntries.length > 0
			? (Object.fromEntries(contextEntries) as Record<string, string>)
			: undefined;
	const shared = readShared(context, itemIndex);
	const missing = shared.placeholders.filter((name) => !contextValues || !(name in contextValues));
	if (missing.length > 0) {
		throw invalid(
			context,
			itemIndex,
			'Context Values',
			`need a value for every placeholder of Subject and Intro; missing: ${missing.join(', ')}`,
			Object.keys(contextValues ?? {}),
		);
	}
	return {
		itemIndex,
		emails,
		externalIds: externalIdList.length > 0 ? externalIdList : undefined,
		contextValues,
		shared: shared.params,
	};
}

interface Batch {
	entries: Array<{
		itemIndex: number;
		email: string;
		externalId?: string;
		contextValues?: Record<string, string>;
	}>;
	shared: ParamHash;
}

/**
 * Requests of at most 100 addresses; only parts with the same request-level parameters share one.
 */
function batchesOf(parts: SurveyPart[]): Batch[] {
	const groups = new Map<string, Batch>();
	for (const part of parts) {
		const key = JSON.stringify(part.shared);
		const group = groups.get(key) ?? { shared: part.shared, entries: [] };
		part.emails.forEach((email, index) =>
			group.entries.push({
				itemIndex: part.itemIndex,
				email,
				externalId: part.externalIds?.[index],
				contextValues: part.contextValues,
			}),
		);
		groups.set(key, group);
	}
	return [...groups.values()].flatMap(({ shared, entries }) =>
		Array.from({ length: Math.ceil(entries.length / MAX_SURVEY_EMAILS) }, (_, batch) => ({
			shared,
			entries: entries.slice(batch * MAX_SURVEY_EMAILS, (batch + 1) * MAX_SURVEY_EMAILS),
		})),
	);
}

function batchParams(batch: Batch): ParamHash {
	const { entries, shared } = batch;
	// Ids and context values go one per address, aligned with emails[]. Every address gets every
	// context variable of its batch (empty where its item gave none), so the hashes stay aligned too.
	const externalIds = entries.every((entry) => entry.externalId !== undefined)
		? entries.map((entry) => entry.externalId!)
		: undefined;
	const variables = [
		...new Set(entries.flatMap((entry) => Object.keys(entry.contextValues ?? {}))),
	];
	const contexts =
		variables.length > 0
			? entries.map((entry) =>
					Object.fromEntries(variables.map((name) => [name, entry.contextValues?.[name] ?? ''])),
				)
			: undefined;
	return {
		emails: entries.map((entry) => entry.email),
		external_ids: externalIds,
		survey_immediately: shared.survey_immediately,
		end_user: shared.end_user,
		subject: shared.subject,
		intro: shared.intro,
		context: contexts,
		senders_name: shared.senders_name,
		reply_to_email: shared.reply_to_email,
		delay: shared.delay,
		survey_settings: shared.survey_settings,
	};
}

/**
 * POST /v1/email_survey per batch, in order; stops at the first failure and says what was and was
 * not sent.
 */
async function sendBatches(
	context: IExecuteFunctions,
	parts: SurveyPart[],
): Promise<INodeExecutionData[]> {
	const mixed = parts.some((part) => part.externalIds) && parts.some((part) => !part.externalIds);
	if (mixed) {
		const without = parts.find((part) => !part.externalIds)!;
		throw invalid(
			context,
			without.itemIndex,
			'External IDs',
			'must be given for every item or for none, when items are combined',
			'',
		);
	}
	const batches = batchesOf(parts);
	const output: INodeExecutionData[] = [];
	for (const [index, batch] of batches.entries()) {
		const items = [...new Set(batch.entries.map((entry) => entry.itemIndex))];
		let response: IDataObject | undefined;
		try {
			response = await wootricRequest<IDataObject | undefined>(context, {
				method: 'POST',
				path: '/v1/email_survey',
				form: batchParams(batch),
				itemIndex: items[0],
			});
		} catch (error) {
			const sent = batches.slice(0, index).reduce((sum, done) => sum + done.entries.length, 0);
			const unsentItems = [
				...new Set(
					batches.slice(index).flatMap((rest) => rest.entries.map((entry) => entry.itemIndex)),
				),
			];
			throw stoppedPartWay(
				context.getNode(),
				error,
				`Email survey request ${index + 1} of ${batches.length}`,
				`Sent: ${index === 0 ? 'nothing' : `requests ${span(1, index)} (${sent} addresses)`}. Not sent: requests ${span(index + 1, batches.length)}, with the addresses of items ${unsentItems.join(', ')}.`,
				items[0],
			);
		}
		output.push({
			json: {
				...(response ?? { success: true }),
				emails: batch.entries.map((entry) => entry.email),
				request: index + 1,
				requests: batches.length,
			},
			pairedItem: items.map((item) => ({ item })),
		});
	}
	return output;
}

export function combinesItems(this: IExecuteFunctions): boolean {
	return this.getNodeParameter('combineItems', 0, true) as boolean;
}

/**
 * Every item is checked before the first request, so a bad item sends nothing (with Continue On
 * Fail, nothing of its own).
 */
export async function executeAll(
	this: IExecuteFunctions,
	eachItem: EachItem,
): Promise<INodeExecutionData[]> {
	const parts = eachItem((itemIndex) => readPart(this, itemIndex));
	return await sendBatches(this, parts);
}

export function prepare(this: IExecuteFunctions, itemIndex: number): ItemRequests<IDataObject[]> {
	const part = readPart(this, itemIndex);
	return async () => (await sendBatches(this, [part])).map((item) => item.json);
}
