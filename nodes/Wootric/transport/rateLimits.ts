import { sleep } from 'n8n-workflow';

/**
 * The longest this node waits for a rate limit to reset (the service's windows are a minute long).
 */
export const MAX_RATE_LIMIT_WAIT_SECONDS = 90;

/**
 * What the value segments of a path template match: `:id` a whole number (the API's ids), `:key`
 * any value (an id, an email, an external id or a phone number, URL-encoded).
 */
const WHOLE_NUMBER = /^\d+$/;
const VALUES = new Map([
	[':id', WHOLE_NUMBER],
	[':key', /^./],
]);

/**
 * Every path of the API (spec, Endpoints), and the v2 email statistics the spec lacks (API-FACTS).
 * A value is `:key` only where the API takes an end user by email or external id (the lookup flags,
 * on the by-id path) or by phone number: an external id can be any word (`settings`, `export`), so
 * there only the template tells a value from a word.
 */
const API_PATHS = [
	'/v1/end_users',
	'/v1/end_users/:key',
	'/v1/end_users/phone_number/:key',
	'/v1/end_users/:id/export',
	'/v1/end_users/:id/settings',
	'/v1/end_users/:id/responses',
	'/v1/end_users/:id/responses/promoters',
	'/v1/end_users/:id/responses/passives',
	'/v1/end_users/:id/responses/detractors',
	'/v1/end_users/:id/responses/:id',
	'/v1/end_users/:id/declines',
	'/v1/end_users/:id/declines/:id',
	'/v1/responses',
	'/v1/responses/:id',
	'/v1/declines',
	'/v1/declines/:id',
	'/v1/nps_summary',
	'/v1/segments',
	'/v1/survey_templates',
	'/v1/email_survey',
	'/v1/email_survey_csv',
	'/v2/email_stats',
	'/v2/email_stats/sources',
	'/v2/email_stats/bounce_report',
];

/**
 * The templates' segments. No path fits two: a word is no whole number, and `/v1/end_users/:key`
 * has no other template of its length to overlap.
 */
const TEMPLATES = API_PATHS.map((template) => template.split('/'));

/**
 * The rate limit's key of a request: its method and its path's template. `GET /v1/end_users/123`,
 * `/v1/end_users/ada%40example.com` and `/v1/end_users/crm-7` (by email, by external id) are all
 * `GET /v1/end_users/:key`. A path no template fits (an endpoint the API gained: a new
 * version of a path, a new resource or a new word under a known one) keys as it is, its whole numbers as `:id`: so it shares
 * no key with an endpoint of the list, nor with another new one, and its ids share one. The one
 * place a new word would pass for a value is right after /v1/end_users/, where an external id can
 * be any word: an endpoint the API gains there must be listed.
 */
export function endpointKey(method: string, path: string): string {
	const segments = path.split('/');
	const template = TEMPLATES.find(
		(candidate) =>
			candidate.length === segments.length &&
			candidate.every(
				(part, index) => part === segments[index] || VALUES.get(part)?.test(segments[index]),
			),
	);
	const key = template ?? segments.map((segment) => (WHOLE_NUMBER.test(segment) ? ':id' : segment));
	return `${method} ${key.join('/')}`;
}

/** What one endpoint's limit said last, and the requests to it on their way. */
interface EndpointState {
	/** The fewest requests left that the answers of the current window reported. */
	remaining?: number;
	/** The current window's X-Rate-Limit-Reset (as sent). */
	window?: string;
	/** Set when the limit ran out (X-Rate-Limit-Remaining: 0): when it resets, in ms. */
	blockedUntil?: number;
	/** When the current window resets, in ms (this machine's clock). */
	resetsAt?: number;
	inFlight: number;
}

/**
 * Remembers, per endpoint, what its rate limit said, so the next request waits for the reset
 * instead of earning a 429, and requests sent ahead of need (list pages) go out only while the
 * limit leaves room for them. X-Rate-Limit-Reset is an absolute UNIX time in seconds.
 */
export class RateLimitGate {
	/**
	 * endpointKey → its state. Invariant: `inFlight` counts this gate's requests to the endpoint
	 * that were sent and have not settled; `remaining` is the lowest count the answers of `window`
	 * reported, and `resetsAt` when that window ends; `blockedUntil` is set from an answer that said
	 * none remain, until a request waited for it. It is a hint, never the decision: the service counts, and what other executions or
	 * processes spend shows in its counts or as a 429, which nextStep waits out; nothing is kept
	 * across a restart. Bound: one entry per endpoint the context called, never removed: at most 32
	 * (API_PATHS with the methods the API has for them), a few numbers each; a path outside
	 * API_PATHS adds one per key.
	 */
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
		state.resetsAt = resetAt;
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
	hasRoomForAnother(endpoint: string, keep = 0): boolean {
		const state = this.stateOf(endpoint);
		return (
			state.blockedUntil === undefined && (state.remaining ?? Infinity) - state.inFlight - keep >= 1
		);
	}

	/**
	 * Before a request of the endpoint (counted in `inFlight`): waits until the limit resets when an
	 * answer said none remain. Unless the reset comes after `giveUpAt`: then it does not wait, keeps
	 * the block for later requests, and returns the reset (ms since the epoch); so too when sending
	 * would leave fewer than `keep` requests of the window for later ones.
	 */
	async waitFor(
		endpoint: string,
		{ giveUpAt = Infinity, keep = 0 }: { giveUpAt?: number; keep?: number } = {},
	): Promise<number | undefined> {
		const state = this.stateOf(endpoint);
		const until = state.blockedUntil;
		if (until === undefined) {
			// A count without a readable reset tells no time to wait for: the request goes, and the
			// service answers 429 if the limit is spent (nextStep).
			const { resetsAt } = state;
			const left = (state.remaining ?? Infinity) - state.inFlight;
			return resetsAt !== undefined && left < keep && resetsAt > giveUpAt ? resetsAt : undefined;
		}
		if (until > giveUpAt) return until;
		state.blockedUntil = undefined;
		const wait = until - Date.now();
		if (wait > 0) await sleep(Math.min(wait, MAX_RATE_LIMIT_WAIT_SECONDS * 1000));
		return undefined;
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

/**
 * Execution context → its gate. Invariant: every request of a context (n8n's `this` of one node
 * run: an execution of the node, a poll, a dropdown's load) goes through its one gate, so the items
 * and pages of a run share what they learnt. Not shared between runs or processes, and nothing
 * outlives a run: the service's limit is the authority (see RateLimitGate.endpoints). Bound: one
 * gate per context n8n still holds, freed with it (a WeakMap); each gate as RateLimitGate.endpoints
 * says.
 */
const gates = new WeakMap<object, RateLimitGate>();

/** The context's gate, made on its first request. */
export function rateLimitGateOf(context: object): RateLimitGate {
	let gate = gates.get(context);
	if (!gate) gates.set(context, (gate = new RateLimitGate()));
	return gate;
}
