import { ApiError } from './errors';
import type { FakeClock } from './clock';

export interface RateLimit {
	limit: number;
	/** 60 like the service; tests use a shorter window to stay fast. */
	windowSeconds: number;
}

/**
 * Fixed-window limits per account and route, answering with the service's headers:
 * X-Rate-Limit-Limit, -Remaining, and -Reset as an absolute UNIX epoch in seconds.
 */
export class RateLimiter {
	private readonly limits = new Map<string, RateLimit>();
	private readonly windows = new Map<string, { resetAt: number; used: number }>();

	constructor(private readonly clock: FakeClock) {}

	/** `routeKey` is `METHOD /pattern`, e.g. `GET /v1/end_users`. */
	set(routeKey: string, limit: number, windowSeconds = 60): void {
		this.limits.set(routeKey, { limit, windowSeconds });
	}

	/**
	 * The limits API-FACTS documents (Rate limits): its one example, 100 a minute on GET
	 * /v1/end_users; which other endpoints are limited is unconfirmed. The sandbox runs with them.
	 */
	setDocumentedLimits(): void {
		this.set('GET /v1/end_users', 100, 60);
	}

	clear(): void {
		this.limits.clear();
		this.windows.clear();
	}

	/** Counts a request; returns the headers to send, or throws the 429. */
	consume(routeKey: string, accountToken: string): Record<string, string> {
		const rule = this.limits.get(routeKey);
		if (!rule) return {};
		const now = this.clock.nowMs() / 1000;
		const key = `${accountToken} ${routeKey}`;
		let window = this.windows.get(key);
		if (!window || window.resetAt <= now) {
			window = { resetAt: Math.ceil(now + rule.windowSeconds), used: 0 };
			this.windows.set(key, window);
		}
		const headers = (remaining: number) => ({
			'X-Rate-Limit-Limit': String(rule.limit),
			'X-Rate-Limit-Remaining': String(remaining),
			'X-Rate-Limit-Reset': String(window.resetAt),
		});
		if (window.used >= rule.limit) {
			throw new ApiError(
				429,
				'rate_limit_exceeded',
				'Rate limit exceeded, try again after the reset time',
				null,
				headers(0),
			);
		}
		window.used++;
		return headers(rule.limit - window.used);
	}
}
