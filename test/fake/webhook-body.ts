import { createHmac } from 'node:crypto';

import { formatDatetime } from './datetime';
import type { Account, Decline, SurveyEvent, SurveyResponse } from './store';

/**
 * The body of the service's outgoing webhooks (API-FACTS, "Outgoing webhooks"): form-encoded
 * bracket keys, every value a string, times in the account's local time with an offset. JSON with
 * the same nesting is the unconfirmed variant.
 */
export type WebhookEvent = SurveyEvent['name'];
export type WebhookFormat = 'form' | 'json';

export interface WebhookPayload {
	kind: 'response' | 'decline';
	eventName: 'created' | 'updated';
	/** The record's fields in the documented order, end-user properties nested. */
	fields: Array<[string, string | Record<string, string>]>;
	/** When the service sent it, in the same form as the record's times. */
	timestamp: string;
	/**
	 * Top level, after the record: the account it is about and the survey the account runs (a test
	 * may leave survey_mode out, as deliveries older than it).
	 */
	accountToken: string;
	surveyMode?: Account['surveyMode'];
}

export interface EncodedWebhook {
	body: string;
	contentType: string;
}

function endUserFields(account: Account, endUserId: number) {
	const user = account.endUsers.get(endUserId);
	return { email: user?.email ?? '', externalId: user?.externalId ?? '' };
}

const time = (account: Account, seconds: number) =>
	formatDatetime(seconds, account, 'spaceOffset') as string;

export function responsePayload(
	account: Account,
	response: SurveyResponse,
	eventName: 'created' | 'updated',
	sentAt: number,
): WebhookPayload {
	const { email, externalId } = endUserFields(account, response.endUserId);
	return {
		kind: 'response',
		eventName,
		fields: [
			['id', String(response.id)],
			['email', email],
			['external_id', externalId],
			['score', String(response.score)],
			['text', response.text ?? ''],
			['ip_address', response.ipAddress],
			['origin_url', response.originUrl],
			['end_user_id', String(response.endUserId)],
			['end_user_properties', response.endUserProperties],
			['survey_id', String(response.surveyId)],
			['created_at', time(account, response.createdAt)],
			['updated_at', time(account, response.updatedAt)],
			['excluded_from_calculations', String(response.excludedFromCalculations)],
		],
		timestamp: time(account, sentAt),
		accountToken: account.token,
		surveyMode: account.surveyMode,
	};
}

export function declinePayload(account: Account, decline: Decline, sentAt: number): WebhookPayload {
	const { email, externalId } = endUserFields(account, decline.endUserId);
	return {
		kind: 'decline',
		eventName: 'created',
		fields: [
			['id', String(decline.id)],
			['email', email],
			['external_id', externalId],
			['ip_address', decline.ipAddress ?? ''],
			['origin_url', decline.originUrl ?? ''],
			['end_user_id', String(decline.endUserId)],
			['end_user_properties', decline.endUserProperties],
			['survey_id', String(decline.surveyId)],
			['created_at', time(account, decline.createdAt)],
			['updated_at', time(account, decline.updatedAt)],
		],
		timestamp: time(account, sentAt),
		accountToken: account.token,
		surveyMode: account.surveyMode,
	};
}

/** The payload announcing `event`, sent at `sentAt` (UNIX seconds). */
export function webhookPayload(
	account: Account,
	event: SurveyEvent,
	sentAt: number,
): WebhookPayload {
	switch (event.name) {
		case 'response_created':
			return responsePayload(account, event.response, 'created', sentAt);
		case 'response_updated':
			return responsePayload(account, event.response, 'updated', sentAt);
		case 'decline_created':
			return declinePayload(account, event.decline, sentAt);
	}
}

export function encodeWebhook(payload: WebhookPayload, format: WebhookFormat): EncodedWebhook {
	const { kind, eventName, fields, timestamp, accountToken, surveyMode } = payload;
	if (format === 'json') {
		return {
			body: JSON.stringify({
				[kind]: Object.fromEntries(fields),
				event_name: eventName,
				timestamp,
				account_token: accountToken,
				survey_mode: surveyMode,
			}),
			contentType: 'application/json',
		};
	}
	const form = new URLSearchParams();
	for (const [name, value] of fields) {
		if (typeof value === 'string') form.append(`${kind}[${name}]`, value);
		else
			for (const [property, text] of Object.entries(value))
				form.append(`${kind}[${name}][${property}]`, text);
	}
	form.append('event_name', eventName);
	form.append('timestamp', timestamp);
	form.append('account_token', accountToken);
	if (surveyMode !== undefined) form.append('survey_mode', surveyMode);
	return { body: form.toString(), contentType: 'application/x-www-form-urlencoded' };
}

/** `X-Wootric-Signature`: `sha1=` and the HMAC-SHA1 of the raw body with the webhook secret. */
export function signWebhook(body: string | Buffer, secret: string): string {
	return `sha1=${createHmac('sha1', secret).update(body).digest('hex')}`;
}
