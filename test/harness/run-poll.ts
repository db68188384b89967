import { Container } from '@n8n/di';
import {
	ExecutionLifecycleHooks,
	PollContext,
	PollTriggerExecutor,
	WorkflowExecute,
} from 'n8n-core';
import type { IDataObject, INode, INodeExecutionData, IWorkflowBase, Workflow } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { recordShown } from './shown';
import { buildAdditionalData } from './additional-data';
import type { InMemoryCredentialsHelper } from './credentials-helper';
import { createHarnessWorkflow, nextExecutionId } from './harness-workflow';
import type { NodeUnderTestOptions } from './node-under-test';
import { prepareNodeUnderTest } from './node-under-test';

export interface RunPollOptions extends NodeUnderTestOptions {
	/**
	 * 'trigger': a scheduled poll of an active workflow; 'manual': "Fetch Test Event" in the editor.
	 */
	mode: 'manual' | 'trigger';
	/**
	 * The node's static data (what `getWorkflowStaticData('node')` returns), kept by the caller
	 * between polls like n8n keeps it with the workflow. Updated in place after a trigger-mode poll
	 * that changed it.
	 */
	staticData: IDataObject;
	/** n8n's time budget for the poll (getPollBudgetMs); unset, n8n-core's default. */
	pollBudgetMs?: number;
	/**
	 * Trigger mode: how many polls start at once on one poll context, as n8n's own poller starts one
	 * at each Poll Time without waiting for the one before (1 by default).
	 */
	atOnce?: number;
}

interface PollOutcome {
	/** What `poll()` returned (the first poll's that emitted): null when it found nothing new. */
	result: INodeExecutionData[][] | null;
	error?: Error;
	/** What each poll that emitted emitted, and each poll's failure. */
	results: Array<INodeExecutionData[][]>;
	errors: Error[];
}

export interface PollRun extends PollOutcome {
	/**
	 * Whether the poll changed its static data (n8n's `__dataChanged`, which decides whether n8n
	 * saves it).
	 */
	staticDataChanged: boolean;
	credentialsHelper: InMemoryCredentialsHelper;
	credentialId?: string;
}

/**
 * Runs a polling trigger's `poll()` once the way n8n does in the given mode, with the caller's
 * static data.
 */
export async function runPoll(options: RunPollOptions): Promise<PollRun> {
	const { node, nodeTypes, credentialsHelper, credentialId } = await prepareNodeUnderTest(options);
	const { workflowData, workflow } = createHarnessWorkflow({
		nodes: [node],
		nodeTypes,
		active: options.mode === 'trigger',
		timezone: options.timezone,
		// n8n keeps static data as JSON in the workflow's database row, under `node:<node name>`.
		staticData: { [`node:${node.name}`]: jsonCopy(options.staticData) },
	});

	const outcome =
		options.mode === 'trigger'
			? await pollAsScheduled(
					workflow,
					node,
					credentialsHelper,
					options.pollBudgetMs,
					options.atOnce ?? 1,
				)
			: await pollAsTestEvent(workflow, workflowData, node, credentialsHelper);

	const staticDataChanged = workflow.staticData.__dataChanged === true;
	// An active workflow keeps its static data in memory from one poll to the next (n8n also writes
	// it to the database when a poll emits items); n8n never saves static data from manual
	// executions.
	if (options.mode === 'trigger' && staticDataChanged) {
		replaceContents(options.staticData, jsonCopy(workflow.getStaticData('node', node)));
	}
	recordShown({ result: outcome.result, error: outcome.error });
	return { ...outcome, staticDataChanged, credentialsHelper, credentialId };
}

/**
 * Scheduled polls, as n8n's own poller sets them up (ActiveWorkflowTriggers): n8n-core's
 * PollTriggerExecutor runs `poll()` in one PollContext per trigger and hands a non-null result to
 * `__emit` (which starts an execution) and an error to `__emitError` (which records a failed
 * execution); `atOnce` polls start together, as at two Poll Times of the same second.
 */
async function pollAsScheduled(
	workflow: Workflow,
	node: INode,
	credentialsHelper: InMemoryCredentialsHelper,
	pollBudgetMs: number | undefined,
	atOnce: number,
): Promise<PollOutcome> {
	const results: Array<INodeExecutionData[][]> = [];
	const errors: Error[] = [];
	const pollFunctions = new PollContext(
		workflow,
		node,
		buildAdditionalData({ credentialsHelper }),
		'trigger',
		'activate',
		(data) => {
			results.push(data);
		},
		(error) => {
			errors.push(error);
		},
		undefined,
		undefined,
		undefined,
		pollBudgetMs === undefined ? undefined : () => pollBudgetMs,
	);
	const executePoll = Container.get(PollTriggerExecutor).create(
		workflow,
		node,
		pollFunctions,
		() => true,
	);
	await Promise.all(Array.from({ length: atOnce }, async () => await executePoll()));
	return { result: results[0] ?? null, error: errors[0], results, errors };
}

/**
 * "Fetch Test Event": a manual execution starting at the trigger, where n8n-core calls `poll()` in
 * manual mode.
 */
async function pollAsTestEvent(
	workflow: Workflow,
	workflowData: IWorkflowBase,
	node: INode,
	credentialsHelper: InMemoryCredentialsHelper,
): Promise<PollOutcome> {
	const executionId = nextExecutionId();
	const hooks = new ExecutionLifecycleHooks('manual', executionId, workflowData);
	const additionalData = buildAdditionalData({ credentialsHelper, executionId, hooks });
	const run = await new WorkflowExecute(additionalData, 'manual').run({
		workflow,
		startNode: node,
	});
	// A poll that returns null leaves no run data for the trigger.
	const task = run.data.resultData.runData[node.name]?.[0];
	const outputs = task?.data?.[NodeConnectionTypes.Main];
	const result = outputs ? outputs.map((items) => items ?? []) : null;
	const error = task?.error ?? run.data.resultData.error;
	return { result, error, results: result ? [result] : [], errors: error ? [error] : [] };
}

/** Static data goes through JSON on its way to and from n8n's database. */
function jsonCopy(data: IDataObject): IDataObject {
	return JSON.parse(JSON.stringify(data)) as IDataObject;
}

/**
 * Replaces every key of `target` with those of `source`, keeping the object (n8n holds on to it).
 */
export function replaceContents(target: IDataObject, source: IDataObject): void {
	for (const key of Object.keys(target)) delete target[key];
	Object.assign(target, source);
}
