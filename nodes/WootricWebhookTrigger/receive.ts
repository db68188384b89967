import type {
	IDataObject,
	IHookFunctions,
	INodeExecutionData,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { simplifyRecord } from '../Wootric/helpers/records';
import { invalid } from '../Wootric/helpers/validation';
import {
	hasComment,
	matchesFilter,
	type EventName,
	type ResponseFilter,
} from '../WootricTrigger/events';
import { readResponseFilter } from '../WootricTrigger/responseFilter';
import { readDelivery, UnreadableDelivery, type Delivery } from './delivery';
import { deliveryMemory, forgetDeliveries, type DeliveryMemory } from './deliveryMemory';
import { checkSignature } from './signature';

interface WebhookSettings {
	events: EventName[];
	filter: ResponseFilter;
	simplify: boolean;
}

export const SECRET_HELP =
	'Copy the secret token from Wootric (Settings → Outgoing Webhooks) into the Webhook Secret Token field of this node\'s "Wootric API" credential';

function readSettings(context: IHookFunctions | IWebhookFunctions): WebhookSettings {
	const events = context.getNodeParameter('events', []) as EventName[];
	if (events.length === 0)
		throw invalid(context, undefined, 'Events', 'needs at least one event', events);
	const filters = context.getNodeParameter('filters', {}) as IDataObject;
	const options = context.getNodeParameter('options', {}) as IDataObject;
	return {
		events,
		filter: readResponseFilter(context, filters),
		simplify: options.simplify === true,
	};
}

async function webhookSecret(context: IHookFunctions | IWebhookFunctions): Promise<string> {
	const credentials = await context.getCredentials('wootricApi');
	return typeof credentials.webhookSecret === 'string' ? credentials.webhookSecret : '';
}

/**
 * The node has two webhooks: production's, and the test one "Listen for test event" opens. n8n
 * calls webhook() in mode 'webhook' or 'manual' and activates in mode 'trigger' or 'manual', but
 * calls delete in mode 'internal' for both.
 */
type WebhookKind = 'production' | 'test';

const kindOf = (context: IHookFunctions | IWebhookFunctions): WebhookKind =>
	context.getMode() === 'manual' ? 'test' : 'production';

function memoryKey(context: IHookFunctions | IWebhookFunctions, kind: WebhookKind): string {
	return `${context.getWorkflow().id}:${context.getNode().id}:${kind}`;
}

/**
 * On activation and on "Listen for test event": the service cannot be told the URL (it has no API
 * for webhooks), so this only refuses a node whose webhooks could not be checked or emitted. Each
 * test listen starts afresh, so the same sample can be sent again; production's memory outlives a
 * publish again (saving the workflow republishes it), so a repeat arriving around it is still
 * recognised.
 */
export async function startReceiving(context: IHookFunctions): Promise<boolean> {
	readSettings(context);
	if ((await webhookSecret(context)) === '')
		throw new NodeOperationError(
			context.getNode(),
			'No webhook secret token to check webhooks with',
			{
				description: `${SECRET_HELP}. Without it every webhook would be refused.`,
			},
		);
	if (kindOf(context) === 'test') forgetDeliveries(memoryKey(context, 'test'));
	return true;
}

/**
 * On deactivation and when a test listen ends, which n8n does not tell apart: production's memory
 * stays, so that neither makes production emit a repeat.
 */
export function forgetTestDeliveries(context: IHookFunctions): boolean {
	forgetDeliveries(memoryKey(context, 'test'));
	return true;
}

/** An answer to the service that emits nothing; the body never repeats what was received. */
function answer(context: IWebhookFunctions, status: number, message: string): IWebhookResponseData {
	const response = context.getResponseObject();
	response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
	response.end(JSON.stringify({ message }));
	return { noWebhookResponse: true };
}

/** What one delivery noted in the memory: taken back if n8n could not start its execution. */
interface Noted {
	event: string;
	/** Set when this delivery announced the response as Response Created. */
	announced?: number;
}

/**
 * The items one delivery starts the workflow with (none for a repeat or a filtered event), and what
 * it noted. A response created without a comment and given one later reaches a workflow that
 * watches Response Created with Only With a Comment once, at that update, as Response Created.
 */
function itemsFor(
	delivery: Delivery,
	settings: WebhookSettings,
	memory: DeliveryMemory,
): { items: INodeExecutionData[]; noted: Noted } {
	const { event, record, id, updatedSecond } = delivery;
	const noted: Noted = { event: `${event}:${id}:${updatedSecond}` };
	const none = { items: [], noted };
	if (!memory.events.add(noted.event)) return none;
	const watching = (name: EventName) => settings.events.includes(name);
	const emit = (name: EventName) => ({
		items: [{ json: { event: name, ...(settings.simplify ? simplifyRecord(record) : record) } }],
		noted,
	});
	if (event === 'decline') return watching('decline') ? emit('decline') : none;

	const { filter } = settings;
	// The API's lists leave invalidated responses out unless asked for them; so does this.
	if (record.excluded_from_calculations === true && !filter.includeExcluded) return none;
	if (!matchesFilter(event, record, filter)) return none;
	const completesNew = event === 'response' || (filter.onlyWithComment && hasComment(record));
	if (watching('response') && completesNew && !memory.announced.has(id)) {
		memory.announced.add(id);
		noted.announced = id;
		return emit('response');
	}
	return event === 'responseUpdated' && watching('responseUpdated')
		? emit('responseUpdated')
		: none;
}

/**
 * n8n 2.x answers a webhook of responseMode onReceived once its execution is stored and queued, and
 * answers an error (500) when that fails; the service then delivers it again. Such a delivery is
 * taken back out of the memory when the answer goes, so that the retry starts the workflow. (n8n 1.x
 * answers before it stores the execution, so there a failure to store it loses the event whatever
 * the node does.)
 */
function forgetIfNotStarted(context: IWebhookFunctions, memory: DeliveryMemory, noted: Noted) {
	const response = context.getResponseObject();
	response.once('finish', () => {
		if (response.statusCode < 300) return;
		memory.events.delete(noted.event);
		if (noted.announced !== undefined) memory.announced.delete(noted.announced);
	});
}

/**
 * One webhook: its signature checked against the credential's secret before anything else (401,
 * nothing read from the body), then its body (400 when unreadable), then repeats and filters.
 */
export async function receiveWebhook(context: IWebhookFunctions): Promise<IWebhookResponseData> {
	const request = context.getRequestObject();
	const secret = await webhookSecret(context);
	if (secret === '') return answer(context, 401, `Webhooks cannot be checked: ${SECRET_HELP}`);
	const body: Buffer = request.rawBody ?? Buffer.alloc(0);
	const signature = checkSignature(body, request.headers['x-wootric-signature'], secret);
	if (signature !== 'valid')
		return answer(context, 401, `X-Wootric-Signature: ${signature}; the webhook was ignored`);

	let delivery: Delivery;
	try {
		delivery = readDelivery(body, request.headers['content-type']);
	} catch (error) {
		if (error instanceof UnreadableDelivery) return answer(context, 400, error.message);
		throw new NodeOperationError(context.getNode(), error as Error);
	}
	const memory = deliveryMemory(memoryKey(context, kindOf(context)));
	const { items, noted } = itemsFor(delivery, readSettings(context), memory);
	if (items.length === 0) return { webhookResponse: { message: 'Received; nothing to start' } };
	forgetIfNotStarted(context, memory, noted);
	return { workflowData: [items] };
}
