import type {
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IPollFunctions,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { wootricBaseUrl } from './signIn';
import { encodeParams, type ParamHash } from './encoding';
import { describeFailure, lowerCaseHeaders, MALFORMED_JSON, toNodeApiError, type RequestFailure } from './failures';
import { endpointKey, MAX_RATE_LIMIT_WAIT_SECONDS, rateLimitGateOf, resetTimeOf, serviceSecondsOf, type RateLimitGate } from './rateLimits';

export type WootricContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

export interface WootricRequest {
	method: IHttpRequestMethods;
	/** Starts with /v1. */
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
	 * Send once, without waiting out rate limits or retrying: for a request made ahead of need, which the
	 * caller makes again the usual way if this one fails.
	 */
	once?: boolean;
	/** Told the service's time (UNIX seconds, from the answer's Date header) when it answered. */
	onServiceTime?: (unixSeconds: number) => void;
}

/** Retries of a request that failed in a way that did not change anything (GET, PUT, DELETE only). */
export const RETRY = { attempts: 4, firstBackoffMs: 500, timeoutMs: 60_000 };
/** 429s are safe to repeat for every method: the service did not act on the request. */
const MAX_RATE_LIMITED_ATTEMPTS = 6;

/**
 * One request to the Wootric API with the credential's token (n8n renews it on a 401), in the service's
 * bracket encoding. Waits out rate limits, retries transient failures where repeating is safe, and turns
 * failures into NodeApiErrors that name the status, the service's message and what to do.
 * Resolves to the parsed JSON body, or undefined for an empty one (202, 204).
 */
export async function wootricRequest<T = unknown>(context: WootricContext, request: WootricRequest): Promise<T> {
	const endpoint = endpointKey(request.method, request.path);
	const gate = rateLimitGateOf(context);
	// Counted from the call on, so a page asked for ahead right after sees this one as on its way.
	return await gate.sending(endpoint, async () => await sendWithRetries<T>(context, request, endpoint, gate));
}

async function sendWithRetries<T>(context: WootricContext, request: WootricRequest, endpoint: string, gate: RateLimitGate): Promise<T> {
	const baseUrl = await baseUrlOf(context);
	const query = request.query ? encodeParams(request.query) : '';
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${baseUrl}${request.path}${query ? `?${query}` : ''}`,
		returnFullResponse: true,
		json: false,
		encoding: 'text',
		timeout: RETRY.timeoutMs,
		headers: { accept: 'application/json' },
	};
	if (request.form) {
		options.body = encodeParams(request.form);
		options.headers = { ...options.headers, 'content-type': 'application/x-www-form-urlencoded' };
	} else if (request.multipart) {
		options.body = request.multipart;
	}
	let transientFailures = 0;
	let rateLimited = 0;
	let renewedForUpload = false;
	for (;;) {
		await gate.waitFor(endpoint);
		let failure: RequestFailure;
		try {
			const response = (await context.helpers.httpRequestWithAuthentication.call(context, 'wootricApi', options)) as IN8nHttpFullResponse;
			const headers = lowerCaseHeaders(response.headers);
			gate.observe(endpoint, headers);
			const body = parseJson(response.body);
			if (body !== MALFORMED) {
				const answeredAt = serviceSecondsOf(headers);
				if (answeredAt !== undefined) request.onServiceTime?.(answeredAt);
				return body as T;
			}
			failure = { status: undefined, headers, apiMessages: [], code: MALFORMED_JSON };
		} catch (error) {
			failure = describeFailure(error);
			gate.observe(endpoint, failure.headers);
		}

		const attempts = transientFailures + rateLimited + Number(renewedForUpload) + 1;
		const transient = !failure.signIn && (failure.status === undefined || failure.status >= 500);
		const failed = () =>
			toNodeApiError(
				context.getNode(),
				{
					method: request.method,
					path: request.path,
					subject: request.subject,
					itemIndex: request.itemIndex,
					attempts,
					notRetriedPost: transient && request.method === 'POST',
					rateLimitWaitSeconds: MAX_RATE_LIMIT_WAIT_SECONDS,
				},
				failure,
			);
		if (request.once) throw failed();
		// n8n renews the token on a 401 but does not resend a multipart body; the upload was refused, not
		// processed, so it is safe to send it once more with the new token.
		if (failure.status === 401 && request.multipart && !failure.signIn && !renewedForUpload) {
			renewedForUpload = true;
			continue;
		}
		if (failure.status === 429 && ++rateLimited < MAX_RATE_LIMITED_ATTEMPTS) {
			const wait = (resetTimeOf(failure.headers) ?? Date.now() + 60_000) - Date.now();
			if (wait <= MAX_RATE_LIMIT_WAIT_SECONDS * 1000) {
				await sleep(Math.max(wait, 0));
				continue;
			}
		}
		if (transient && request.method !== 'POST' && ++transientFailures < RETRY.attempts) {
			await sleep(RETRY.firstBackoffMs * 2 ** (transientFailures - 1));
			continue;
		}
		throw failed();
	}
}

/** Whether one more request to this endpoint can go out ahead of need now, with those on their way. */
export function canSendAhead(context: WootricContext, method: IHttpRequestMethods, path: string): boolean {
	return rateLimitGateOf(context).hasRoomForAnother(endpointKey(method, path));
}

const baseUrls = new WeakMap<object, Promise<string>>();

/** The credential's host, read once per execution context rather than once per request. */
function baseUrlOf(context: WootricContext): Promise<string> {
	let baseUrl = baseUrls.get(context);
	if (!baseUrl) {
		baseUrl = context.getCredentials('wootricApi').then(wootricBaseUrl);
		baseUrls.set(context, baseUrl);
	}
	return baseUrl;
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
