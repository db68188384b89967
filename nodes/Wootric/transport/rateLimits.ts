import { sleep } from 'n8n-workflow';

/**
 * The longest this node waits for a rate limit to reset (the service's windows are a minute long).
 */
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

/**
 * `GET /v1/end_users/123/responses` → `GET /v1/end_users/:id/responses`: limits are per endpoint.
 */
export function endpointKey(method: string, path: string): string {
	const segments = path
		.split('/')
		.map((segment) => (segment === '' || PATH_WORDS.has(segment) ? segment : ':id'));
	return `${method} ${segments.join('/')}`;
}

/** What one endpoint's limit said last, and the requests to it on their way. */
interface EndpointState {
	/** The fewest requests left that the answers of the current window reported. */
	remaining?: number;
	/** The current window's X-Rate-Limit-Reset (as sent). */
	window?: string;
	/** Set when the limit ran out (X-Rate-Limit-Remaining: 0): when it resets, in ms. */
	blockedUntil?: number;
	inFlight: number;
}

/**
 * Remembers, per endpoint, what its rate limit said, so the next request waits for the reset
 * instead of earning a 429, and requests sent ahead of need (list pages) go out only while the
 * limit leaves room for them. X-Rate-Limit-Reset is an absolute UNIX time in seconds.
 */
export class RateLimitGate {
	private readonly endpoints = new Map<string, EndpointState>();

	private stateOf(endpoint: string): EndpointState {
		let state = this.endpoints.get(endpoint);
		if (!state) this.endpoints.set(endpoint, (state = { inFlight: 0 }));
		return state;
	}

	/** Runs one request to `endpoint`, counted as on its way until it settles. */
	async sending<T>(endpoint: string, send: () => Promise<T>): Promise<T> {
		const state = this.stateOf(endpoint);
		state.inFlight++;
		try {
			return await send();
		} finally {
			state.inFlight--;
		}
	}

	observe(endpoint: string, headers: Record<string, string>): void {
		const state = this.stateOf(endpoint);
		const resetAt = resetTimeOf(headers, Date.now());
		const remaining = Number(headers['x-rate-limit-remaining'] ?? NaN);
		if (remaining === 0 && resetAt !== undefined) state.blockedUntil = resetAt;
		if (!Number.isFinite(remaining)) return;
		// Answers of one window can arrive out of order: the lowest count is the latest.
		const window = headers['x-rate-limit-reset'];
		state.remaining =
			window === state.window && state.remaining !== undefined
				? Math.min(state.remaining, remaining)
				: remaining;
		state.window = window;
	}

	/**
	 * Whether one more request can go out now, ahead of need, without running into the limit: every
	 * request on its way may not be counted in the last remaining count yet, so it is taken off.
	 */
	hasRoomForAnother(endpoint: string): boolean {
		const state = this.stateOf(endpoint);
		return state.blockedUntil === undefined && (state.remaining ?? Infinity) - state.inFlight >= 1;
	}

	async waitFor(endpoint: string): Promise<void> {
		const state = this.stateOf(endpoint);
		const until = state.blockedUntil;
		if (until === undefined) return;
		state.blockedUntil = undefined;
		const wait = until - Date.now();
		if (wait > 0) await sleep(Math.min(wait, MAX_RATE_LIMIT_WAIT_SECONDS * 1000));
	}
}

/** The service's time when it answered, in UNIX seconds (its Date header), if it sent one. */
export function serviceSecondsOf(headers: Record<string, string>): number | undefined {
	const milliseconds = Date.parse(headers.date ?? '');
	return Number.isFinite(milliseconds) ? Math.floor(milliseconds / 1000) : undefined;
}

/**
 * Milliseconds since the epoch (this machine's clock, which reads `now`) when the limit resets.
 * X-Rate-Limit-Reset is on the service's clock: measured from its Date header where it sent one, so
 * a clock that is off here waits neither too long nor too little; a little slack covers the Date
 * header's whole seconds.
 */
export function resetTimeOf(headers: Record<string, string>, now: number): number | undefined {
	const reset = Number(headers['x-rate-limit-reset']);
	if (!Number.isFinite(reset) || reset <= 0) return undefined;
	const answeredAt = serviceSecondsOf(headers);
	return (answeredAt === undefined ? reset * 1000 : now + (reset - answeredAt) * 1000) + 250;
}

const gates = new WeakMap<object, RateLimitGate>();

/** One gate per execution context, so the items and pages of one run share what they learnt. */
export function rateLimitGateOf(context: object): RateLimitGate {
	let gate = gates.get(context);
	if (!gate) gates.set(context, (gate = new RateLimitGate()));
	return gate;
}
