import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { LoadedNodeTypes } from './type-registries';

export const ITEMS_SOURCE_NODE_TYPE = 'n8n-harness.itemsSource';

/**
 * Start node of the workflows `runNode` builds: it passes on the items the harness puts on its
 * input, like n8n's former Start node, so the node under test gets a real parent and paired-item
 * lineage.
 */
class ItemsSource implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Items Source',
		name: 'itemsSource',
		group: ['input'],
		version: 1,
		description: 'Emits the items a test gives the harness',
		defaults: { name: 'Items Source' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

export const harnessNodeTypes: LoadedNodeTypes = {
	[ITEMS_SOURCE_NODE_TYPE]: { type: new ItemsSource(), sourcePath: __filename },
};
