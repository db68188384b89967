import { DEFAULT_RETRY_POLICY } from './defaults';
import { isTransientStatus, type RequestFailure } from './failures';
import { MAX_RATE_LIMIT_WAIT_SECONDS, resetTimeOf } from './rateLimits';

/** A request's failed tries so far, by what failed: each kind has its own limit. */
export interface Failures {
	readonly transient: number;
	readonly rateLimited: number;
	readonly renewedForUpload: boolean;
}

export const NO_FAILURES: Failures = Object.freeze({
	transient: 0,
	rateLimited: 0,
	renewedForUpload: false,
});

/** What of a request decides whether it may be sent again. */
export interface RetriedRequest {
	method: string;
	multipart?: unknown;
	/** Sent once, never again (see WootricRequest.once). */
	once?: boolean;
	/**
	 * No wait for a rate limit that ends after it, nor a retry that would (see
	 * WootricRequest.giveUpAt).
	 */
	giveUpAt?: number;
}

export type NextStep =
	/** Send it again after `afterMs`, with `failures` counted so far. */
	| { kind: 'retry'; afterMs: number; failures: Failures }
	/**
	 * Give up after `tries`; `notRetriedPost` when a POST the service may have acted on was not
	 * repeated; `outOfTime` when the rate limit resets after the request's giveUpAt, or a retry
	 * would end after it.
	 */
	| { kind: 'fail'; tries: number; notRetriedPost: boolean; outOfTime?: boolean };

/** The wait for a 429 that says nothing of its reset: the service's windows are a minute long. */
const RATE_LIMIT_WINDOW_MS = 60_000;

/**
 * What to do after a request's try failed with `failure`, at `now` (ms), having failed as
 * `failures` says before; the try took `triedMs`. A 429 is waited out, when it resets within
 * MAX_RATE_LIMIT_WAIT_SECONDS and before the request's giveUpAt. A failure that changed nothing
 * (network, 5xx, 408) is retried with a doubling backoff, when the backoff and a try as long as this
 * one end by the request's giveUpAt (a poll's time: n8n drops a poll that runs past it), except for
 * a POST, which may have taken effect (a duplicate record, a survey sent twice). A multipart upload
 * refused with 401 is sent once more: n8n renews the token but does not resend a multipart body,
 * and the refused upload was not processed. How many tries each kind gets, and the backoff:
 * DEFAULT_RETRY_POLICY.
 */
export function nextStep(
	failure: RequestFailure,
	failures: Failures,
	request: RetriedRequest,
	now: number,
	triedMs = 0,
): NextStep {
	const { attempts, firstBackoffMs, rateLimitedAttempts } = DEFAULT_RETRY_POLICY;
	const tries = failures.transient + failures.rateLimited + Number(failures.renewedForUpload) + 1;
	const transient = !failure.signIn && isTransientStatus(failure.status);
	const fail: NextStep = {
		kind: 'fail',
		tries,
		notRetriedPost: transient && request.method === 'POST',
	};
	if (request.once) return fail;
	if (
		failure.status === 401 &&
		request.multipart &&
		!failure.signIn &&
		!failures.renewedForUpload
	) {
		return { kind: 'retry', afterMs: 0, failures: { ...failures, renewedForUpload: true } };
	}
	if (failure.status === 429) {
		const waitMs = (resetTimeOf(failure.headers, now) ?? now + RATE_LIMIT_WINDOW_MS) - now;
		if (
			failures.rateLimited + 1 >= rateLimitedAttempts ||
			waitMs > MAX_RATE_LIMIT_WAIT_SECONDS * 1000
		)
			return fail;
		if (now + waitMs > (request.giveUpAt ?? Infinity)) return { ...fail, outOfTime: true };
		return {
			kind: 'retry',
			afterMs: Math.max(waitMs, 0),
			failures: { ...failures, rateLimited: failures.rateLimited + 1 },
		};
	}
	if (!transient || request.method === 'POST' || failures.transient + 1 >= attempts) return fail;
	const afterMs = firstBackoffMs * 2 ** failures.transient;
	if (now + afterMs + triedMs > (request.giveUpAt ?? Infinity)) return { ...fail, outOfTime: true };
	return {
		kind: 'retry',
		afterMs,
		failures: { ...failures, transient: failures.transient + 1 },
	};
}
