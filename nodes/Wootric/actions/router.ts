import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { resources } from './index';
import type { EachItem, ItemRequests } from './types';

/**
 * The per-item loop, written once for every operation: runs the chosen operation for each input
 * item, pairs every output item with its input, and on failure either stops with an error that
 * names the item or, with "Continue On Fail", outputs the error on that item and goes on.
 * Operations that combine all items into one job run once instead, reading the items through the
 * same rule (`eachItem`); a failure of the job itself is paired with every item.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	// Resource and operation take no expressions, so they are the same for every item.
	const resource = this.getNodeParameter('resource', 0) as string;
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = resources[resource]?.operations[operationName];
	if (!operation)
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operationName}" of "${resource}" is not supported`,
		);

	if (operation.executeAll && operation.combinesItems?.call(this)) {
		const failed: INodeExecutionData[] = [];
		const eachItem: EachItem = (read) =>
			items.flatMap((_, itemIndex) => {
				try {
					return [read(itemIndex)];
				} catch (error) {
					failed.push(failedItem(this, error, itemIndex));
					return [];
				}
			});
		try {
			const sent = await operation.executeAll.call(this, eachItem);
			return [[...failed, ...sent]];
		} catch (error) {
			const nodeError = withItemIndex(this, error, undefined);
			if (!this.continueOnFail()) throw nodeError;
			return [
				[...failed, { json: errorJson(nodeError), pairedItem: items.map((_, item) => ({ item })) }],
			];
		}
	}

	// Every item is prepared (its input read and checked) before anything is sent: a bad item stops
	// the run (or, with Continue On Fail, gets its error) while nothing has gone out for the others
	// yet.
	const prepared: Array<ItemRequests | INodeExecutionData> = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			prepared.push(await operation.prepare.call(this, itemIndex));
		} catch (error) {
			prepared.push(failedItem(this, error, itemIndex));
		}
	}

	const output: INodeExecutionData[] = [];
	for (const [itemIndex, requests] of prepared.entries()) {
		if (typeof requests !== 'function') {
			output.push(requests);
			continue;
		}
		try {
			const records = await requests();
			output.push(
				...this.helpers.constructExecutionMetaData(this.helpers.returnJsonArray(records), {
					itemData: { item: itemIndex },
				}),
			);
		} catch (error) {
			output.push(failedItem(this, error, itemIndex));
		}
	}
	return [output];
}

const errorJson = (error: NodeApiError | NodeOperationError) => ({
	error: error.message,
	description: error.description ?? undefined,
});

/**
 * An item's failure: the run stops with an error naming the item, or with Continue On Fail the
 * item's output is its error.
 */
function failedItem(
	context: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
): INodeExecutionData {
	const nodeError = withItemIndex(context, error, itemIndex);
	if (!context.continueOnFail()) throw nodeError;
	return { json: errorJson(nodeError), pairedItem: { item: itemIndex } };
}

function withItemIndex(
	context: IExecuteFunctions,
	error: unknown,
	itemIndex: number | undefined,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (itemIndex !== undefined) error.context.itemIndex ??= itemIndex;
		return error;
	}
	return new NodeOperationError(context.getNode(), error as Error, { itemIndex });
}
