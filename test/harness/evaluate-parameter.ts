import { ExecuteContext } from 'n8n-core';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { createRunExecutionData } from 'n8n-workflow';

import { buildAdditionalData } from './additional-data';
import { createItemsSourceWorkflow } from './harness-workflow';
import { harnessNodeTypes } from './items-source-node';
import type { NodeUnderTestOptions } from './node-under-test';
import { prepareNodeUnderTest } from './node-under-test';

export interface ParameterEvaluationOptions extends NodeUnderTestOptions {
	/** The input items' JSON. */
	inputItems: IDataObject[];
}

/**
 * n8n's evaluation of one parameter for one input item: what `getNodeParameter` returns (it throws
 * what n8n throws).
 */
export type EvaluateParameter = (name: string, itemIndex: number, fallback?: unknown) => unknown;

/**
 * n8n's own evaluation of the node under test's parameters, outside any run: n8n-core's
 * ExecuteContext for the same node (parameters, version) on the same input items, as the engine
 * builds it for the node's step, and its `getNodeParameter`. The reference a test or the bench
 * compares the node with.
 */
export async function parameterEvaluation(
	options: ParameterEvaluationOptions,
): Promise<EvaluateParameter> {
	const { node, nodeTypes, credentialsHelper } = await prepareNodeUnderTest(
		options,
		harnessNodeTypes,
	);
	const { itemsSource, workflow } = createItemsSourceWorkflow(node, nodeTypes, options.timezone);
	const items: INodeExecutionData[] = options.inputItems.map((json, item) => ({
		json,
		pairedItem: { item },
	}));
	const inputData = { main: [items] };
	const context = new ExecuteContext(
		workflow,
		// The engine's copy of the node, with n8n's defaults filled in as the Workflow holds it.
		workflow.getNode(node.name)!,
		buildAdditionalData({ credentialsHelper }),
		'manual',
		createRunExecutionData(),
		0,
		items,
		inputData,
		{
			node: workflow.getNode(node.name)!,
			data: inputData,
			source: { main: [{ previousNode: itemsSource.name }] },
		},
		[],
	);
	return (name, itemIndex, fallback) => context.getNodeParameter(name, itemIndex, fallback);
}

/**
 * Each item's value of one parameter as n8n evaluates it, or the error n8n throws for that item.
 */
export async function evaluateParameter(
	options: ParameterEvaluationOptions & { name: string },
): Promise<Array<{ value: unknown } | { error: Error }>> {
	const evaluate = await parameterEvaluation(options);
	return options.inputItems.map((_, itemIndex) => {
		try {
			return { value: evaluate(options.name, itemIndex) };
		} catch (error) {
			return { error: error as Error };
		}
	});
}
