import type { FakeRequest } from './http';

export type Fault =
	| { kind: 'status'; status: number; message?: string }
	| { kind: 'rateLimited'; resetInSeconds: number }
	| { kind: 'unauthorized' }
	| { kind: 'malformedJson' }
	/** Accepts the request and never answers (until the server closes). */
	| { kind: 'hang' }
	/** Closes the connection without an answer. */
	| { kind: 'dropConnection' };

export interface FaultRule {
	method?: string;
	/** A path, or a pattern for paths (e.g. /^\/v1\/end_users\/\d+\/responses$/). */
	path?: string | RegExp;
	/** Finer choice, e.g. `(request) => request.query.page === '7'`. */
	when?: (request: FakeRequest) => boolean;
	/** How many matching requests get the fault; then the rule is spent. */
	times?: number;
	fault: Fault;
}

/**
 * Scheduled faults: the next N requests matching a rule answer with its fault instead of normally.
 */
export class FaultInjector {
	private readonly rules: Array<FaultRule & { remaining: number }> = [];

	inject(rule: FaultRule): void {
		this.rules.push({ ...rule, remaining: rule.times ?? 1 });
	}

	clear(): void {
		this.rules.length = 0;
	}

	pending(): number {
		return this.rules.reduce((sum, rule) => sum + rule.remaining, 0);
	}

	/** The fault for this request, if a rule matches; consumes one use of that rule. */
	take(request: FakeRequest): Fault | undefined {
		const rule = this.rules.find(
			(candidate) => candidate.remaining > 0 && matches(candidate, request),
		);
		if (!rule) return undefined;
		rule.remaining--;
		return rule.fault;
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
