import type { IConnections, IDataObject, INode, IWorkflowBase } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

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
