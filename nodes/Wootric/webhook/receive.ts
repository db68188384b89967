/**
 * One webhook from the service, from its signature to the items it starts the workflow with.
 *
 * Invariant: what a delivery stands for follows from the delivery alone (its event, its record's
 * comment and times, its signed timestamp) and the node's settings, never from what this process
 * remembers: by the rule both triggers share (events/index.ts, responseEvents), an `updated` delivery
 * stands for Response Created only when it was made within Treat as Complete After of the score; a
 * delivery sent longer than Max Age ago stands for nothing. The process's memory (deliveryMemory.ts) only folds repeats of what it
 * emitted; every item carries the event's idempotency key, for what the memory cannot fold.
 */
import type {
	IDataObject,
	IHookFunctions,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { scaleOfCredential, SURVEY_SCALES, type SurveyScale } from '../helpers/surveyTypes';
import { integerValue } from '../helpers/validation';
import {
	eventJson,
	idempotencyKey,
	itemFields,
	responseEvents,
	type EventName,
	type EventRule,
	type ItemFields,
} from '../events';
import { readEventRule } from '../events/responseFilter';
import { readDelivery, UnreadableDelivery, type Delivery } from './delivery';
import { claimKeys, forgetNode } from './deliveryMemory';
import { checkSignature } from './signature';

/** Max Age's default, as the node's description shows it. */
export const DEFAULT_MAX_AGE_MINUTES = 60;

/** Events, Filters and Treat as Complete After (EventRule), and what only this trigger has. */
interface WebhookSettings extends EventRule {
	/** What of its record each item holds: Simplify, by the node's version. */
	fields: ItemFields;
	/** A delivery sent longer ago starts nothing; the memory keeps a key this long. */
	maxAgeMs: number;
}

export const SECRET_HELP =
	'Copy the secret token from Wootric (Settings → Outgoing Webhooks) into the Webhook Secret Token field of this node\'s "Wootric API" credential';

function readSettings(
	context: IHookFunctions | IWebhookFunctions,
	scale: SurveyScale,
): WebhookSettings {
	const options = context.getNodeParameter('options', {}) as IDataObject;
	return {
		...readEventRule(context, scale),
		fields: itemFields(context.getNode(), options.simplify === true, scale),
		maxAgeMs:
			integerValue(
				context,
				undefined,
				'Max Age (Minutes)',
				options.maxAgeMinutes ?? DEFAULT_MAX_AGE_MINUTES,
				{ min: 1, max: 7 * 24 * 60 },
			) * 60_000,
	};
}

/** What the node reads of its credential: the secret webhooks are signed with, the survey type. */
interface WebhookCredential {
	secret: string;
	scale: SurveyScale;
}

async function readCredential(
	context: IHookFunctions | IWebhookFunctions,
): Promise<WebhookCredential> {
	const credentials = await context.getCredentials('wootricApi');
	return {
		secret: typeof credentials.webhookSecret === 'string' ? credentials.webhookSecret : '',
		scale: scaleOfCredential(credentials),
	};
}

/**
 * The scale a delivery is judged on: the one its `survey_mode` names, which is the service's word
 * for this very response, else the credential's Survey Type. `warning` says when they disagree. A
 * CSAT delivery does not say its scale: the credential's when it is CSAT and the score fits it,
 * else 1–5 unless the score is above 5 (a score of 8 comes only from a CSAT 1–10 account).
 */
function deliveryScale(
	credential: SurveyScale,
	delivery: Delivery,
): { scale: SurveyScale; warning?: string } {
	// A decline has no score: any scale of its type fits it.
	const { score } = delivery.record;
	const mode = delivery.surveyMode?.toUpperCase() ?? credential.mode;
	const named = Object.values(SURVEY_SCALES).filter((scale) => scale.mode === mode);
	if (named.length === 0)
		return {
			scale: credential,
			warning: `survey_mode "${delivery.surveyMode}" is not NPS, CSAT or CES: scored on the credential's Survey Type, ${credential.label}`,
		};
	const fits = (scale: SurveyScale) =>
		typeof score !== 'number' || (score >= scale.min && score <= scale.max);
	if (mode === credential.mode && fits(credential)) return { scale: credential };
	const scale = named.find(fits) ?? named[named.length - 1];
	const what =
		mode === credential.mode
			? `score ${score} is outside the credential's Survey Type, ${credential.label}`
			: `survey_mode is ${delivery.surveyMode}, but the credential's Survey Type is ${credential.label}`;
	return {
		scale,
		warning: `${what}: scored on ${scale.label}; set Survey Type in the "Wootric API" credential to the account's survey`,
	};
}

/**
 * The node has two webhooks: production's, and the test one "Listen for test event" opens. n8n
 * calls webhook() in mode 'webhook' or 'manual' and activates in mode 'trigger' or 'manual', but
 * calls delete in mode 'internal' for both.
 */
type WebhookKind = 'production' | 'test';

const kindOf = (context: IHookFunctions | IWebhookFunctions): WebhookKind =>
	context.getMode() === 'manual' ? 'test' : 'production';

/** Whose keys the memory holds: one node of one workflow, production's apart from its tests'. */
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
	const { secret, scale } = await readCredential(context);
	readSettings(context, scale);
	if (secret === '')
		throw new NodeOperationError(
			context.getNode(),
			'No webhook secret token to check webhooks with',
			{
				description: `${SECRET_HELP}. Without it every webhook would be refused.`,
			},
		);
	if (kindOf(context) === 'test') forgetNode(memoryKey(context, 'test'));
	return true;
}

/**
 * On deactivation and when a test listen ends, which n8n does not tell apart: production's memory
 * stays, so that neither makes production emit a repeat.
 */
export function forgetTestDeliveries(context: IHookFunctions): boolean {
	forgetNode(memoryKey(context, 'test'));
	return true;
}

/** An answer to the service that emits nothing; the body never repeats what was received. */
function answer(context: IWebhookFunctions, status: number, message: string): IWebhookResponseData {
	const response = context.getResponseObject();
	response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
	response.end(JSON.stringify({ message }));
	return { noWebhookResponse: true };
}

/**
 * The events a delivery stands for, by the rule both triggers share (events/index.ts,
 * responseEvents), decided from the delivery alone, before repeats are folded: a Response Created
 * or Decline Created for itself; an `updated` delivery a Response Updated, and a Response Created
 * when it was changed within Treat as Complete After of the score, by the service's times in it
 * (its updated_at, else its timestamp; with neither it cannot tell, and is a change only). So a tag
 * or a new score on an old response opens nothing, whatever this process remembers.
 */
function candidates(delivery: Delivery, settings: WebhookSettings): EventName[] {
	const { event, record, createdSecond } = delivery;
	if (event === 'decline') return settings.events.includes('decline') ? ['decline'] : [];
	const sentSecond = delivery.sentAt === undefined ? undefined : Math.floor(delivery.sentAt / 1000);
	return responseEvents(
		{
			record,
			createdSecond,
			changedSecond: event === 'response' ? createdSecond : (delivery.updatedSecond ?? sentSecond),
			isChange: event === 'responseUpdated',
		},
		settings,
	);
}

/**
 * How long a copy of a delivery waits for n8n's answer to its twin before it is answered 503 (the
 * service sends it again later, when that answer is known). n8n answers within seconds, also under
 * a burst (docs/maintainers/performance.md).
 */
export const TWIN_ANSWER_WAIT_MS = 10_000;

/** How a delivery's connection ended, once it has: answered (with a success or not), or closed unanswered. */
interface DeliveryAnswer {
	/** Whether n8n answered it with a success (its execution started). */
	started: Promise<boolean>;
	/** Whether the service hung up before anything answered it. */
	hungUp: () => boolean;
}

/**
 * n8n 2.x answers a webhook of responseMode onReceived once its execution is stored and queued, and
 * answers an error (500) when that fails, or drops the connection; the service then delivers it
 * again. Whether it started is known when the answer goes (n8n 1.x answers before it stores the
 * execution, so there a failure to store it loses the event whatever the node does). Listened for
 * as the delivery arrives: the service may hang up before the node has read its credential.
 */
function listenForAnswer(context: IWebhookFunctions): DeliveryAnswer {
	const response = context.getResponseObject();
	// (The request is destroyed once its body is read, hung up or not: the answer tells.)
	let closedUnanswered = response.destroyed;
	const started = new Promise<boolean>((resolve) => {
		if (closedUnanswered) resolve(false);
		response.once('finish', () => resolve(response.statusCode < 300));
		// After 'finish' this changes nothing; before it, the connection went unanswered.
		response.once('close', () => {
			closedUnanswered ||= !response.writableFinished;
			resolve(false);
		});
	});
	return { started, hungUp: () => closedUnanswered };
}

/**
 * Whether `answers` all settled within `ms` (n8n's sleep, which cannot be cancelled, ends on its
 * own then, holding nothing).
 */
async function settledWithin(answers: Array<Promise<boolean>>, ms: number): Promise<boolean> {
	if (ms <= 0) return false;
	return await Promise.race([Promise.all(answers).then(() => true), sleep(ms).then(() => false)]);
}

/**
 * One webhook: its signature checked against the credential's secret before anything else (401,
 * nothing read from the body), then its body (400 when unreadable), its age (a replay older than
 * Max Age is answered 200 so that nothing sends it again), then filters and repeats.
 */
export async function receiveWebhook(context: IWebhookFunctions): Promise<IWebhookResponseData> {
	const answered = listenForAnswer(context);
	const signed = await readSignedDelivery(context);
	if ('refusal' in signed) return signed.refusal;
	const { credential, delivery } = signed;
	const { scale, warning } = deliveryScale(credential.scale, delivery);
	if (warning) context.logger.warn(`Wootric Webhook Trigger: ${warning}`);
	// The filters are checked against the credential's scale, as on activation, and judge the
	// delivery on its own.
	const checked = readSettings(context, credential.scale);
	const settings = {
		...checked,
		filter: { ...checked.filter, scale },
		fields: { ...checked.fields, scale },
	};
	const now = Date.now();
	const sentAt = sentAtOf(delivery);
	if (sentAt !== undefined && now - sentAt > settings.maxAgeMs) {
		const minutes = settings.maxAgeMs / 60_000;
		return {
			webhookResponse: {
				message: `Ignored: sent at ${new Date(sentAt).toISOString()}, older than Max Age (${minutes} minutes)`,
			},
		};
	}
	const node = memoryKey(context, kindOf(context));
	// Every candidate is noted, so a repeat of this delivery starts nothing; each one not emitted
	// before is an item of its own (a change that completed a new response is its Response Created
	// and its Response Updated), so no change is folded into an event the workflow may have seen.
	const keyed = new Map(
		candidates(delivery, settings).map((name) => [idempotencyKey(name, delivery.record), name]),
	);
	const claimed = await claimFresh(
		node,
		[...keyed.keys()],
		Math.max(now, sentAt ?? now) + settings.maxAgeMs,
		now,
		answered.started,
	);
	if (claimed === 'twin starting')
		return answer(
			context,
			503,
			'A delivery of the same event is still starting its workflow; send it again later',
		);
	if (claimed.length === 0) return { webhookResponse: { message: 'Received; nothing to start' } };
	// The service hung up before it could be answered: nothing starts (its answer, registered with
	// the keys, has taken them back out), and its retry, which is new here again, does.
	if (answered.hungUp()) return { noWebhookResponse: true };
	const items = claimed.map((key) => {
		const json = eventJson(keyed.get(key)!, delivery.record, settings.fields, key);
		return { json: warning ? { ...json, survey_type_warning: warning } : json };
	});
	return { workflowData: [items] };
}

/**
 * The delivery and the credential that vouches for it; or the answer refusing it: 401 without a
 * secret or a valid signature (nothing read from the body), 400 for a body that cannot be read.
 */
async function readSignedDelivery(
	context: IWebhookFunctions,
): Promise<
	{ credential: WebhookCredential; delivery: Delivery } | { refusal: IWebhookResponseData }
> {
	const request = context.getRequestObject();
	const credential = await readCredential(context);
	const { secret } = credential;
	if (secret === '')
		return { refusal: answer(context, 401, `Webhooks cannot be checked: ${SECRET_HELP}`) };
	const body: Buffer = request.rawBody ?? Buffer.alloc(0);
	const signature = checkSignature(body, request.headers['x-wootric-signature'], secret);
	if (signature !== 'valid')
		return {
			refusal: answer(context, 401, `X-Wootric-Signature: ${signature}; the webhook was ignored`),
		};
	try {
		return { credential, delivery: readDelivery(body, request.headers['content-type']) };
	} catch (error) {
		if (error instanceof UnreadableDelivery)
			return { refusal: answer(context, 400, error.message) };
		throw new NodeOperationError(context.getNode(), error as Error);
	}
}

/**
 * When a delivery was sent: its timestamp; without one, the record's last change, also signed and
 * never after the sending. A change that says neither when it was sent nor when it was made cannot
 * be called old (undefined).
 */
function sentAtOf(delivery: Delivery): number | undefined {
	const madeSecond =
		delivery.updatedSecond ??
		(delivery.event === 'responseUpdated' ? undefined : delivery.createdSecond);
	return delivery.sentAt ?? (madeSecond === undefined ? undefined : madeSecond * 1000);
}

/**
 * The keys not emitted before, each now noted until `expires` with this delivery's `answer`
 * registered (claimKeys, one synchronous step). While another delivery is still starting some of
 * the keys (a copy of this one, or a delivery of the same event), this one is told nothing until
 * that is known: where it did not start, this delivery starts the key too, as the other's event may
 * never come again in time; 'twin starting' when that is not known within TWIN_ANSWER_WAIT_MS of
 * the first look, however many deliveries came between.
 */
async function claimFresh(
	node: string,
	keys: string[],
	expires: number,
	now: number,
	answer: Promise<boolean>,
): Promise<string[] | 'twin starting'> {
	const deadline = Date.now() + TWIN_ANSWER_WAIT_MS;
	// A set: a key of its own the bound dropped while it waited is fresh to it again.
	const claimed = new Set<string>();
	for (;;) {
		// No await between this look and its record: claimKeys notes and registers at once.
		const { fresh, twins } = claimKeys(node, keys, expires, now, answer);
		for (const key of fresh) claimed.add(key);
		// In the order of `keys`: a Response Created before its change, whichever was claimed first.
		if (twins.length === 0) return keys.filter((key) => claimed.has(key));
		if (!(await settledWithin(twins, deadline - Date.now()))) return 'twin starting';
	}
}
