import type { FakeClock } from './clock';
import { FaultSchedule, type ScheduledFault } from './faults';
import type { Account, SurveyEvent } from './store';
import {
	encodeWebhook,
	signWebhook,
	webhookPayload,
	type WebhookEvent,
	type WebhookFormat,
} from './webhook-body';

export const WEBHOOK_EVENTS: readonly WebhookEvent[] = [
	'response_created',
	'response_updated',
	'decline_created',
];

/** A URL the account owner entered on the Outgoing Webhooks page, with the events chosen for it. */
export interface WebhookRegistration {
	url: string;
	events: WebhookEvent[];
	format: WebhookFormat;
	/** What its deliveries are signed with: the account's webhook secret unless a test chose one. */
	secret: string;
}

export interface WebhookRegistrationOptions {
	url: string;
	/** Default: all three. */
	events?: readonly WebhookEvent[];
	/** Default 'form', as documented; 'json' is the unconfirmed variant. */
	format?: WebhookFormat;
	secret?: string;
}

/** One POST, as it goes out. */
export interface OutgoingWebhook {
	event: WebhookEvent;
	/** The response's or decline's id. */
	recordId: number;
	url: string;
	contentType: string;
	body: string;
	/** The X-Wootric-Signature header; undefined when sent without one (the `unsigned` fault). */
	signature: string | undefined;
}

export interface WebhookDelivery extends OutgoingWebhook {
	/** When it was sent and answered, by the fake's clock (ms). */
	sentAtMs: number;
	answeredAtMs?: number;
	/** The receiver's HTTP status, once it answered. */
	status?: number;
	/** Why no answer came (connection refused, reset…). */
	error?: string;
}

/** What a test can make go wrong with a delivery; the real service's ordering is unconfirmed. */
export type DeliveryFault =
	/**
	 * Sent twice: the copy at once (both in flight together) or after the first is answered; with
	 * `freshTimestamp`, the copy written anew a second later, as a service whose retries carry the
	 * time of the attempt would.
	 */
	| { kind: 'duplicate'; copy?: 'atOnce' | 'afterAnswer'; freshTimestamp?: boolean }
	/** Held back, and sent once the next delivery has been answered. */
	| { kind: 'reorder' }
	/** Signed with a secret other than the registration's. */
	| { kind: 'badSignature' }
	/** Sent without X-Wootric-Signature. */
	| { kind: 'unsigned' }
	/** Sent `ms` milliseconds later. */
	| { kind: 'delay'; ms: number };

export interface DeliveryFaultRule extends ScheduledFault<DeliveryFault> {
	/** Only deliveries of this event (default: any). */
	event?: WebhookEvent;
}

/**
 * The service's Outgoing Webhooks for one account (API-FACTS, "Outgoing webhooks"): each event a
 * registration chose is POSTed to its URL, in its format, signed, as soon as it happens and
 * without holding up the API answer that caused it. No retries: the service's are unconfirmed.
 */
export class OutgoingWebhooks {
	readonly registrations: WebhookRegistration[] = [];
	/** Every delivery sent, in the order sent. */
	readonly deliveries: WebhookDelivery[] = [];
	/** Called as each delivery is answered, or fails: lets a watcher see what the receiver said. */
	readonly answeredListeners: Array<(delivery: WebhookDelivery) => void> = [];
	readonly faults = new FaultSchedule<DeliveryFaultRule, WebhookEvent>(
		(rule, event) => rule.event === undefined || rule.event === event,
	);
	private readonly inFlight = new Set<Promise<unknown>>();
	/** Held back by `reorder` until the next delivery is answered. */
	private readonly held: OutgoingWebhook[] = [];

	constructor(
		private readonly account: Account,
		private readonly clock: FakeClock,
		/** The account's webhook secret token. */
		private readonly secret: string,
	) {
		account.surveyEventListeners.push((event) => this.announce(event));
	}

	register(options: WebhookRegistrationOptions): WebhookRegistration {
		const registration: WebhookRegistration = {
			url: options.url,
			events: [...(options.events ?? WEBHOOK_EVENTS)],
			format: options.format ?? 'form',
			secret: options.secret ?? this.secret,
		};
		this.registrations.push(registration);
		return registration;
	}

	removeAll(): void {
		this.registrations.length = 0;
	}

	/**
	 * Resolves once every delivery started so far has been answered (or failed); one that `reorder`
	 * holds back starts when the next is answered.
	 */
	async settled(): Promise<void> {
		while (this.inFlight.size > 0) await Promise.all(this.inFlight);
	}

	/** The body is written now, timestamped by the fake's clock, whenever it is sent. */
	private announce(event: SurveyEvent): void {
		const recordId = 'response' in event ? event.response.id : event.decline.id;
		for (const registration of this.registrations) {
			if (!registration.events.includes(event.name)) continue;
			const fault = this.faults.take(event.name);
			const written = (seconds: number): OutgoingWebhook => {
				const payload = webhookPayload(this.account, event, seconds);
				const { body, contentType } = encodeWebhook(payload, registration.format);
				const signature = signatureFor(body, registration.secret, fault);
				return { event: event.name, recordId, url: registration.url, contentType, body, signature };
			};
			const webhook = written(this.clock.now());
			const fresh = fault?.kind === 'duplicate' && fault.freshTimestamp;
			this.dispatch(webhook, fault, fresh ? written(this.clock.now() + 1) : webhook);
		}
	}

	private dispatch(
		webhook: OutgoingWebhook,
		fault: DeliveryFault | undefined,
		copy: OutgoingWebhook = webhook,
	): void {
		switch (fault?.kind) {
			case 'reorder':
				this.held.push(webhook);
				return;
			case 'delay':
				return this.track(sleep(fault.ms).then(() => this.send(webhook)));
			case 'duplicate':
				return this.track(
					fault.copy === 'atOnce'
						? Promise.all([this.send(webhook), this.send(copy)])
						: this.send(webhook).then(() => this.send(copy)),
				);
			default:
				return this.track(this.send(webhook));
		}
	}

	private track(delivering: Promise<unknown>): void {
		this.inFlight.add(delivering);
		void delivering.finally(() => this.inFlight.delete(delivering));
	}

	/** POSTs one webhook and logs it; its answer releases whatever `reorder` held back. */
	private async send(webhook: OutgoingWebhook): Promise<void> {
		const delivery: WebhookDelivery = { ...webhook, sentAtMs: this.clock.nowMs() };
		this.deliveries.push(delivery);
		const headers: Record<string, string> = { 'Content-Type': webhook.contentType };
		if (webhook.signature !== undefined) headers['X-Wootric-Signature'] = webhook.signature;
		try {
			const answer = await fetch(webhook.url, {
				method: 'POST',
				headers,
				body: webhook.body,
				redirect: 'manual',
			});
			delivery.status = answer.status;
			// Read to the end, so the connection is free for the next delivery.
			await answer.arrayBuffer();
		} catch (error) {
			delivery.error = failureReason(error);
		}
		delivery.answeredAtMs = this.clock.nowMs();
		for (const listener of this.answeredListeners) listener(delivery);
		for (const released of this.held.splice(0)) this.track(this.send(released));
	}
}

function signatureFor(body: string, secret: string, fault: DeliveryFault | undefined) {
	if (fault?.kind === 'unsigned') return undefined;
	return signWebhook(body, fault?.kind === 'badSignature' ? 'not-the-webhook-secret' : secret);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * fetch says only "fetch failed"; its cause says why. Duck-typed: under jest, fetch's errors come
 * from another realm, so they are not `instanceof Error`.
 */
function failureReason(error: unknown): string {
	const reason = (error as { cause?: unknown } | null)?.cause ?? error;
	return (reason as { message?: string } | null)?.message || String(reason);
}
