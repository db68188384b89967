import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import type { FakeWootric } from '../fake';
import {
	encodeWebhook,
	signWebhook,
	type WebhookFormat,
	type WebhookPayload,
} from '../fake/webhook-body';
import { startWebhookTrigger, type WebhookTrigger } from '../harness';
import { recordShown } from '../harness/shown';
import { credentialsFor } from './wootric';

/** A "Wootric API" credential for a fake instance that also holds its account's webhook secret. */
export const webhookCredentialsFor = (
	fake: FakeWootric,
	overrides: ICredentialDataDecryptedObject = {},
) => credentialsFor(fake, { webhookSecret: fake.credentials.webhookSecret, ...overrides });

/** A POST as the service sends it: headers left out when undefined. */
export interface Delivery {
	body: string | Buffer;
	contentType?: string;
	signature?: string;
}

/** What n8n answered. */
export interface Answer {
	status: number;
	contentType: string | null;
	text: string;
}

/** POSTs the body's exact bytes over a real socket. */
export async function post(
	url: string,
	{ body, contentType, signature }: Delivery,
): Promise<Answer> {
	const headers: Record<string, string> = {};
	if (contentType !== undefined) headers['content-type'] = contentType;
	if (signature !== undefined) headers['x-wootric-signature'] = signature;
	// Bytes, not a string: fetch would add a text/plain content type of its own.
	const response = await fetch(url, { method: 'POST', headers, body: Buffer.from(body) });
	const answer = {
		status: response.status,
		contentType: response.headers.get('content-type'),
		text: await response.text(),
	};
	recordShown({ answer: answer.text });
	return answer;
}

/** A body signed with the fake account's webhook secret, as the service signs it. */
export const signed = (fake: FakeWootric, body: string | Buffer, contentType?: string) => ({
	body,
	contentType,
	signature: signWebhook(body, fake.credentials.webhookSecret),
});

/** The service's webhook for a payload: encoded and signed. */
export function signedDelivery(
	fake: FakeWootric,
	payload: WebhookPayload,
	format: WebhookFormat = 'form',
): Delivery & { body: string; contentType: string; signature: string } {
	const { body, contentType } = encodeWebhook(payload, format);
	return { body, contentType, signature: signWebhook(body, fake.credentials.webhookSecret) };
}

/**
 * n8n 2.x's answer to a webhook that started the workflow, for a node that declares no responseData
 * (webhook-helpers takes the description's responseData, which defaults to this text, before
 * `{"message":"Workflow was started"}`).
 */
export const WORKFLOW_STARTED = 'firstEntryJson';

/** The answer the node gives a delivery that starts nothing (a repeat, a filtered event). */
export const NOTHING_TO_START = { message: 'Received; nothing to start' };

const running: WebhookTrigger[] = [];

/**
 * A Wootric Webhook Trigger of a published workflow, its credential holding the fake account's
 * webhook secret, with the items it emitted.
 */
export class WebhookSession {
	private constructor(
		readonly trigger: WebhookTrigger,
		private readonly fake: FakeWootric,
	) {}

	/**
	 * `typeVersion`: the node's, its latest by default; `credential`: fields of the credential besides
	 * the fake's sign-in and webhook secret.
	 */
	static async start(
		fake: FakeWootric,
		parameters: INodeParameters,
		typeVersion?: number,
		credential: ICredentialDataDecryptedObject = {},
	): Promise<WebhookSession> {
		const trigger = await startWebhookTrigger({
			nodeType: 'wootricWebhookTrigger',
			nodeTypeVersion: typeVersion,
			parameters,
			credentials: webhookCredentialsFor(fake, credential),
		});
		running.push(trigger);
		await trigger.activate();
		return new WebhookSession(trigger, fake);
	}

	/** Sends the payload as the service does, to the production URL unless told otherwise. */
	async deliver(
		payload: WebhookPayload,
		format: WebhookFormat = 'form',
		url = this.trigger.productionUrl,
	): Promise<Answer> {
		return await post(url, signedDelivery(this.fake, payload, format));
	}

	/** The json of every item the trigger started an execution with, oldest first. */
	get emitted(): IDataObject[] {
		return this.emissions.map(({ json }) => json);
	}

	/** Every item the trigger started an execution with, and whether n8n answered its delivery. */
	get emissions(): Array<{ json: IDataObject; answered: boolean }> {
		return this.trigger.executions.flatMap(({ items, answered }) =>
			items.map(({ json }) => ({ json, answered })),
		);
	}
}

/** Stops every trigger WebhookSession started: for afterEach. */
export async function closeWebhookSessions(): Promise<void> {
	await Promise.all(running.splice(0).map(async (trigger) => await trigger.close()));
}
