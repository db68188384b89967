/**
 * The transport's settings, frozen. Tests shorten the retry waits by replacing this module
 * (useFastRetries in test/support/wootric.ts); the bench reads lists with other pages in flight
 * (ListOptions).
 */

/** How one request is retried (see nextStep). */
export interface RetryPolicy {
	/**
	 * Tries of a request that failed in a way that changed nothing (network error, 5xx): GET, PUT,
	 * DELETE only.
	 */
	readonly attempts: number;
	/** The wait before the first retry of those; it doubles with each. */
	readonly firstBackoffMs: number;
	/** How long one try may take. */
	readonly timeoutMs: number;
	/** Tries of a request answered 429, whatever its method: the service did not act on it. */
	readonly rateLimitedAttempts: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({
	attempts: 4,
	firstBackoffMs: 500,
	timeoutMs: 60_000,
	rateLimitedAttempts: 6,
});

/**
 * How many pages of one list may be on their way at once. Over a real network a page costs a round
 * trip and, on n8n's request path, a new connection; pages asked for together cost about one
 * (docs/maintainers/performance.md: the curve this value was chosen from, which the bench draws by
 * passing other values).
 */
export const DEFAULT_PAGES_IN_FLIGHT = 4;
