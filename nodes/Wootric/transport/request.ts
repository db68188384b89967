import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IPollFunctions,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { DEFAULT_RETRY_POLICY } from './defaults';
import { encodeParams, type ParamHash } from './encoding';
import {
	describeFailure,
	lowerCaseHeaders,
	MALFORMED_JSON,
	toNodeApiError,
	UNEXPECTED_ANSWER,
	type RequestFailure,
} from './failures';
import { endpointKey, rateLimitGateOf, serviceSecondsOf, type RateLimitGate } from './rateLimits';
import { nextStep, NO_FAILURES } from './retries';
import { wootricBaseUrl } from './signIn';

export type WootricContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

export interface WootricRequest {
	method: IHttpRequestMethods;
	/** From the host on, with the API's version: /v1/… or /v2/… (the email statistics). */
	path: string;
	query?: ParamHash;
	/** Sent form-encoded in bracket notation. */
	form?: ParamHash;
	/** Sent as multipart/form-data (a CSV upload). */
	multipart?: FormData;
	/** What the request is about, named in a 404: e.g. "end user 123". */
	subject?: string;
	itemIndex?: number;
	/**
	 * Send once, without waiting out rate limits or retrying: for a request made ahead of need, which
	 * the caller makes again the usual way if this one fails.
	 */
	once?: boolean;
	/** Told the service's time (UNIX seconds, from the answer's Date header) when it answered. */
	onServiceTime?: (unixSeconds: number) => void;
	/**
	 * When the caller's time runs out (ms since the epoch; a poll's, n8n's poll budget): a rate limit
	 * that resets later is not waited for, nor a failed try retried that would end later, and the
	 * request fails with an OutOfTimeError, so that the caller keeps what it has.
	 */
	giveUpAt?: number;
	/**
	 * What the answer's body must be: a record (a JSON object), a list of records, or either of those
	 * or nothing (an empty body). Anything else fails as an answer of the wrong shape, named
	 * (failures.ts), before the caller reads it. Unset: any JSON.
	 */
	answer?: AnswerShape;
	/**
	 * With giveUpAt: requests of the endpoint's rate limit to leave for the caller's later requests
	 * (a poll's closing look); a request that would take one of them is not sent (OutOfTimeError).
	 */
	keepRequests?: number;
}

/**
 * One request to the Wootric API with the credential's token (n8n renews it on a 401), in the
 * service's bracket encoding. Waits out rate limits, retries transient failures where repeating is
 * safe (nextStep), and turns failures into NodeApiErrors that name the status, the service's
 * message and what to do. Resolves to the parsed JSON body, or undefined for an empty one (202,
 * 204).
 */
export async function wootricRequest<T = unknown>(
	context: WootricContext,
	request: WootricRequest,
): Promise<T> {
	const endpoint = endpointKey(request.method, request.path);
	const gate = rateLimitGateOf(context);
	// Counted from the call on, so a page asked for ahead right after sees this one as on its way.
	return await gate.sending(
		endpoint,
		async () => await sendWithRetries<T>(context, request, endpoint, gate),
	);
}

/**
 * Tries the request until it succeeds or nextStep says to fail. Invariant: `failures` counts the
 * tries that failed, by kind. Bound: nextStep retries each kind only up to its limit, so at most
 * attempts + rateLimitedAttempts tries (DEFAULT_RETRY_POLICY) are made.
 */
async function sendWithRetries<T>(
	context: WootricContext,
	request: WootricRequest,
	endpoint: string,
	gate: RateLimitGate,
): Promise<T> {
	const httpOptions = httpOptionsOf(request, wootricBaseUrl(await credentialsOf(context)));
	let failures = NO_FAILURES;
	const { method, path, subject, itemIndex } = request;
	for (;;) {
		const resetsAt = await gate.waitFor(endpoint, {
			giveUpAt: request.giveUpAt,
			keep: request.keepRequests,
		});
		if (resetsAt !== undefined)
			throw toNodeApiError(
				context.getNode(),
				{ method, path, subject, itemIndex, attempts: 0, outOfTime: { resetsAt } },
				{ status: 429, headers: {}, apiMessages: [] },
			);
		const triedAt = Date.now();
		const sent = await sendOnce(context, request, endpoint, gate, httpOptions);
		if (!('failure' in sent)) return sent.body as T;
		const step = nextStep(sent.failure, failures, request, Date.now(), Date.now() - triedAt);
		if (step.kind === 'fail') {
			const failed = {
				method,
				path,
				subject,
				itemIndex,
				attempts: step.tries,
				notRetriedPost: step.notRetriedPost,
				outOfTime: step.outOfTime ? {} : undefined,
			};
			throw toNodeApiError(context.getNode(), failed, sent.failure);
		}
		failures = step.failures;
		await sleep(step.afterMs);
	}
}

function httpOptionsOf(request: WootricRequest, baseUrl: string): IHttpRequestOptions {
	const query = request.query ? encodeParams(request.query) : '';
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${baseUrl}${request.path}${query ? `?${query}` : ''}`,
		returnFullResponse: true,
		json: false,
		encoding: 'text',
		timeout: DEFAULT_RETRY_POLICY.timeoutMs,
		headers: { accept: 'application/json' },
		// The API does not redirect: a redirect is a failure that names where it points (failures.ts),
		// never followed with the token or the request's body.
		disableFollowRedirect: true,
	};
	if (request.form) {
		options.body = encodeParams(request.form);
		options.headers = { ...options.headers, 'content-type': 'application/x-www-form-urlencoded' };
	} else if (request.multipart) {
		options.body = request.multipart;
	}
	return options;
}

/**
 * One try: the parsed body, or what went wrong. Tells the gate what the answer said of the rate
 * limit.
 */
async function sendOnce(
	context: WootricContext,
	request: WootricRequest,
	endpoint: string,
	gate: RateLimitGate,
	httpOptions: IHttpRequestOptions,
): Promise<{ body: unknown } | { failure: RequestFailure }> {
	try {
		const response = (await context.helpers.httpRequestWithAuthentication.call(
			context,
			'wootricApi',
			httpOptions,
		)) as IN8nHttpFullResponse;
		const headers = lowerCaseHeaders(response.headers);
		gate.observe(endpoint, headers);
		const body = parseJson(response.body);
		if (body === MALFORMED)
			return { failure: { status: undefined, headers, apiMessages: [], code: MALFORMED_JSON } };
		const misfit = request.answer && misfitOf(body, request.answer);
		if (misfit)
			return {
				failure: { status: undefined, headers, apiMessages: [], code: UNEXPECTED_ANSWER, misfit },
			};
		const answeredAt = serviceSecondsOf(headers);
		if (answeredAt !== undefined) request.onServiceTime?.(answeredAt);
		return { body };
	} catch (error) {
		const failure = describeFailure(error);
		gate.observe(endpoint, failure.headers);
		return { failure };
	}
}

/**
 * Whether one more request to this endpoint can go out ahead of need now, with those on their way.
 */
export function canSendAhead(
	context: WootricContext,
	method: IHttpRequestMethods,
	path: string,
	keepRequests?: number,
): boolean {
	return rateLimitGateOf(context).hasRoomForAnother(endpointKey(method, path), keepRequests);
}

/**
 * Execution context → its credential's data. Invariant: it is read from n8n's stored credential at
 * the context's first need (its first request, or a node asking for its survey type), and the whole
 * context works with it: one run talks to one host and scores by one survey type, and a credential
 * edited during a run takes effect at the next. Not shared between runs or processes, so nothing
 * here outlives a run or a restart. Bound: one credential per context n8n still holds, freed with
 * it (a WeakMap).
 */
const credentialsByContext = new WeakMap<object, Promise<ICredentialDataDecryptedObject>>();

/** The context's credential, read once per execution context rather than once per request. */
export function credentialsOf(context: WootricContext): Promise<ICredentialDataDecryptedObject> {
	let credentials = credentialsByContext.get(context);
	if (!credentials) {
		credentials = context.getCredentials('wootricApi');
		credentialsByContext.set(context, credentials);
	}
	return credentials;
}

export type AnswerShape = 'record' | 'records' | 'record or nothing';

/**
 * The list of records an answer holds under `field` (none where it is missing): anything else fails
 * as an answer of the wrong shape, naming the endpoint, as `answer` does for the whole body.
 */
export function recordsIn(
	context: WootricContext,
	{ method, path, itemIndex }: Pick<WootricRequest, 'method' | 'path' | 'itemIndex'>,
	answer: IDataObject | undefined,
	field: string,
): IDataObject[] {
	const value = answer?.[field] ?? [];
	const misfit = misfitOf(value, 'records');
	if (misfit === undefined) return value as IDataObject[];
	throw toNodeApiError(
		context.getNode(),
		{ method, path, itemIndex, attempts: 1 },
		{ headers: {}, apiMessages: [], code: UNEXPECTED_ANSWER, misfit: `${field}: ${misfit}` },
	);
}

/**
 * An id as an answer gives it: a positive whole number, or its digits as text; undefined for
 * anything else (missing, a record, `1002/settings`), which must never reach a path.
 */
export function answerId(value: unknown): number | undefined {
	const id = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
	return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/**
 * The id an answer holds under `field`, checked before it becomes a path segment: anything but an
 * id fails as an answer of the wrong shape, naming the endpoint, the item, and what was not sent
 * (`notSent`, e.g. "Create or Update did not update the end user").
 */
export function idInAnswer(
	context: WootricContext,
	{ method, path, itemIndex }: Pick<WootricRequest, 'method' | 'path' | 'itemIndex'>,
	answer: IDataObject,
	field: string,
	notSent: string,
): number {
	const id = answerId(answer[field]);
	if (id !== undefined) return id;
	const given =
		answer[field] === undefined
			? `no ${field}`
			: `${field} ${String(JSON.stringify(answer[field])).slice(0, 60)}`;
	throw toNodeApiError(
		context.getNode(),
		{ method, path, itemIndex, attempts: 1 },
		{
			headers: {},
			apiMessages: [],
			code: UNEXPECTED_ANSWER,
			misfit: `${given} where an ID (a whole number above 0) belongs: ${notSent}`,
		},
	);
}

const isRecord = (value: unknown) =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** What is wrong with an answer for the shape asked, in words; undefined when it fits. */
function misfitOf(body: unknown, shape: AnswerShape): string | undefined {
	const given =
		body === undefined
			? 'nothing'
			: body === null
				? 'null'
				: Array.isArray(body)
					? 'a list'
					: typeof body === 'object'
						? 'a record'
						: `a ${typeof body}`;
	if (shape === 'records') {
		if (!Array.isArray(body)) return `${given} where a list of records belongs`;
		const index = body.findIndex((entry) => !isRecord(entry));
		return index === -1 ? undefined : `a list whose entry ${index + 1} is not a record`;
	}
	if (isRecord(body) || (shape === 'record or nothing' && body === undefined)) return undefined;
	return `${given} where a record belongs`;
}

const MALFORMED = Symbol('malformed');

function parseJson(body: unknown): unknown {
	if (typeof body !== 'string') return body ?? undefined;
	if (body.trim() === '') return undefined;
	try {
		return JSON.parse(body);
	} catch {
		return MALFORMED;
	}
}
