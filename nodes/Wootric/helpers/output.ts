import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { asTool, speaksOneVocabulary } from './fields';
import { pickFields, simplifyRecord, type RecordShape } from './records';
import { NPS_SCALE, type SurveyScale } from './surveyTypes';
import { invalid } from './validation';

/**
 * The item for a success the API answers with an empty body (202, 204): what was done, to which
 * record.
 */
export function successRecord(fields: IDataObject): IDataObject {
	return { success: true, ...fields };
}

/**
 * Where a create keeps Simplify: under Additional Fields in version 1, under Options from 1.1
 * (createFieldsWithSimplify), for recordOutput.
 */
export function createSimplifyCollection(
	context: IExecuteFunctions,
): 'options' | 'additionalFields' {
	return context.getNode().typeVersion < 1.1 ? 'additionalFields' : 'options';
}

/**
 * The record as the item's output. Before 1.3: as the API answered it, or simplified
 * (simplifyRecord) when the item's Simplify option is on. From 1.3 always with ISO datetimes and,
 * for a response, its category on `scale` (the account's survey type; only responses have a score);
 * Simplify keeps only the main fields of `shape` (a record without a shape is not offered Simplify
 * from 1.3). `collection` is the collection holding the option: Options, or Additional Fields on a
 * version 1 create.
 */
export function recordOutput(
	context: IExecuteFunctions,
	itemIndex: number,
	record: IDataObject,
	shape?: RecordShape,
	collection: 'options' | 'additionalFields' = 'options',
	scale: SurveyScale = NPS_SCALE,
): IDataObject {
	const chosen = context.getNodeParameter(collection, itemIndex, {}) as IDataObject;
	if (!speaksOneVocabulary(context.getNode()))
		return chosen.simplify ? simplifyRecord(record, scale) : record;
	const readable = simplifyRecord(record, scale);
	return chosen.simplify && shape ? pickFields(readable, shape.simplified) : readable;
}

/**
 * Output and Fields of a list operation in an agent's tool, as n8n's guidelines for tool nodes ask:
 * Simplified (the default), Raw or Selected Fields.
 */
export function toolOutputFields(shape: RecordShape): INodeProperties[] {
	return [
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			options: [
				{
					name: 'Raw',
					value: 'raw',
					description: `Every field of the ${shape.records}: as Wootric returns them before node version 1.3, from 1.3 with ISO datetimes`,
				},
				{
					name: 'Selected Fields',
					value: 'selected',
					description: `Only the fields you pick, and ${shape.key}`,
				},
				{
					name: 'Simplified',
					value: 'simplified',
					description: `The main fields: ${shape.simplified.join(', ')}`,
				},
			],
			default: 'simplified',
			description:
				'What the agent gets of each record. Simplified and Selected Fields (from node version 1.3 also Raw) give datetimes in ISO 8601 UTC.',
			displayOptions: { show: asTool },
		},
		{
			displayName: 'Fields',
			name: 'outputFields',
			type: 'multiOptions',
			options: Object.entries(shape.fields)
				.map(([value, description]) => ({ name: value, value, description }))
				.sort((a, b) => a.name.localeCompare(b.name)),
			default: [],
			description: `The fields to output; ${shape.key} is always included`,
			displayOptions: { show: { ...asTool, output: ['selected'] } },
		},
	];
}

/**
 * How a list operation's records become its output items. As an agent's tool: its Output option
 * (toolOutputFields). Elsewhere Output is not a parameter of the node, and `simplify` (the Simplify
 * option) decides: before 1.3 it adds (simplifyRecord), from 1.3 it keeps the fields the tool's
 * Simplified keeps. From 1.3 every record has ISO datetimes and a response its category on
 * `scale`, Raw too.
 */
export function readRecordOutput(
	context: IExecuteFunctions,
	itemIndex: number,
	shape: RecordShape,
	simplify: boolean,
	scale: SurveyScale = NPS_SCALE,
): (record: IDataObject) => IDataObject {
	const oneVocabulary = speaksOneVocabulary(context.getNode());
	const readable = (record: IDataObject) => simplifyRecord(record, scale);
	const raw = oneVocabulary ? readable : (record: IDataObject) => record;
	const simplified = (record: IDataObject) => pickFields(readable(record), shape.simplified);
	const output = context.getNodeParameter('output', itemIndex, '') as string;
	switch (output) {
		case 'raw':
			return raw;
		case 'simplified':
			return simplified;
		case 'selected': {
			const chosen = context.getNodeParameter('outputFields', itemIndex, []) as string[];
			const fields = [shape.key, ...chosen.filter((field) => field !== shape.key)];
			return (record) => pickFields(readable(record), fields);
		}
		case '':
			if (!simplify) return raw;
			return oneVocabulary ? simplified : readable;
		default:
			throw invalid(context, itemIndex, 'Output', 'must be raw, simplified or selected', output);
	}
}
