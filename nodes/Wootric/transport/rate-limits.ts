import { sleep } from 'n8n-workflow';

/** The longest this node waits for a rate limit to reset (the service's windows are a minute long). */
export const MAX_RATE_LIMIT_WAIT_SECONDS = 90;

const PATH_WORDS = new Set([
	'v1',
	'end_users',
	'responses',
	'declines',
	'settings',
	'export',
	'promoters',
	'passives',
	'detractors',
	'phone_number',
	'nps_summary',
	'segments',
	'survey_templates',
	'email_survey',
	'email_survey_csv',
]);

/** `GET /v1/end_users/123/responses` → `GET /v1/end_users/:id/responses`: limits are per endpoint. */
export function endpointKey(method: string, path: string): string {
	const segments = path.split('/').map((segment) => (segment === '' || PATH_WORDS.has(segment) ? segment : ':id'));
	return `${method} ${segments.join('/')}`;
}

/**
 * Remembers, per endpoint, a limit that ran out (X-Rate-Limit-Remaining: 0) until its reset, so the next
 * request waits instead of earning a 429. X-Rate-Limit-Reset is an absolute UNIX time in seconds.
 */
class RateLimitGate {
	private readonly blockedUntil = new Map<string, number>();
	private readonly lastRemaining = new Map<string, number>();

	observe(endpoint: string, headers: Record<string, string>): void {
		const resetAt = resetTimeOf(headers);
		if (headers['x-rate-limit-remaining'] === '0' && resetAt !== undefined) this.blockedUntil.set(endpoint, resetAt);
		const remaining = Number(headers['x-rate-limit-remaining'] ?? NaN);
		if (Number.isFinite(remaining)) this.lastRemaining.set(endpoint, remaining);
	}

	/** Whether a second request can go out while one is on its way without the pair running into the limit. */
	allowsTwoAtOnce(endpoint: string): boolean {
		return !this.blockedUntil.has(endpoint) && (this.lastRemaining.get(endpoint) ?? Infinity) >= 2;
	}

	async waitFor(endpoint: string): Promise<void> {
		const until = this.blockedUntil.get(endpoint);
		if (until === undefined) return;
		this.blockedUntil.delete(endpoint);
		const wait = until - Date.now();
		if (wait > 0) await sleep(Math.min(wait, MAX_RATE_LIMIT_WAIT_SECONDS * 1000));
	}
}

/** Milliseconds since the epoch when the limit resets, with a little slack for clock skew. */
export function resetTimeOf(headers: Record<string, string>): number | undefined {
	const reset = Number(headers['x-rate-limit-reset']);
	return Number.isFinite(reset) && reset > 0 ? reset * 1000 + 250 : undefined;
}

const gates = new WeakMap<object, RateLimitGate>();

/** One gate per execution context, so the items and pages of one run share what they learnt. */
export function rateLimitGateOf(context: object): RateLimitGate {
	let gate = gates.get(context);
	if (!gate) gates.set(context, (gate = new RateLimitGate()));
	return gate;
}
