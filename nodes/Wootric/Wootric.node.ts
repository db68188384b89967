import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { wootricApiRequest } from './transport';

export class Wootric implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Wootric',
		name: 'wootric',
		icon: { light: 'file:wootric.svg', dark: 'file:wootric.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Read and write Wootric NPS data: end users, responses, declines, surveys',
		defaults: { name: 'Wootric' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'wootricApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [{ name: 'Segment', value: 'segment' }],
				default: 'segment',
			},
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { resource: ['segment'] } },
				options: [{ name: 'Get Many', value: 'getAll', action: 'Get many segments', description: 'List the segments of the account' }],
				default: 'getAll',
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const output: INodeExecutionData[] = [];
		for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
			try {
				const segments = (await wootricApiRequest.call(this, 'GET', '/v1/segments', {}, itemIndex)) as IDataObject[];
				output.push(...this.helpers.constructExecutionMetaData(this.helpers.returnJsonArray(segments), { itemData: { item: itemIndex } }));
			} catch (error) {
				if (!this.continueOnFail()) throw new NodeOperationError(this.getNode(), error as Error, { itemIndex });
				output.push({ json: { error: (error as Error).message }, pairedItem: { item: itemIndex } });
			}
		}
		return [output];
	}
}
