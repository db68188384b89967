import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IVersionedNodeType,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { LoadedNodeTypes } from './type-registries';

/**
 * The tool variant n8n's loader adds for every node with `usableAsTool` (packages/cli,
 * convertNodeToAiTool): type `<node>Tool`, no main input, an ai_tool output, and the Tool
 * Description parameters unless the node has its own. n8n-workflow resolves `@tool` to true for it
 * (its name ends in "Tool"), and n8n-core calls its `execute` when an agent calls the tool.
 */
export function toolVariants(nodeTypes: LoadedNodeTypes): LoadedNodeTypes {
	return Object.fromEntries(
		Object.entries(nodeTypes).flatMap(([name, loaded]) => {
			const type = loaded.type as INodeType | IVersionedNodeType;
			if ('nodeVersions' in type || !type.description.usableAsTool) return [];
			const variant: INodeType = Object.create(type, {
				description: { value: toolDescriptionOf(type.description) },
			});
			return [[`${name}Tool`, { ...loaded, type: variant }]];
		}),
	);
}

function toolDescriptionOf(description: INodeTypeDescription): INodeTypeDescription {
	const { usableAsTool, ...rest } = description;
	const replacements = typeof usableAsTool === 'object' ? usableAsTool.replacements : {};
	// n8n adds its Tool Description pair only to a node without a `toolDescription` of its own.
	const hasToolDescription = description.properties.some(({ name }) => name === 'toolDescription');
	return {
		...rest,
		...replacements,
		name: `${description.name}Tool`,
		displayName: `${description.displayName} Tool`,
		inputs: [],
		outputs: [NodeConnectionTypes.AiTool],
		properties: [
			...(hasToolDescription ? [] : toolDescriptionPair(description.description)),
			...description.properties,
		],
	};
}

function toolDescriptionPair(nodeDescription: string): INodeProperties[] {
	return [
		{
			displayName: 'Tool Description',
			name: 'descriptionType',
			type: 'options',
			noDataExpression: true,
			options: [
				{ name: 'Set Automatically', value: 'auto' },
				{ name: 'Set Manually', value: 'manual' },
			],
			default: 'auto',
		},
		{
			displayName: 'Description',
			name: 'toolDescription',
			type: 'string',
			default: nodeDescription,
			displayOptions: { show: { descriptionType: ['manual'] } },
		},
	];
}

export const TOOL_CALLER_NODE_TYPE = 'n8n-harness.toolCaller';

/**
 * Stands in for an AI agent: gets its connected tool from n8n-core (getInputConnectionData, as
 * n8n's agents do) and calls it once per input item, with the item as the arguments a model would
 * send. Each output item is one call: the tool's name and description, and its answer (parsed
 * JSON) or the error text the model would read.
 */
class ToolCaller implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Tool Caller',
		name: 'toolCaller',
		group: ['transform'],
		version: 1,
		description: 'Calls its tool as an agent would',
		defaults: { name: 'Tool Caller' },
		inputs: [
			NodeConnectionTypes.Main,
			{ type: NodeConnectionTypes.AiTool, displayName: 'Tool', required: true, maxConnections: 1 },
		],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const tool = (await this.getInputConnectionData(NodeConnectionTypes.AiTool, 0)) as {
			name: string;
			description: string;
			invoke(args: IDataObject): Promise<string>;
		};
		const output: INodeExecutionData[] = [];
		for (const [item, { json }] of this.getInputData().entries()) {
			const call = { name: tool.name, description: tool.description };
			try {
				const answer = await tool.invoke(json);
				output.push({ json: { ...call, answer: JSON.parse(answer) }, pairedItem: { item } });
			} catch (error) {
				output.push({ json: { ...call, error: (error as Error).message }, pairedItem: { item } });
			}
		}
		return [output];
	}
}

export const toolCallerNodeType: LoadedNodeTypes = {
	[TOOL_CALLER_NODE_TYPE]: { type: new ToolCaller(), sourcePath: __filename },
};
