import type { FakeRequest } from './http';

export type Fault =
	| { kind: 'status'; status: number; message?: string }
	| { kind: 'rateLimited'; resetInSeconds: number }
	| { kind: 'unauthorized' }
	| { kind: 'malformedJson' }
	/** Answers 200 with this body, whatever the request: `null`, or nothing at all. */
	| { kind: 'answer'; body: string }
	/** Accepts the request and never answers (until the server closes). */
	| { kind: 'hang' }
	/** Answers as it would have, once `released` settles: a slow answer whose end the test decides. */
	| { kind: 'held'; released: Promise<unknown> }
	/** Closes the connection without an answer. */
	| { kind: 'dropConnection' }
	/**
	 * Answers a redirect (301, 302, 303, 307 or 308) to `location`: a proxy, a load balancer or a
	 * moved host, elsewhere on this host or on another.
	 */
	| { kind: 'redirect'; status: 301 | 302 | 303 | 307 | 308; location: string }
	/** Answers as it would have, its JSON body passed through `mangle` first: an answer malformed. */
	| { kind: 'mangle'; mangle: (body: unknown) => unknown };

/** One rule of a FaultSchedule: the next `times` (default 1) subjects it matches get `fault`. */
export interface ScheduledFault<F> {
	times?: number;
	fault: F;
}

export interface FaultRule extends ScheduledFault<Fault> {
	method?: string;
	/** A path, or a pattern for paths (e.g. /^\/v1\/end_users\/\d+\/responses$/). */
	path?: string | RegExp;
	/** Finer choice, e.g. `(request) => request.query.page === '7'`. */
	when?: (request: FakeRequest) => boolean;
}

/**
 * Scheduled faults: the next N subjects (API requests, outgoing webhooks) matching a rule get its
 * fault instead of the normal treatment; rules are taken in the order injected.
 */
export class FaultSchedule<Rule extends ScheduledFault<unknown>, Subject> {
	private readonly rules: Array<Rule & { remaining: number }> = [];

	constructor(private readonly matches: (rule: Rule, subject: Subject) => boolean) {}

	inject(rule: Rule): void {
		this.rules.push({ ...rule, remaining: rule.times ?? 1 });
	}

	clear(): void {
		this.rules.length = 0;
	}

	pending(): number {
		return this.rules.reduce((sum, rule) => sum + rule.remaining, 0);
	}

	/** The fault for this subject, if a rule matches; consumes one use of that rule. */
	take(subject: Subject): Rule['fault'] | undefined {
		const rule = this.rules.find(
			(candidate) => candidate.remaining > 0 && this.matches(candidate, subject),
		);
		if (!rule) return undefined;
		rule.remaining--;
		return rule.fault;
	}
}

/** The API's faults: the next N requests matching a rule answer with its fault. */
export class FaultInjector extends FaultSchedule<FaultRule, FakeRequest> {
	constructor() {
		super(matches);
	}
}

function matches(rule: FaultRule, request: FakeRequest): boolean {
	if (rule.method && rule.method !== request.method) return false;
	if (typeof rule.path === 'string' && rule.path !== request.path) return false;
	// search(), unlike test(), ignores lastIndex: a /g pattern matches every request, not every other
	// one.
	if (rule.path instanceof RegExp && request.path.search(rule.path) === -1) return false;
	return rule.when ? rule.when(request) : true;
}
