import type { Failure, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { MAX_RATE_LIMIT_WAIT_SECONDS, resetTimeOf } from './rateLimits';
import { networkProblem, redirectTarget, SIGN_IN_CONTEXT } from './signIn';

/** What went wrong with one request, read from whatever n8n's request helpers threw. */
export interface RequestFailure {
	/** HTTP status; undefined when no answer came (network error, timeout). */
	status?: number;
	headers: Record<string, string>;
	/** The service's own messages (error_list, or an OAuth error description). */
	apiMessages: string[];
	/**
	 * e.g. ECONNREFUSED, ETIMEDOUT, MALFORMED_JSON for an answer that did not parse, or
	 * UNEXPECTED_ANSWER for one of another shape than the request's (`misfit` says how).
	 */
	code?: string;
	misfit?: string;
	/** Set when getting a token failed: the whole message for the user. */
	signIn?: string;
}

interface HttpErrorShape {
	code?: string;
	httpCode?: string | null;
	cause?: unknown;
	response?: { status?: number; headers?: Record<string, unknown>; data?: unknown };
	/**
	 * n8n's errors: a NodeApiError keeps the answer's body here, a wrapped sign-in error its facts.
	 */
	context?: { data?: unknown; [SIGN_IN_CONTEXT]?: { message: string; httpStatus: number | null } };
}

export const MALFORMED_JSON = 'MALFORMED_JSON';
export const UNEXPECTED_ANSWER = 'UNEXPECTED_ANSWER';

/**
 * No answer, a server error, or a 408 (the service, or a proxy or load balancer before it, gave up
 * waiting for the request): nothing the user can fix, and worth trying again.
 */
export function isTransientStatus(status: number | undefined): boolean {
	return status === undefined || status >= 500 || status === 408;
}

export function lowerCaseHeaders(
	headers: Record<string, unknown> | undefined,
): Record<string, string> {
	return Object.fromEntries(
		Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), String(value)]),
	);
}

/** Whether a request's error is Wootric's 404 (the record is not there). */
export function isNotFound(error: unknown): boolean {
	return error instanceof NodeApiError && error.httpCode === '404';
}

/**
 * n8n wraps the HTTP client's error (which holds the response) in a NodeApiError: look through
 * both. n8n 1.x drops the wrapper's `cause`; what it keeps is read instead: the status (httpCode),
 * the answer's body and a sign-in error's facts (context). The answer's headers are lost there, so
 * a 429 waits the default time.
 */
export function describeFailure(error: unknown): RequestFailure {
	const chain: HttpErrorShape[] = [];
	for (
		let current = error as HttpErrorShape | undefined;
		current && chain.length < 5;
		current = current.cause as HttpErrorShape | undefined
	) {
		chain.push(current);
	}
	// The sign-in error's own context, or the context n8n 1.x copied into the wrapper that dropped
	// it.
	const signIn = chain.map((entry) => entry.context?.[SIGN_IN_CONTEXT]).find(Boolean);
	if (signIn)
		return {
			status: signIn.httpStatus ?? undefined,
			headers: {},
			apiMessages: [],
			signIn: signIn.message,
		};
	const response = chain.find((entry) => entry.response?.status !== undefined)?.response;
	if (response) {
		return {
			status: response.status,
			headers: lowerCaseHeaders(response.headers),
			apiMessages: apiMessagesOf(response.data),
		};
	}
	const httpCode = Number(chain.find((entry) => entry.httpCode)?.httpCode);
	const status = Number.isInteger(httpCode) && httpCode >= 100 ? httpCode : undefined;
	if (status !== undefined)
		return {
			status,
			headers: {},
			apiMessages: apiMessagesOf(chain.find((entry) => entry.context?.data)?.context?.data),
		};
	return {
		status: undefined,
		headers: {},
		apiMessages: [],
		code:
			chain.map((entry) => entry.code).find((code) => typeof code === 'string') ?? 'NETWORK_ERROR',
	};
}

/** The API's messages end without a full stop; the description goes on with our own sentences. */
function asSentence(text: string): string {
	return /[.!?]$/.test(text) ? text : `${text}.`;
}

/**
 * `{"type":"error_list","errors":[{"message":…}]}`, or the token endpoint's
 * `{"error_description":…}`.
 */
function apiMessagesOf(body: unknown): string[] {
	let data = body;
	if (typeof data === 'string') {
		try {
			data = JSON.parse(data);
		} catch {
			return [];
		}
	}
	if (!data || typeof data !== 'object') return [];
	const { errors, error_description, error } = data as {
		errors?: unknown;
		error_description?: unknown;
		error?: unknown;
	};
	if (Array.isArray(errors)) {
		return errors
			.map((entry) =>
				entry && typeof entry === 'object' ? (entry as { message?: unknown }).message : undefined,
			)
			.filter((message): message is string => typeof message === 'string');
	}
	const oauthMessage = error_description ?? error;
	return typeof oauthMessage === 'string' ? [oauthMessage] : [];
}

/**
 * Why a request failed, declared the n8n way (n8n-workflow's Failure): n8n's durable poller backs
 * off by it (a rate limit until its reset, not the half hour it guesses for an unknown error), and
 * other parts of n8n may read it later. A sign-in the service refused, or a 401 or 403 that a new
 * token did not cure, needs the user; a refused parameter or a record not there, the node's
 * settings; the service down or not answering, a wait.
 */
export function declaredFailure(failure: RequestFailure, now: number): Failure {
	const { status } = failure;
	if (status === 429) {
		const resetsAtEpochMs = resetTimeOf(failure.headers, now);
		return resetsAtEpochMs === undefined
			? { cause: 'rate-limited' }
			: { cause: 'rate-limited', resetsAtEpochMs };
	}
	if (isTransientStatus(status)) return { cause: 'temporarily-unavailable' };
	if (failure.signIn !== undefined || status === 401 || status === 403)
		return { cause: 'credential-invalid' };
	return { cause: 'configuration-invalid' };
}

/**
 * `error`, declaring `failure` as plain data on its `failure`, where n8n reads it: n8n versions
 * whose errors do not take it as an option carry it too.
 */
export function declaring<E extends Error>(error: E, failure: Failure): E {
	return Object.assign(error, { failure });
}

export interface FailedRequest {
	method: string;
	path: string;
	/** What the request was about, for 404s: e.g. "end user 123". */
	subject?: string;
	itemIndex?: number;
	attempts: number;
	/** Set when the request could have taken effect and so was not repeated. */
	notRetriedPost?: boolean;
	/**
	 * Set when a rate limit resets after the request's giveUpAt, or a retry would end after it;
	 * `resetsAt` (ms since the epoch) when known from an earlier answer rather than this one's headers.
	 */
	outOfTime?: { resetsAt?: number };
}

/**
 * A request given up because the rate limit resets after the caller's time runs out (a poll's
 * budget), or a retry would end after it: the caller keeps what it read and goes on next time.
 */
export class OutOfTimeError extends NodeApiError {}

const POST_NOT_RETRIED =
	'It was not retried: repeating a POST could create a duplicate (or send a survey twice). Check in Wootric whether it took effect before running it again.';

/**
 * The error n8n shows: the status, the service's own message, what to do; never a token or a
 * secret.
 */
export function toNodeApiError(
	node: INode,
	request: FailedRequest,
	failure: RequestFailure,
): NodeApiError {
	const { status } = failure;
	const call = `${request.method} ${request.path}`;
	const said =
		failure.apiMessages.length > 0
			? asSentence(`Wootric says: ${failure.apiMessages.join('; ')}`)
			: undefined;
	const retried = request.attempts > 1 ? `Tried ${request.attempts} times.` : undefined;
	let message: string;
	let hint: string | undefined;

	if (failure.signIn) {
		message = failure.signIn;
	} else if (status === undefined) {
		message =
			failure.code === MALFORMED_JSON
				? `Wootric answered ${call} with malformed JSON`
				: failure.code === UNEXPECTED_ANSWER
					? `Wootric answered ${call} with ${failure.misfit}`
					: `Could not reach Wootric for ${call}: ${networkProblem(failure.code)}`;
	} else if (status >= 300 && status < 400) {
		message = `Wootric answered ${call} with ${status}, a redirect to ${redirectTarget(failure.headers.location)}: not followed`;
		hint =
			"The node sends its requests, and the token, to the credential's region or Base URL only. Check them: for a proxy, its address as it redirects to it.";
	} else if (status === 408) {
		message = `Wootric, or a proxy before it, gave up waiting for ${call} (408)`;
	} else if (status === 400) {
		message = `Wootric rejected ${call} as a bad request`;
	} else if (status === 401) {
		message = 'Wootric did not accept the credentials (401)';
		hint =
			'Check the email and password (or client ID and secret), the account token and the region of the Wootric API credential.';
	} else if (status === 404) {
		message = request.subject
			? `The ${request.subject} was not found in Wootric`
			: `Wootric found nothing at ${call}`;
	} else if (status === 423) {
		message = 'Wootric refused to change historical end-user properties (423)';
		hint =
			"This account has not enabled editing a response's or decline's end_user properties. Ask Wootric support to enable it, or leave the end-user properties out.";
	} else if (status === 429) {
		message = `Wootric's rate limit was reached for ${call}`;
		hint = request.outOfTime
			? 'It resets after the time n8n gives this poll; the next poll goes on from there.'
			: `It did not reset within the ${MAX_RATE_LIMIT_WAIT_SECONDS} s this node waits for it. Run the workflow again later.`;
	} else if (status >= 500) {
		message = `Wootric had a server error (${status}) on ${call}`;
		if (request.outOfTime)
			hint =
				'A retry would end after the time n8n gives this poll; the next poll goes on from there.';
	} else {
		message = `Wootric answered ${call} with status ${status}`;
	}
	const description = [said, hint, request.notRetriedPost ? POST_NOT_RETRIED : retried]
		.filter(Boolean)
		.join(' ');
	const httpCode = status === undefined ? undefined : String(status);
	const error = new (request.outOfTime ? OutOfTimeError : NodeApiError)(
		node,
		{ message, description, httpCode: httpCode ?? null } as JsonObject,
		{
			message,
			description: description || undefined,
			httpCode,
			itemIndex: request.itemIndex,
		},
	);
	const resetsAtEpochMs = request.outOfTime?.resetsAt;
	return declaring(
		error,
		resetsAtEpochMs === undefined
			? declaredFailure(failure, Date.now())
			: { cause: 'rate-limited', resetsAtEpochMs },
	);
}
