import type { ExecutionLifecycleHooks } from 'n8n-core';
import { ExternalSecretsProxy } from 'n8n-core';
import type { IWorkflowExecuteAdditionalData } from 'n8n-workflow';
import { UserError } from 'n8n-workflow';

import type { InMemoryCredentialsHelper } from './credentials-helper';

const BASE_URL = 'http://localhost:5678';

function notInHarness(feature: string): () => never {
	return () => {
		throw new UserError(`${feature} is not available in the test harness`);
	};
}

/**
 * The per-execution services n8n-core reaches through `additionalData`, as n8n's CLI builds them
 * (packages/cli/src/workflow-execute-additional-data.ts), minus what a community node of this
 * package never needs: sub-workflows, agents, task runners (Code node), AI event logging.
 */
export function buildAdditionalData(options: {
	credentialsHelper: InMemoryCredentialsHelper;
	executionId?: string;
	hooks?: ExecutionLifecycleHooks;
}): IWorkflowExecuteAdditionalData {
	return {
		credentialsHelper: options.credentialsHelper,
		executionId: options.executionId,
		hooks: options.hooks,
		externalSecretsProxy: new ExternalSecretsProxy(),
		variables: {},
		currentNodeExecutionIndex: 0,
		restApiUrl: `${BASE_URL}/rest`,
		instanceBaseUrl: BASE_URL,
		formBaseUrl: `${BASE_URL}/form`,
		formWaitingBaseUrl: `${BASE_URL}/form-waiting`,
		formTestBaseUrl: `${BASE_URL}/form-test`,
		webhookBaseUrl: `${BASE_URL}/webhook`,
		webhookWaitingBaseUrl: `${BASE_URL}/webhook-waiting`,
		webhookTestBaseUrl: `${BASE_URL}/webhook-test`,
		mcpBaseUrl: `${BASE_URL}/mcp`,
		mcpTestBaseUrl: `${BASE_URL}/mcp-test`,
		executeWorkflow: notInHarness('Executing a sub-workflow'),
		getRunExecutionData: notInHarness('Reading another execution'),
		getRuntimeCredential: notInHarness('A runtime credential'),
		startRunnerTask: notInHarness('A task runner'),
		logAiEvent: notInHarness('AI event logging'),
	};
}
