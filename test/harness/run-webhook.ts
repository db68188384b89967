import { ExecutionLifecycleHooks, HookContext, WebhookContext, WorkflowExecute } from 'n8n-core';
import type {
	INodeExecutionData,
	IWebhookData,
	IWebhookDescription,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import {
	NodeConnectionTypes,
	NodeHelpers,
	UserError,
	createRunExecutionData,
	jsonParse,
} from 'n8n-workflow';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { buildAdditionalData } from './additional-data';
import type { InMemoryCredentialsHelper } from './credentials-helper';
import { createHarnessWorkflow, nextExecutionId } from './harness-workflow';
import type { NodeUnderTestOptions } from './node-under-test';
import { prepareNodeUnderTest } from './node-under-test';
import { recordShown } from './shown';

/**
 * A node's two webhooks: production's while the workflow is active, the test one while the editor
 * listens for a test event.
 */
export type WebhookKind = 'production' | 'test';

/**
 * How n8n serves each: URL prefix (N8N_ENDPOINT_WEBHOOK / _WEBHOOK_TEST), the mode of its requests,
 * and the mode and activation its webhookMethods run in when it opens.
 */
const KINDS: Record<
	WebhookKind,
	{
		prefix: string;
		mode: WorkflowExecuteMode;
		opening: [WorkflowExecuteMode, WorkflowActivateMode];
	}
> = {
	production: { prefix: 'webhook', mode: 'webhook', opening: ['trigger', 'activate'] },
	test: { prefix: 'webhook-test', mode: 'manual', opening: ['manual', 'manual'] },
};

/**
 * n8n 2.x's answer to a webhook that started an execution, for a node of responseMode onReceived
 * that declares no responseData: webhook-helpers' default responseData, sent as text.
 */
const WORKFLOW_STARTED = 'firstEntryJson';

/** n8n's answer when the node's webhook() throws (webhook-helpers' _privateGetWebhookErrorMessage). */
const WEBHOOK_ERROR = 'Workflow Webhook Error: Workflow could not be started!';

/**
 * n8n 2.x's answer when it could not store or queue the execution a webhook started (executeWebhook's
 * catch of WorkflowRunner.run: an OperationalError, answered before its deferred onReceived answer).
 */
const EXECUTION_NOT_STARTED = 'There was a problem executing the workflow';

/** One execution a webhook started. */
export interface WebhookExecution {
	mode: WorkflowExecuteMode;
	/** The items the trigger handed the workflow (its first output). */
	items: INodeExecutionData[];
	/** False when the sender hung up before n8n answered the webhook (hangUpNext). */
	answered: boolean;
}

/**
 * When a sender hangs up on a webhook: while the node's webhook() runs (it reads its credential),
 * or after it returned, before n8n answers.
 */
export type HangUpMoment = 'whileReceiving' | 'afterWebhook';

export interface WebhookTrigger {
	/** Where the service is told to send webhooks; answers while the workflow is active. */
	productionUrl: string;
	/** Answers while listening for a test event. */
	testUrl: string;
	/** Every execution started, oldest first. */
	executions: WebhookExecution[];
	credentialsHelper: InMemoryCredentialsHelper;
	credentialId?: string;
	/**
	 * Publishes (activates) the workflow as n8n's ActiveWorkflowManager does; rejects with the error
	 * n8n shows, the workflow left inactive.
	 */
	activate(): Promise<void>;
	/**
	 * The next `count` executions fail to start, as when n8n's database does not answer in time:
	 * n8n 2.x answers those webhooks 500 and runs nothing, after `afterMs` (the time it waited).
	 */
	failExecutionStarts(count: number, afterMs?: number): void;
	/** The sender of the next webhook hangs up at `moment`, leaving it unanswered. */
	hangUpNext(moment: HangUpMoment): void;
	/**
	 * The node's webhook() for a request n8n has read (`rawBody` set), without the server: for a
	 * model that plays the sender and n8n itself, choosing when each acts. Once it returned
	 * `workflowData`, the caller answers as n8n does (writes the response, or destroys it).
	 */
	callWebhook(
		request: IncomingMessage,
		response: ServerResponse,
		kind?: WebhookKind,
	): Promise<IWebhookResponseData>;
	/** Unpublishes the workflow: the production URL answers 404 again. */
	deactivate(): Promise<void>;
	/**
	 * "Listen for test event": the test URL answers until a call starts an execution, then n8n closes
	 * it. Rejects as `activate` does.
	 */
	listen(): Promise<void>;
	close(): Promise<void>;
}

/**
 * Runs a webhook trigger node as n8n 2.x does, behind a real HTTP server on 127.0.0.1, for a node of
 * responseMode onReceived that declares no responseCode or responseData (the Wootric Webhook
 * Trigger; the e2e tests run it in a real n8n):
 * - opening a webhook (publishing, "Listen for test event") runs the node's webhookMethods in
 *   n8n-core's HookContext: checkExists, then create when it returned false
 *   (WebhookService.createWebhookIfNotExists); closing one (unpublishing, a listen that started an
 *   execution, an opening that failed) runs delete, in mode 'internal';
 * - each request is handled as LiveWebhooks / TestWebhooks and WebhookHelpers.executeWebhook do: the
 *   body read into `req.rawBody` (422 when JSON does not parse), a fresh Workflow, the node's
 *   webhook() in n8n-core's WebhookContext, then n8n's answer;
 * - the items of `workflowData` start an execution through n8n-core's WorkflowExecute, and n8n 2.x
 *   answers once it started (500 when it could not: failExecutionStarts). Unlike n8n, the answer
 *   waits for the execution's end, so a test finds it once its request is answered.
 */
export async function startWebhookTrigger(options: NodeUnderTestOptions): Promise<WebhookTrigger> {
	const { node, nodeTypes, credentialsHelper, credentialId } = await prepareNodeUnderTest(options);
	// As n8n gives a node added to a canvas; its webhooks live under <webhookId>/<path>.
	node.id = randomUUID();
	node.webhookId = randomUUID();
	const nodeType = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const description = nodeType.description.webhooks?.[0] as IWebhookDescription;
	const { responseMode, responseCode, responseData } = description;
	if (responseMode !== 'onReceived' || responseCode !== undefined || responseData !== undefined)
		throw new UserError(
			'The harness answers webhooks as n8n does for responseMode onReceived, without responseCode or responseData',
		);
	const open = new Set<WebhookKind>();
	const executions: WebhookExecution[] = [];
	let failingStarts = 0;
	let failingAfterMs = 0;
	const hangUps: HangUpMoment[] = [];

	const newWorkflow = () =>
		createHarnessWorkflow({ nodes: [node], nodeTypes, active: open.has('production') });
	const path = NodeHelpers.getNodeWebhookPath(
		newWorkflow().workflow.id,
		node,
		description.path as string,
	);
	const webhookData = (kind: WebhookKind, workflowId: string): IWebhookData => ({
		httpMethod: description.httpMethod as IWebhookData['httpMethod'],
		node: node.name,
		path,
		webhookDescription: description,
		workflowId,
		workflowExecuteAdditionalData: buildAdditionalData({ credentialsHelper }),
		...(kind === 'test' ? { isTest: true } : {}),
	});

	async function runWebhookMethod(
		method: 'checkExists' | 'create' | 'delete',
		kind: WebhookKind,
		[mode, activation]: [WorkflowExecuteMode, WorkflowActivateMode],
	): Promise<boolean | undefined> {
		const { workflow } = newWorkflow();
		const data = webhookData(kind, workflow.id);
		const context = new HookContext(
			workflow,
			node,
			data.workflowExecuteAdditionalData,
			mode,
			activation,
			data,
		);
		return await nodeType.webhookMethods?.[description.name]?.[method]?.call(context);
	}

	async function closeWebhook(kind: WebhookKind): Promise<void> {
		open.delete(kind);
		await runWebhookMethod('delete', kind, ['internal', 'update']);
	}

	async function openWebhook(kind: WebhookKind): Promise<void> {
		const { opening } = KINDS[kind];
		try {
			if (!(await runWebhookMethod('checkExists', kind, opening)))
				await runWebhookMethod('create', kind, opening);
		} catch (error) {
			recordShown({ error });
			await closeWebhook(kind);
			throw error;
		}
		open.add(kind);
	}

	/** n8n's WorkflowRunner, run to the end: the trigger's items wait on its output. */
	async function execute(
		mode: WorkflowExecuteMode,
		items: INodeExecutionData[][],
		answered: boolean,
	): Promise<WebhookExecution> {
		const { workflow, workflowData } = newWorkflow();
		const executionId = nextExecutionId();
		const hooks = new ExecutionLifecycleHooks(mode, executionId, workflowData);
		const run = await new WorkflowExecute(
			buildAdditionalData({ credentialsHelper, executionId, hooks }),
			mode,
			createRunExecutionData({
				executionData: { nodeExecutionStack: [{ node, data: { main: items }, source: null }] },
			}),
		).processRunExecutionData(workflow);
		const task = run.data.resultData.runData[node.name]?.[0];
		return { mode, items: task?.data?.[NodeConnectionTypes.Main]?.[0] ?? [], answered };
	}

	/** The node's webhook() for a request whose body n8n has read, in n8n-core's WebhookContext. */
	async function callWebhook(
		request: IncomingMessage,
		response: ServerResponse,
		kind: WebhookKind = 'production',
	): Promise<IWebhookResponseData> {
		const { workflow } = newWorkflow();
		const additionalData = buildAdditionalData({ credentialsHelper });
		additionalData.httpRequest =
			request as unknown as IWorkflowExecuteAdditionalData['httpRequest'];
		additionalData.httpResponse =
			response as unknown as IWorkflowExecuteAdditionalData['httpResponse'];
		const context = new WebhookContext(
			workflow,
			node,
			additionalData,
			KINDS[kind].mode,
			webhookData(kind, workflow.id),
			[],
			null,
		);
		return await (nodeType.webhook as NonNullable<typeof nodeType.webhook>).call(context);
	}

	async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
		const [, prefix, ...rest] = new URL(request.url ?? '/', 'http://n8n').pathname.split('/');
		const requestPath = rest.join('/');
		const kind = (Object.keys(KINDS) as WebhookKind[]).find(
			(candidate) => KINDS[candidate].prefix === prefix,
		);
		if (kind === undefined || !open.has(kind) || requestPath !== path)
			return send(response, 404, {
				code: 404,
				message: `The requested webhook "${request.method} ${requestPath}" is not registered.`,
			});
		if (!(await readBody(request)))
			return send(response, 422, { code: 422, message: 'Failed to parse request body' });

		const { mode } = KINDS[kind];
		const hangUp = hangUps.shift();
		// The sender hangs up while the node reads its credential: the read ends once the
		// connection has closed.
		if (hangUp === 'whileReceiving')
			credentialsHelper.holdNextRead(new Promise((closed) => response.once('close', closed)));
		const webhook = callWebhook(request, response, kind);
		if (hangUp === 'whileReceiving') request.socket.destroy();
		const result = await webhook;
		recordShown({ result });
		if (hangUp === 'afterWebhook') request.socket.destroy();
		// The node wrote the answer itself.
		if (result.noWebhookResponse === true) return;
		if (result.workflowData === undefined) return send(response, 200, result.webhookResponse);
		if (failingStarts > 0) {
			failingStarts--;
			await new Promise((resolve) => setTimeout(resolve, failingAfterMs));
			return send(response, 500, { code: 0, message: EXECUTION_NOT_STARTED });
		}
		// n8n starts the execution whether or not the sender still listens.
		executions.push(await execute(mode, result.workflowData, hangUp === undefined));
		send(response, 200, WORKFLOW_STARTED);
		if (kind === 'test') await closeWebhook(kind);
	}

	const server = createServer((request, response) => {
		handle(request, response).catch((error: unknown) => {
			// n8n's answer to a webhook() that threw; n8n also records a failed execution, which the
			// harness does not.
			recordShown({ error });
			if (response.headersSent) response.end();
			else send(response, 500, { code: 0, message: WEBHOOK_ERROR });
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		productionUrl: `${base}/${KINDS.production.prefix}/${path}`,
		testUrl: `${base}/${KINDS.test.prefix}/${path}`,
		executions,
		credentialsHelper,
		credentialId,
		failExecutionStarts: (count, afterMs = 0) => {
			failingStarts = count;
			failingAfterMs = afterMs;
		},
		hangUpNext: (moment) => hangUps.push(moment),
		callWebhook,
		activate: async () => await openWebhook('production'),
		deactivate: async () => await closeWebhook('production'),
		listen: async () => await openWebhook('test'),
		close: async () => {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}

/**
 * n8n's parseIncomingMessage and parseBody, run before the node: the body read whole into
 * `rawBody`, and a JSON body parsed. False when it does not parse: n8n answers 422.
 */
async function readBody(request: IncomingMessage): Promise<boolean> {
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	request.rawBody = Buffer.concat(chunks);
	const type = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
	if (type !== 'application/json' || request.rawBody.length === 0) return true;
	try {
		jsonParse(request.rawBody.toString('utf8'));
		return true;
	} catch {
		return false;
	}
}

/** As Express's res.send (a string, as HTML) and res.json (anything else) answer. */
function send(response: ServerResponse, status: number, body: unknown): void {
	const text = typeof body === 'string';
	response.writeHead(status, {
		'content-type': `${text ? 'text/html' : 'application/json'}; charset=utf-8`,
	});
	response.end(text ? body : (JSON.stringify(body) ?? ''));
}
