import { ExecutionLifecycleHooks, HookContext, WebhookContext, WorkflowExecute } from 'n8n-core';
import type {
	ExecutionError,
	INodeExecutionData,
	IWebhookData,
	IWebhookDescription,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
	Workflow,
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
import { parse as parseQueryString } from 'node:querystring';

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
type WebhookKind = 'production' | 'test';

/**
 * How n8n serves each: URL prefix (N8N_ENDPOINT_WEBHOOK / _WEBHOOK_TEST), the mode of its requests,
 * the mode and activation its webhookMethods run in when it opens, and the hint of its 404.
 */
const KINDS: Record<
	WebhookKind,
	{
		prefix: string;
		mode: WorkflowExecuteMode;
		opening: [WorkflowExecuteMode, WorkflowActivateMode];
		notRegisteredHint: string;
	}
> = {
	production: {
		prefix: 'webhook',
		mode: 'webhook',
		opening: ['trigger', 'activate'],
		notRegisteredHint:
			"The workflow must be active for a production URL to run successfully. You can activate the workflow using the toggle in the top-right of the editor. Note that unlike test URL calls, production URL calls aren't shown on the canvas (only in the executions list)",
	},
	test: {
		prefix: 'webhook-test',
		mode: 'manual',
		opening: ['manual', 'manual'],
		notRegisteredHint:
			"Click the 'Execute workflow' button on the canvas, then try again. (In test mode, the webhook only works for one call after you click this button)",
	},
};

/** n8n's answer when the node's webhook() throws (webhook-helpers' _privateGetWebhookErrorMessage). */
const WEBHOOK_ERROR = 'Workflow Webhook Error: Workflow could not be started!';

/**
 * n8n 2.x's answer when it could not store or queue the execution a webhook started (executeWebhook's
 * catch of WorkflowRunner.run: an OperationalError, answered before its deferred onReceived answer).
 */
const EXECUTION_NOT_STARTED = 'There was a problem executing the workflow';

/** One execution a webhook started, as n8n records it. */
export interface WebhookExecution {
	mode: WorkflowExecuteMode;
	/** The items the trigger handed the workflow (its first output). */
	items: INodeExecutionData[];
	/** The error the execution failed with. */
	error?: ExecutionError;
}

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
	 * n8n 2.x answers those webhooks 500 and runs nothing.
	 */
	failExecutionStarts(count: number): void;
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
 * What n8n's request handling adds to a request, beyond what n8n-workflow declares on every
 * IncomingMessage (contentType, encoding, rawBody).
 */
interface ParsedRequest extends IncomingMessage {
	body?: unknown;
	params: Record<string, string>;
	query: Record<string, string>;
}

/**
 * Runs a webhook trigger node as n8n 2.x does, behind a real HTTP server on 127.0.0.1:
 * - opening a webhook (publishing, "Listen for test event") runs the node's webhookMethods in
 *   n8n-core's HookContext: checkExists, then create when it returned false
 *   (WebhookService.createWebhookIfNotExists); closing one (unpublishing, a listen that started an
 *   execution, an opening that failed) runs delete, in mode 'internal';
 * - each request is handled as LiveWebhooks / TestWebhooks and WebhookHelpers.executeWebhook do for
 *   responseMode 'onReceived': the raw body read into `req.rawBody` and parsed into `req.body`
 *   (parseBody, which answers 422 itself when JSON does not parse), a fresh Workflow, the node's
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
	if (description.responseMode !== 'onReceived')
		throw new UserError(
			'The harness answers webhooks as n8n does for responseMode onReceived only',
		);
	const open = new Set<WebhookKind>();
	const executions: WebhookExecution[] = [];
	let failingStarts = 0;

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
		return {
			mode,
			items: task?.data?.[NodeConnectionTypes.Main]?.[0] ?? [],
			error: task?.error ?? run.data.resultData.error,
		};
	}

	async function handle(request: ParsedRequest, response: ServerResponse): Promise<void> {
		const url = new URL(request.url ?? '/', 'http://n8n');
		const [, prefix, ...rest] = url.pathname.replace(/\/$/, '').split('/');
		const requestPath = rest.join('/');
		const kind = (Object.keys(KINDS) as WebhookKind[]).find(
			(candidate) => KINDS[candidate].prefix === prefix,
		);
		if (kind === undefined || !open.has(kind) || requestPath !== path)
			return send(response, 404, {
				code: 404,
				message: `The requested webhook "${request.method} ${requestPath}" is not registered.`,
				...(kind ? { hint: KINDS[kind].notRegisteredHint } : {}),
			});
		if (request.method !== description.httpMethod)
			return send(response, 404, {
				code: 404,
				message: `This webhook is not registered for ${request.method} requests. Did you mean to make a ${description.httpMethod as string} request?`,
			});
		request.params = {};
		request.query = Object.fromEntries(url.searchParams);
		const unparsable = await parseBody(request);
		if (unparsable !== undefined)
			return send(response, 422, {
				code: 422,
				message: 'Failed to parse request body',
				hint: unparsable,
			});

		const { mode } = KINDS[kind];
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
			mode,
			webhookData(kind, workflow.id),
			[],
			null,
		);
		const result = await (nodeType.webhook as NonNullable<typeof nodeType.webhook>).call(context);
		recordShown({ result });
		// The node wrote the answer itself.
		const answered = result.noWebhookResponse === true;
		if (result.workflowData === undefined) {
			if (!answered)
				send(
					response,
					responseCode(workflow, mode),
					result.webhookResponse ?? { message: 'Webhook call received' },
				);
			return;
		}
		if (failingStarts > 0) {
			failingStarts--;
			return send(response, 500, { code: 0, message: EXECUTION_NOT_STARTED });
		}
		executions.push(await execute(mode, result.workflowData));
		if (!answered)
			send(response, responseCode(workflow, mode), onReceivedBody(workflow, mode, result));
		if (kind === 'test') await closeWebhook(kind);
	}

	/** The description's responseCode, evaluated as n8n does (200 when the node declares none). */
	function responseCode(workflow: Workflow, mode: WorkflowExecuteMode) {
		return workflow.expression.getSimpleParameterValue(
			node,
			description.responseCode,
			mode,
			{},
			undefined,
			200,
		) as number;
	}

	/**
	 * webhook-helpers with webhook-on-received-response-extractor: the description's responseData,
	 * which defaults to the text 'firstEntryJson' when the node declares none, wins over the node's
	 * webhookResponse and over `{ message: 'Workflow was started' }`.
	 */
	function onReceivedBody(
		workflow: Workflow,
		mode: WorkflowExecuteMode,
		result: IWebhookResponseData,
	): unknown {
		const responseData = workflow.expression.getComplexParameterValue(
			node,
			description.responseData,
			mode,
			{},
			undefined,
			'firstEntryJson',
		);
		if (responseData === 'noData') return undefined;
		if (responseData) return responseData;
		return result.webhookResponse ?? { message: 'Workflow was started' };
	}

	const server = createServer((request, response) => {
		handle(request as ParsedRequest, response).catch((error: unknown) => {
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
		failExecutionStarts: (count) => (failingStarts = count),
		activate: async () => await openWebhook('production'),
		deactivate: async () => await closeWebhook('production'),
		listen: async () => await openWebhook('test'),
		close: async () => {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}

const stripBom = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/** The content types n8n's parseBody reads into `req.body`; XML, which it parses too, is left out. */
const BODY_PARSERS: Record<string, (text: string) => unknown> = {
	'application/json': (text) => jsonParse(stripBom(text)),
	'application/x-www-form-urlencoded': (text) =>
		parseQueryString(stripBom(text), undefined, undefined, { maxKeys: 1000 }),
	'text/plain': (text) => text,
};

/**
 * n8n's parseIncomingMessage and parseBody, which n8n runs before a version 1 node whatever the
 * content type: the body read whole into `rawBody` (except multipart, which n8n parses with
 * formidable and keeps no raw body of), then parsed into `body`. Returns the parse error n8n
 * answers 422 with.
 */
async function parseBody(request: ParsedRequest): Promise<string | undefined> {
	const [type, ...parameters] = (request.headers['content-type'] ?? '').split(';');
	const charset = parameters
		.map((parameter) => parameter.trim().split('='))
		.find(([name]) => name.toLowerCase() === 'charset')?.[1];
	if (type !== '') request.contentType = type.toLowerCase();
	request.encoding = (charset ?? 'utf-8').toLowerCase() as BufferEncoding;
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	if (request.contentType?.startsWith('multipart/')) return undefined;
	request.rawBody = Buffer.concat(chunks);
	const parser = BODY_PARSERS[request.contentType ?? ''];
	if (parser === undefined || request.rawBody.length === 0) return undefined;
	try {
		request.body = parser(request.rawBody.toString(request.encoding));
	} catch (error) {
		return (error as Error).message;
	}
	return undefined;
}

/** As Express's res.send (a string, as HTML) and res.json (anything else) answer. */
function send(response: ServerResponse, status: number, body: unknown): void {
	const text = typeof body === 'string';
	response.writeHead(status, {
		'content-type': `${text ? 'text/html' : 'application/json'}; charset=utf-8`,
	});
	response.end(text ? body : (JSON.stringify(body) ?? ''));
}
