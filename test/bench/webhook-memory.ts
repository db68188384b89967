/**
 * What the Wootric Webhook Trigger keeps in memory after many distinct deliveries, without n8n: the
 * node's webhook() called directly, each time with a stand-in for only what n8n gives a webhook
 * (the request's raw body and headers, the response, the node's parameters and credential, the
 * node, the workflow, the mode, static data).
 */
import { EventEmitter } from 'node:events';

import type {
	IDataObject,
	INode,
	INodeParameters,
	IWebhookFunctions,
	IWebhookResponseData,
	IWorkflowMetadata,
} from 'n8n-workflow';

import { WootricWebhookTrigger } from '../../nodes/Wootric/WootricWebhookTrigger.node';
import { addResponse, createEndUser, FakeWootric } from '../fake';
import { percentile, responseWebhook, type Delivery } from '../e2e/webhook-deliveries';
import { collectGarbage, MiB } from './measure';

/** The e2e's published trigger: every event, no filter, default options. */
const PARAMETERS: INodeParameters = {
	events: ['response', 'responseUpdated', 'decline'],
	filters: {},
	options: {},
};
const NODE: INode = {
	id: 'bench-webhook-trigger',
	name: 'Wootric Webhook',
	type: 'n8n-nodes-wootric.wootricWebhookTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: PARAMETERS,
};
const WORKFLOW: IWorkflowMetadata = {
	id: 'benchWebhookMemory',
	name: 'bench: webhook memory',
	active: true,
};

/** The part of n8n's response the trigger uses: the status it answers, and 'finish' once sent. */
class WebhookAnswer extends EventEmitter {
	statusCode = 200;

	writeHead(status: number): this {
		this.statusCode = status;
		return this;
	}

	end(): this {
		this.emit('finish');
		return this;
	}
}

function webhookContext(
	delivery: Delivery,
	answer: WebhookAnswer,
	secret: string,
	staticData: IDataObject,
): IWebhookFunctions {
	const request = {
		rawBody: Buffer.from(delivery.body),
		headers: {
			'content-type': delivery.contentType,
			'x-wootric-signature': delivery.signature,
		},
	};
	const standIn: Partial<IWebhookFunctions> = {
		getRequestObject: () => request as unknown as ReturnType<IWebhookFunctions['getRequestObject']>,
		getResponseObject: () =>
			answer as unknown as ReturnType<IWebhookFunctions['getResponseObject']>,
		getNodeParameter: ((name: string, fallback?: unknown) =>
			PARAMETERS[name] ?? fallback) as IWebhookFunctions['getNodeParameter'],
		getCredentials: (async () => ({
			webhookSecret: secret,
		})) as IWebhookFunctions['getCredentials'],
		getNode: () => NODE,
		getWorkflow: () => WORKFLOW,
		getMode: () => 'webhook',
		getWorkflowStaticData: () => staticData,
	};
	return standIn as IWebhookFunctions;
}

export interface WebhookMemoryFigures {
	deliveries: number;
	/** Heap still in use after the deliveries and a full collection, over before them. */
	retainedMiB: number;
	/** Deliveries that started the workflow (each must: they are distinct and signed right). */
	started: number;
	/** The node's webhook() alone, per delivery. */
	webhookMicroseconds: { p50: number; p95: number; mean: number };
}

/**
 * `count` distinct Response Created deliveries, signed as the service signs them, through the
 * trigger's webhook(), answered as n8n answers them (200 once the execution is queued). Each body
 * is made just before its call and dropped after it, so whatever the trigger keeps of it shows.
 */
export async function webhookMemory(count: number): Promise<WebhookMemoryFigures> {
	const fake = new FakeWootric();
	const user = createEndUser(fake.account, fake.store, 'webhook-memory@example.com');
	const template = addResponse(fake.account, fake.store, { endUserId: user.id, score: 0 });
	const trigger = new WootricWebhookTrigger();
	const staticData: IDataObject = {};
	const deliver = async (id: number): Promise<{ ms: number; result: IWebhookResponseData }> => {
		const delivery = responseWebhook(fake, { ...template, id, score: id % 11, text: `#${id}` });
		const answer = new WebhookAnswer();
		const context = webhookContext(delivery, answer, fake.credentials.webhookSecret, staticData);
		const start = performance.now();
		const result = await trigger.webhook.call(context);
		const ms = performance.now() - start;
		if (!result.noWebhookResponse) answer.end();
		return { ms, result };
	};

	// Compiles the code the loop runs, so its first calls add no code to the heap measured.
	for (let id = 1; id <= 100; id++) await deliver(-id);
	collectGarbage();
	const before = process.memoryUsage().heapUsed;
	const times: number[] = [];
	let started = 0;
	for (let id = 1; id <= count; id++) {
		const { ms, result } = await deliver(id);
		times.push(ms);
		if (result.workflowData) started++;
	}
	collectGarbage();
	const retainedMiB = (process.memoryUsage().heapUsed - before) / MiB;
	times.sort((a, b) => a - b);
	return {
		deliveries: count,
		retainedMiB,
		started,
		webhookMicroseconds: {
			p50: percentile(times, 0.5) * 1000,
			p95: percentile(times, 0.95) * 1000,
			mean: (times.reduce((sum, ms) => sum + ms, 0) / count) * 1000,
		},
	};
}
