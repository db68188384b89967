import { ExecutionLifecycleHooks, WorkflowExecute, prepareBinaryData } from 'n8n-core';
import type {
	ExecutionError,
	IBinaryKeyData,
	IDataObject,
	INodeExecutionData,
	IRunData,
} from 'n8n-workflow';
import { NodeConnectionTypes, createRunExecutionData } from 'n8n-workflow';

import { TOOL_CALLER_NODE_TYPE, toolCallerNodeType } from './as-tool';
import { recordShown } from './shown';
import { buildAdditionalData } from './additional-data';
import type { InMemoryCredentialsHelper } from './credentials-helper';
import { createItemsSourceWorkflow, nextExecutionId } from './harness-workflow';
import { harnessNodeTypes } from './items-source-node';
import type { NodeUnderTestOptions } from './node-under-test';
import { prepareNodeUnderTest } from './node-under-test';

/** A file for an input item's binary property, e.g. a CSV under `data`. */
export interface BinaryInput {
	content: Buffer | string;
	/**
	 * Also gives the MIME type when `mimeType` is left out (by extension, as n8n does); files made by
	 * code may have none.
	 */
	fileName?: string;
	mimeType?: string;
}

export interface InputItem {
	json: IDataObject;
	binary?: Record<string, BinaryInput>;
}

export interface RunNodeOptions extends NodeUnderTestOptions {
	/** The items reaching the node; defaults to the single empty item a Manual Trigger emits. */
	inputItems?: InputItem[];
	/** The node's "On Error: Continue" setting. */
	continueOnFail?: boolean;
}

export interface NodeRun {
	/**
	 * The items of the node's first output. For a tool variant (e.g. `wootricTool`): one item per
	 * input item, the tool's call with that item as its arguments: `{ name, description, answer }`
	 * or `{ name, description, error }`.
	 */
	items: INodeExecutionData[];
	/** The items of each of the node's outputs. */
	outputs: INodeExecutionData[][];
	/** The error the node failed with, as n8n records it in the execution. */
	error?: ExecutionError;
	credentialsHelper: InMemoryCredentialsHelper;
	credentialId?: string;
	/** The whole execution's run data, keyed by node name. */
	runData: IRunData;
	/** How long the node's step took (n8n's hooks before and after it), in ms. */
	nodeStepMs: number;
}

/**
 * Runs a workflow "Items Source → node under test" through n8n-core's WorkflowExecute, as a manual
 * execution, and returns what the node under test did. A tool variant runs as an agent's tool:
 * "Items Source → Tool Caller", the tool connected to the caller, which calls it once per item
 * (as-tool.ts).
 */
export async function runNode(options: RunNodeOptions): Promise<NodeRun> {
	const {
		node: tested,
		nodeTypes,
		credentialsHelper,
		credentialId,
	} = await prepareNodeUnderTest(options, { ...harnessNodeTypes, ...toolCallerNodeType });
	if (options.continueOnFail) tested.onError = 'continueRegularOutput';
	const asTool = nodeTypes
		.getByNameAndVersion(tested.type, tested.typeVersion)
		.description.outputs.includes(NodeConnectionTypes.AiTool);
	const node = asTool ? toolCaller : tested;
	const { itemsSource, workflowData, workflow } = createItemsSourceWorkflow(
		node,
		nodeTypes,
		options.timezone,
		asTool ? [tested] : [],
	);

	const executionId = nextExecutionId();
	const inputItems = await toExecutionItems(
		options.inputItems ?? [{ json: {} }],
		workflow.id,
		executionId,
	);
	const hooks = new ExecutionLifecycleHooks('manual', executionId, workflowData);
	// The node's own step, from n8n's hooks around it (what n8n's execution view times), for the
	// bench.
	const step = { start: 0, end: 0 };
	hooks.addHandler(
		'nodeExecuteBefore',
		(nodeName) => void (nodeName === node.name && (step.start = performance.now())),
	);
	hooks.addHandler(
		'nodeExecuteAfter',
		(nodeName) => void (nodeName === node.name && (step.end = performance.now())),
	);
	const additionalData = buildAdditionalData({ credentialsHelper, executionId, hooks });
	// Like a trigger's output: the items wait on the start node's input when the execution begins.
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node: itemsSource, data: { main: [inputItems] }, source: null }],
		},
	});
	const run = await new WorkflowExecute(
		additionalData,
		'manual',
		runExecutionData,
	).processRunExecutionData(workflow);

	const { runData } = run.data.resultData;
	const task = runData[node.name]?.[0];
	const outputs = (task?.data?.[NodeConnectionTypes.Main] ?? []).map((items) => items ?? []);
	const result = {
		items: outputs[0] ?? [],
		outputs,
		error: task?.error ?? run.data.resultData.error,
		credentialsHelper,
		credentialId,
		runData,
		nodeStepMs: step.end - step.start,
	};
	recordShown({ outputs, error: result.error });
	return result;
}

const toolCaller = {
	id: 'tool-caller',
	name: 'Tool Caller',
	type: TOOL_CALLER_NODE_TYPE,
	typeVersion: 1,
	position: [400, 0] as [number, number],
	parameters: {},
};

async function toExecutionItems(
	items: InputItem[],
	workflowId: string,
	executionId: string,
): Promise<INodeExecutionData[]> {
	return await Promise.all(
		items.map(async ({ json, binary }) => {
			if (!binary) return { json };
			const binaryData: IBinaryKeyData = {};
			for (const [property, { content, fileName, mimeType }] of Object.entries(binary)) {
				// What a node reading a file does (`this.helpers.prepareBinaryData`): store the bytes, keep
				// a reference.
				binaryData[property] = await prepareBinaryData(
					Buffer.from(content),
					executionId,
					workflowId,
					fileName,
					mimeType,
				);
			}
			return { json, binary: binaryData };
		}),
	);
}
