import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { simplifyRecord } from './records';

/**
 * The item for a success the API answers with an empty body (202, 204): what was done, to which
 * record.
 */
export function successRecord(fields: IDataObject): IDataObject {
	return { success: true, ...fields };
}

/**
 * Where a create keeps Simplify: under Additional Fields in version 1, under Options from 1.1
 * (createFieldsWithSimplify).
 */
export function createSimplifyCollection(
	context: IExecuteFunctions,
): 'options' | 'additionalFields' {
	return context.getNode().typeVersion < 1.1 ? 'additionalFields' : 'options';
}

/**
 * The record as the item's output: simplified when the item's Simplify option is on. `collection`
 * is the collection holding that option: Options, or Additional Fields on a create.
 */
export function simplifyIfChosen(
	context: IExecuteFunctions,
	itemIndex: number,
	record: IDataObject,
	collection: 'options' | 'additionalFields' = 'options',
): IDataObject {
	const chosen = context.getNodeParameter(collection, itemIndex, {}) as IDataObject;
	return chosen.simplify ? simplifyRecord(record) : record;
}
