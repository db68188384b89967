/**
 * The fake's own calls, not the service's: what happens outside the API (the account owner
 * registers an outgoing webhook in the web app, an end user answers in the survey widget), for a
 * test, the dev script or a browser in another process. They live under /_fake/, take and give
 * JSON, and stay apart from the API: no auth, rate limits, faults, latency or request log.
 */
import { ApiError, invalidValue, missingValue } from './errors';
import { created, noContent, ok, route, type FakeRequest, type Route } from './http';
import {
	WEBHOOK_EVENTS,
	type OutgoingWebhooks,
	type WebhookRegistration,
	type WebhookRegistrationOptions,
} from './outgoing-webhooks';
import { changeResponse, responseView } from './resources/responses';
import { recordOf } from './resources/survey-records';
import type { Account, FakeStore, SurveyResponse } from './store';
import type { WebhookEvent, WebhookFormat } from './webhook-body';

export const FAKE_ADMIN_PREFIX = '/_fake/';

export interface FakeAdminCall {
	request: FakeRequest;
	pathParams: Record<string, string>;
	account: Account;
	store: FakeStore;
	outgoingWebhooks: OutgoingWebhooks;
}

type Check<T> = (value: unknown) => value is T;

const isWebhookUrl: Check<string> = (value): value is string => {
	if (typeof value !== 'string') return false;
	try {
		return ['http:', 'https:'].includes(new URL(value).protocol);
	} catch {
		return false;
	}
};
const isEventList: Check<WebhookEvent[]> = (value): value is WebhookEvent[] =>
	Array.isArray(value) &&
	value.length > 0 &&
	value.every((event) => WEBHOOK_EVENTS.includes(event as WebhookEvent));
const isFormat: Check<WebhookFormat> = (value): value is WebhookFormat =>
	value === 'form' || value === 'json';
const isSecret: Check<string> = (value): value is string =>
	typeof value === 'string' && value !== '';
const isScore: Check<number> = (value): value is number =>
	Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 10;
const isComment: Check<string | null> = (value): value is string | null =>
	value === null || typeof value === 'string';

/** The JSON object a call sent ({} for no body); anything else is a 400. */
function jsonBody(request: FakeRequest): Record<string, unknown> {
	if (request.rawBody.trim() === '') return {};
	let body: unknown;
	try {
		body = JSON.parse(request.rawBody);
	} catch {
		body = undefined;
	}
	if (typeof body !== 'object' || body === null || Array.isArray(body))
		throw new ApiError(400, 'bad_request', 'The request body is not a JSON object');
	return body as Record<string, unknown>;
}

/** The fields `checks` names that `body` has, each checked: a 400 names the first that fails. */
function checkedFields<T>(
	body: Record<string, unknown>,
	checks: { [K in keyof T]-?: Check<T[K]> },
): Partial<T> {
	const fields: Partial<T> = {};
	for (const name of Object.keys(checks) as Array<keyof T & string>) {
		if (!Object.hasOwn(body, name)) continue;
		if (!checks[name](body[name])) throw invalidValue(name);
		fields[name] = body[name] as T[typeof name];
	}
	return fields;
}

/** A registration as the admin calls show it: the secret stays out. */
const registrationView = ({ url, events, format }: WebhookRegistration) => ({
	url,
	events,
	format,
});

/** POST /_fake/outgoing_webhooks {url, events?, format?, secret?}: 201 with the registration. */
function registerWebhook(call: FakeAdminCall) {
	const { url, ...options } = checkedFields<WebhookRegistrationOptions>(jsonBody(call.request), {
		url: isWebhookUrl,
		events: isEventList,
		format: isFormat,
		secret: isSecret,
	});
	if (url === undefined) throw missingValue('url');
	return created(registrationView(call.outgoingWebhooks.register({ url, ...options })));
}

/** GET /_fake/outgoing_webhooks: the registrations and every delivery sent so far. */
const showWebhooks = ({ outgoingWebhooks }: FakeAdminCall) =>
	ok({
		registrations: outgoingWebhooks.registrations.map(registrationView),
		deliveries: outgoingWebhooks.deliveries,
	});

/** DELETE /_fake/outgoing_webhooks: removes every registration. 204. */
function removeWebhooks(call: FakeAdminCall) {
	call.outgoingWebhooks.removeAll();
	return noContent();
}

/**
 * POST /_fake/responses/:id/answer {score?, text?}: the end user answers in the survey widget,
 * which no API call can do; the service announces response_updated. 200 with the response as the
 * API shows it.
 */
function answerResponse(call: FakeAdminCall) {
	const response = recordOf(call.account.responses, call.pathParams.id);
	const answer = checkedFields<Pick<SurveyResponse, 'score' | 'text'>>(jsonBody(call.request), {
		score: isScore,
		text: isComment,
	});
	if (Object.keys(answer).length === 0)
		throw new ApiError(400, 'missing_parameter', 'score or text is required');
	changeResponse(call.account, call.store, response.id, answer);
	return ok(responseView(call.account, response));
}

export const fakeAdminRoutes: Route<FakeAdminCall>[] = [
	route('POST', '/_fake/outgoing_webhooks', registerWebhook),
	route('GET', '/_fake/outgoing_webhooks', showWebhooks),
	route('DELETE', '/_fake/outgoing_webhooks', removeWebhooks),
	route('POST', '/_fake/responses/:id/answer', answerResponse),
];
