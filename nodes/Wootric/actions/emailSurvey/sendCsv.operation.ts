import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import {
	CONTEXT_PREFIX,
	contextVariables,
	csvChunks,
	csvText,
	LANGUAGE_COLUMN,
	languagesUsed,
	parseSurveyCsv,
	type SurveyCsv,
} from '../../helpers/csv';
import { optionsCollection, readOncePerRun, speaksOneVocabulary } from '../../helpers/fields';
import { span, stoppedPartWay } from '../../helpers/progress';
import { languagesOf, listSurveyTemplates, MULTI_LANGUAGE } from '../../helpers/surveyTemplates';
import { emailValue, integerValue, invalid } from '../../helpers/validation';
import { flattenParams, wootricRequest } from '../../transport';
import { placeholdersIn, readSurveyParams, surveyFields } from './surveySettings';
import type { EachItem, ItemRequests } from '../types';

export const option = {
	name: 'Send From CSV',
	action: 'Send surveys by email from a CSV',
	description:
		'Email NPS surveys to the addresses of a CSV file, or of a CSV built from the input items',
};

export const toolDescription =
	"Send surveys by email from a CSV in Wootric: NPS surveys to the addresses of a CSV. Returns one record per request sent: Wootric's answer and the CSV rows it carried.";

const nameValueCollection = (
	name: string,
	displayName: string,
	description: string,
	namePlaceholder: string,
): INodeProperties => ({
	displayName,
	name,
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Column',
	default: {},
	description,
	displayOptions: { show: { source: ['items'] } },
	options: [
		{
			displayName: 'Column',
			name: 'columns',
			values: [
				{
					displayName: 'Name',
					name: 'name',
					type: 'string',
					default: '',
					placeholder: namePlaceholder,
					description: 'The column header',
				},
				{
					displayName: 'Value',
					name: 'value',
					type: 'string',
					default: '',
					description: "The item's value in this column, usually an expression",
				},
			],
		},
	],
});

export const description: INodeProperties[] = [
	// Read once per run: it decides whether the items make one CSV.
	...readOncePerRun({
		displayName: 'Source',
		name: 'source',
		type: 'options',
		options: [
			{ name: 'Binary File', value: 'binary', description: 'A CSV file of each input item' },
			{
				name: 'Build From Items',
				value: 'items',
				description: 'One CSV with a row per input item',
			},
		],
		default: 'binary',
	}),
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		description:
			'The binary field holding the CSV. Its first row names the columns: "email" first, then optional "___context:name" columns for placeholders, a "language" column, and property columns.',
		displayOptions: { show: { source: ['binary'] } },
	},
	{
		displayName: 'Email',
		name: 'csvEmail',
		type: 'string',
		default: '',
		required: true,
		placeholder: '{{ $json.email }}',
		description: "The address of each item's row",
		displayOptions: { show: { source: ['items'] } },
	},
	{
		displayName: 'Language Code',
		name: 'csvLanguage',
		type: 'string',
		default: '',
		placeholder: 'ES',
		description:
			"Each row's survey language, for a Multi-Language survey; leave empty for no language column",
		displayOptions: { show: { source: ['items'] } },
	},
	nameValueCollection(
		'csvContext',
		'Context Columns',
		'Values for the {{variable}} placeholders of Subject and Intro, per row',
		'first_name',
	),
	nameValueCollection('csvProperties', 'Property Columns', 'End-user properties, per row', 'plan'),
	...surveyFields,
	optionsCollection([
		{
			displayName: 'File Name',
			name: 'fileName',
			type: 'string',
			default: '',
			placeholder: 'surveys.csv',
			description:
				"The name the CSV is uploaded under. Empty: the binary file's own name, else surveys.csv.",
		},
		{
			displayName: 'Start at Row',
			name: 'startAtRow',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 1,
			description:
				'Skip the rows before this one (counted after the header). To resume a job that stopped part way, use the row its error names.',
		},
	]),
];

const RESERVED_COLUMNS = new Set(['email', LANGUAGE_COLUMN]);

/**
 * The fields of a Build From Items job besides its rows, as one item gives them, by label: the
 * survey fields and the Options.
 */
function jobFieldsOf(context: IExecuteFunctions, itemIndex: number): Array<[string, unknown]> {
	const { params } = readSurveyParams(context, itemIndex);
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const fields = {
		'Survey Immediately': params.survey_immediately,
		Subject: params.subject,
		Intro: params.intro,
		'Survey Template, Language or Survey Settings': params.survey_settings,
		'File Name': options.fileName,
		'Start at Row': options.startAtRow,
	};
	return Object.entries(fields);
}

/**
 * One CSV from the input items (those read without error): email first, then language, context and
 * property columns. From 1.3 every item's survey fields and Options are read too, and must be those
 * of the first item read: one CSV is one survey, and a value that differs by item would otherwise
 * be dropped silently (before 1.3 the job takes item 0's).
 */
function csvFromItems(
	context: IExecuteFunctions,
	eachItem: EachItem,
): { csv: string; itemIndexes: number[] } {
	const checksJobFields = speaksOneVocabulary(context.getNode());
	let first: { itemIndex: number; fields: Array<[string, unknown]> } | undefined;
	const read = eachItem((itemIndex) => {
		const columns = (name: string) =>
			(context.getNodeParameter(`${name}.columns`, itemIndex, []) as IDataObject[]).map(
				({ name: column, value }) => [String(column ?? '').trim(), String(value ?? '')] as const,
			);
		const properties = columns('csvProperties');
		for (const [name] of properties) {
			if (name === '' || RESERVED_COLUMNS.has(name) || name.startsWith(CONTEXT_PREFIX))
				throw invalid(
					context,
					itemIndex,
					'Property Columns: Name',
					'must be a name other than email, language or ___context:…',
					name,
				);
		}
		const row: Record<string, string> = {
			email: emailValue(
				context,
				itemIndex,
				'Email',
				context.getNodeParameter('csvEmail', itemIndex),
			),
			[LANGUAGE_COLUMN]: String(
				context.getNodeParameter('csvLanguage', itemIndex, '') ?? '',
			).trim(),
			...Object.fromEntries(
				columns('csvContext').map(([name, value]) => [`${CONTEXT_PREFIX}${name}`, value]),
			),
			...Object.fromEntries(properties),
		};
		if (checksJobFields) {
			const fields = jobFieldsOf(context, itemIndex);
			first ??= { itemIndex, fields };
			// Values read from the same parameters: their JSON lists keys in the same order.
			const differing = fields.findIndex(
				([, value], index) => JSON.stringify(value) !== JSON.stringify(first!.fields[index][1]),
			);
			if (differing !== -1) {
				const [label, value] = fields[differing];
				throw invalid(
					context,
					itemIndex,
					label,
					`must be the same for every item when Source is Build From Items (one CSV is one survey); item ${first.itemIndex} gives ${JSON.stringify(first.fields[differing][1]) ?? 'none'}`,
					value ?? '',
				);
			}
		}
		return { itemIndex, row };
	});
	const rows = read.map(({ row }) => row);
	const withLanguage = rows.some((row) => row[LANGUAGE_COLUMN] !== '');
	const fields = [...new Set(rows.flatMap((row) => Object.keys(row)))].filter(
		(field) => field !== LANGUAGE_COLUMN || withLanguage,
	);
	const csv = csvText(
		fields,
		rows.map((row) => fields.map((field) => row[field] ?? '')),
	);
	return { csv, itemIndexes: read.map(({ itemIndex }) => itemIndex) };
}

/**
 * A language column needs Multi-Language and a template, and every code must be one the template
 * has.
 */
async function checkLanguages(
	context: IExecuteFunctions,
	itemIndex: number,
	csv: SurveyCsv,
	language: string | undefined,
	templateId: number | undefined,
) {
	const used = languagesUsed(csv);
	if (!used) {
		if (language === MULTI_LANGUAGE)
			throw invalid(
				context,
				itemIndex,
				'Language',
				`Multi-Language needs a "${LANGUAGE_COLUMN}" column in the CSV`,
				language,
			);
		return;
	}
	if (language !== MULTI_LANGUAGE || templateId === undefined) {
		throw invalid(
			context,
			itemIndex,
			'Language',
			`must be Multi-Language, with a Survey Template chosen, for a CSV with a "${LANGUAGE_COLUMN}" column`,
			language ?? '',
		);
	}
	const { templates } = await listSurveyTemplates(context, itemIndex);
	const template = templates.find((candidate) => Number(candidate.id) === templateId);
	if (!template)
		throw invalid(
			context,
			itemIndex,
			'Survey Template',
			'is not a template of this account: Wootric does not list it (GET /v1/survey_templates)',
			templateId,
		);
	const allowed = languagesOf(template).map((entry) => entry.code);
	const unknown = [...used].filter(([code]) => !allowed.includes(code));
	if (unknown.length > 0) {
		const rows = unknown.map(
			([code, atRows]) =>
				`"${code}" (row${atRows.length > 1 ? 's' : ''} ${atRows.slice(0, 5).join(', ')}${atRows.length > 5 ? ', …' : ''})`,
		);
		throw invalid(
			context,
			itemIndex,
			'CSV language column',
			`holds codes the survey template does not have: ${rows.join('; ')}. Allowed: ${allowed.join(', ') || 'none (the template lists no language Wootric’s answer could read)'}`,
			unknown.map(([code]) => code),
		);
	}
}

const DEFAULT_FILE_NAME = 'surveys.csv';

/** A CSV survey job, read and checked: what readCsvJob gives sendCsvJob. */
interface CsvJob {
	csv: SurveyCsv;
	survey: ReturnType<typeof readSurveyParams>;
	startAtRow: number;
	fileName: string;
}

/**
 * Reads and checks a CSV and the survey fields, sending nothing. The upload's name is the File Name
 * option, else `sourceFileName` (a binary input's own), else surveys.csv.
 */
function readCsvJob(
	context: IExecuteFunctions,
	itemIndex: number,
	text: string,
	source: string,
	sourceFileName?: string,
): CsvJob {
	const csv = parseSurveyCsv(context, itemIndex, text, source);
	const survey = readSurveyParams(context, itemIndex);
	const defined = contextVariables(csv);
	const missing = placeholdersIn(survey.subject, survey.intro).filter(
		(name) => !defined.includes(name),
	);
	if (missing.length > 0) {
		throw invalid(
			context,
			itemIndex,
			'Subject/Intro',
			`use placeholders the CSV has no "${CONTEXT_PREFIX}…" column for: ${missing.join(', ')}`,
			missing,
		);
	}
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const startAtRow = integerValue(context, itemIndex, 'Start at Row', options.startAtRow ?? 1, {
		min: 1,
		max: csv.rows.length,
	});
	const fileName = String(options.fileName || sourceFileName || DEFAULT_FILE_NAME);
	return { csv, survey, startAtRow, fileName };
}

/**
 * Checks the CSV's languages against the survey template (which may take a request), then POSTs
 * /v1/email_survey_csv once per chunk of at most 5,000 rows, in order.
 */
async function sendCsvJob(
	context: IExecuteFunctions,
	itemIndex: number,
	{ csv, survey, startAtRow, fileName }: CsvJob,
): Promise<IDataObject[]> {
	await checkLanguages(context, itemIndex, csv, survey.language, survey.templateId);

	const chunks = csvChunks(csv, startAtRow);
	const results: IDataObject[] = [];
	for (const [index, chunk] of chunks.entries()) {
		const form = new FormData();
		for (const [name, value] of flattenParams(survey.params)) form.append(name, value);
		form.append('csv', new Blob([chunk.text], { type: 'text/csv' }), fileName);
		let response: IDataObject | undefined;
		try {
			response = await wootricRequest<IDataObject | undefined>(context, {
				method: 'POST',
				path: '/v1/email_survey_csv',
				multipart: form,
				itemIndex,
			});
		} catch (error) {
			const last = chunks[chunks.length - 1];
			throw stoppedPartWay(
				context.getNode(),
				error,
				`CSV request ${index + 1} of ${chunks.length} (rows ${span(chunk.fromRow, chunk.toRow)})`,
				`Sent: ${index === 0 ? 'nothing' : `rows ${span(chunks[0].fromRow, chunks[index - 1].toRow)}`}. Not sent: rows ${span(chunk.fromRow, last.toRow)}. To resume, set Start at Row to ${chunk.fromRow}.`,
				itemIndex,
			);
		}
		results.push({
			...(response ?? { success: true }),
			file: fileName,
			rows: { from: chunk.fromRow, to: chunk.toRow },
			request: index + 1,
			requests: chunks.length,
		});
	}
	return results;
}

export function combinesItems(this: IExecuteFunctions): boolean {
	return this.getNodeParameter('source', 0) === 'items';
}

/**
 * Build From Items: one CSV of all items; the survey fields are those of the first item (from 1.3,
 * of the first item read, which every item must match).
 */
export async function executeAll(
	this: IExecuteFunctions,
	eachItem: EachItem,
): Promise<INodeExecutionData[]> {
	const { csv, itemIndexes } = csvFromItems(this, eachItem);
	const jobItem = speaksOneVocabulary(this.getNode()) ? (itemIndexes[0] ?? 0) : 0;
	const results = await sendCsvJob(
		this,
		jobItem,
		readCsvJob(this, jobItem, csv, 'built from the input items'),
	);
	const pairedItem = itemIndexes.map((item) => ({ item }));
	return results.map((json) => ({ json, pairedItem }));
}

/** Binary File: each item's CSV is its own job. */
export async function prepare(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<ItemRequests<IDataObject[]>> {
	const property = String(this.getNodeParameter('binaryPropertyName', itemIndex)).trim();
	const binary = this.helpers.assertBinaryData(itemIndex, property);
	const text = (await this.helpers.getBinaryDataBuffer(itemIndex, property)).toString('utf8');
	const job = readCsvJob(
		this,
		itemIndex,
		text,
		`"${binary.fileName ?? property}"`,
		binary.fileName,
	);
	return async () => await sendCsvJob(this, itemIndex, job);
}
