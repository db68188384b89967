import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { resources } from './index';

/**
 * The per-item loop, written once for every operation: runs the chosen operation for each input item,
 * pairs every output item with its input, and on failure either stops with an error that names the item
 * or, with "Continue On Fail", outputs the error on that item and goes on.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const resource = this.getNodeParameter('resource', itemIndex) as string;
		const operationName = this.getNodeParameter('operation', itemIndex) as string;
		const operation = resources[resource]?.operations[operationName];
		try {
			if (!operation) throw new NodeOperationError(this.getNode(), `The operation "${operationName}" of "${resource}" is not supported`, { itemIndex });
			const records = await operation.execute.call(this, itemIndex);
			output.push(...this.helpers.constructExecutionMetaData(this.helpers.returnJsonArray(records), { itemData: { item: itemIndex } }));
		} catch (error) {
			const nodeError = withItemIndex(this, error, itemIndex);
			if (!this.continueOnFail()) throw nodeError;
			output.push({ json: { error: nodeError.message, description: nodeError.description ?? undefined }, pairedItem: { item: itemIndex } });
		}
	}
	return [output];
}

function withItemIndex(context: IExecuteFunctions, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex ??= itemIndex;
		return error;
	}
	return new NodeOperationError(context.getNode(), error as Error, { itemIndex });
}
