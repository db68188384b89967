import type { IConnections, IDataObject, INode, IWorkflowBase } from 'n8n-workflow';
import { NodeConnectionTypes, Workflow } from 'n8n-workflow';

import { ITEMS_SOURCE_NODE_TYPE } from './items-source-node';
import type { NodeTypeRegistry } from './type-registries';

const WORKFLOW_ID = 'harness-workflow';

let lastExecutionId = 0;

/** A fresh id per execution, as n8n's database gives; binary data is stored under it. */
export function nextExecutionId(): string {
	return String(++lastExecutionId);
}

/** The workflow as n8n stores it (what lifecycle hooks get) and as n8n-core runs it. */
export function createHarnessWorkflow(options: {
	nodes: INode[];
	connections?: IConnections;
	nodeTypes: NodeTypeRegistry;
	active?: boolean;
	staticData?: IDataObject;
	/** The workflow's time zone setting; n8n's default (America/New_York) when not given. */
	timezone?: string;
}): { workflowData: IWorkflowBase; workflow: Workflow } {
	const now = new Date();
	const workflowData: IWorkflowBase = {
		id: WORKFLOW_ID,
		name: 'Harness workflow',
		active: options.active ?? false,
		activeVersionId: null,
		isArchived: false,
		createdAt: now,
		updatedAt: now,
		nodes: options.nodes,
		connections: options.connections ?? {},
		settings: { executionOrder: 'v1', ...(options.timezone ? { timezone: options.timezone } : {}) },
		staticData: options.staticData,
	};
	const workflow = new Workflow({ ...workflowData, nodeTypes: options.nodeTypes });
	return { workflowData, workflow };
}

/**
 * The workflow "Items Source → node": the node under test with a real parent, whose output the
 * harness's input items become. `tools` are connected to the node's ai_tool input.
 */
export function createItemsSourceWorkflow(
	node: INode,
	nodeTypes: NodeTypeRegistry,
	timezone?: string,
	tools: INode[] = [],
): { itemsSource: INode; workflowData: IWorkflowBase; workflow: Workflow } {
	const itemsSource: INode = {
		id: 'items-source',
		name: 'Items Source',
		type: ITEMS_SOURCE_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const { workflowData, workflow } = createHarnessWorkflow({
		nodes: [itemsSource, node, ...tools],
		connections: {
			[itemsSource.name]: {
				main: [[{ node: node.name, type: NodeConnectionTypes.Main, index: 0 }]],
			},
			...Object.fromEntries(
				tools.map((tool) => [
					tool.name,
					{ ai_tool: [[{ node: node.name, type: NodeConnectionTypes.AiTool, index: 0 }]] },
				]),
			),
		},
		nodeTypes,
		timezone,
	});
	return { itemsSource, workflowData, workflow };
}
