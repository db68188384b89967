import type { RequestFailure } from '../../nodes/Wootric/transport/failures';
import {
	nextStep,
	NO_FAILURES,
	type Failures,
	type RetriedRequest,
} from '../../nodes/Wootric/transport/retries';

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);

const status = (
	code: number | undefined,
	headers: Record<string, string> = {},
): RequestFailure => ({ status: code, headers, apiMessages: [] });
const network: RequestFailure = {
	status: undefined,
	headers: {},
	apiMessages: [],
	code: 'ECONNRESET',
};
/**
 * 429 whose limit resets `inSeconds` from NOW, as an absolute UNIX time (no Date header: read on
 * this clock).
 */
const rateLimited = (inSeconds: number) =>
	status(429, { 'x-rate-limit-reset': String(NOW / 1000 + inSeconds) });
const get: RetriedRequest = { method: 'GET' };
const post: RetriedRequest = { method: 'POST' };
const upload: RetriedRequest = { method: 'POST', multipart: new FormData() };
const failed = (counts: Partial<Failures>): Failures => ({ ...NO_FAILURES, ...counts });

describe('nextStep: what a request does after a failed try', () => {
	describe('429: waited out while the limit resets within 90 s, whatever the method', () => {
		it.each([['GET'], ['POST'], ['PUT'], ['DELETE']])(
			'%s: waits until the reset (and 250 ms), counted as rate limited',
			(method) => {
				expect(nextStep(rateLimited(10), NO_FAILURES, { method }, NOW)).toEqual({
					kind: 'retry',
					afterMs: 10_250,
					failures: failed({ rateLimited: 1 }),
				});
			},
		);

		/** The service's clock, an hour behind the host's. */
		const serviceNow = NOW / 1000 - 3600;
		it.each([
			[
				'measures the reset from the Date header where the answer has one (the service clock may be off)',
				status(429, {
					'x-rate-limit-reset': String(serviceNow + 5),
					date: new Date(serviceNow * 1000).toUTCString(),
				}),
				5_250,
			],
			[
				'waits a minute, the length of a window, when the answer says nothing of the reset',
				status(429),
				60_000,
			],
			['sends again at once when the reset has passed', rateLimited(-5), 0],
		])('%s', (_, failure, afterMs) => {
			expect(nextStep(failure, NO_FAILURES, get, NOW)).toMatchObject({
				kind: 'retry',
				afterMs,
			});
		});

		it('fails when the limit resets later than 90 s from now', () => {
			expect(nextStep(rateLimited(91), NO_FAILURES, get, NOW)).toEqual({
				kind: 'fail',
				tries: 1,
				notRetriedPost: false,
			});
		});

		it("fails, out of time, when the limit resets after the request's giveUpAt (a poll's time); waits when before", () => {
			const within = { ...get, giveUpAt: NOW + 20_000 };

			expect(nextStep(rateLimited(30), NO_FAILURES, within, NOW)).toEqual({
				kind: 'fail',
				tries: 1,
				notRetriedPost: false,
				outOfTime: true,
			});
			expect(nextStep(rateLimited(10), NO_FAILURES, within, NOW)).toMatchObject({
				kind: 'retry',
				afterMs: 10_000 + 250,
			});
		});

		it('fails at the sixth 429, counting every try made', () => {
			expect(nextStep(rateLimited(1), failed({ rateLimited: 4 }), get, NOW)).toMatchObject({
				kind: 'retry',
				failures: failed({ rateLimited: 5 }),
			});
			expect(nextStep(rateLimited(1), failed({ rateLimited: 5, transient: 1 }), get, NOW)).toEqual({
				kind: 'fail',
				tries: 7,
				notRetriedPost: false,
			});
		});
	});

	describe('a failure that changed nothing (5xx, 408, network, malformed JSON): retried with backoff, except a POST', () => {
		it("is not retried when the backoff and a try as long as the failed one end after the request's giveUpAt (a poll's time): it fails out of time", () => {
			const within = { method: 'GET', giveUpAt: NOW + 1_500 };
			expect(nextStep(status(503), NO_FAILURES, within, NOW, 1_000)).toEqual({
				kind: 'retry',
				afterMs: 500,
				failures: failed({ transient: 1 }),
			});
			expect(nextStep(status(503), failed({ transient: 1 }), within, NOW, 600)).toEqual({
				kind: 'fail',
				tries: 2,
				notRetriedPost: false,
				outOfTime: true,
			});
		});

		it.each([
			['GET', '500', status(500)],
			['PUT', '503', status(503)],
			['GET', '408', status(408)],
			['DELETE', 'a dropped connection', network],
			['GET', 'malformed JSON', { ...network, code: 'MALFORMED_JSON' }],
		])(
			'%s after %s: waits 500, 1000, 2000 ms, then fails at the fourth try',
			(method, _, failure) => {
				const request = { method };
				expect(
					[0, 1, 2].map((transient) => nextStep(failure, failed({ transient }), request, NOW)),
				).toEqual([
					{ kind: 'retry', afterMs: 500, failures: failed({ transient: 1 }) },
					{ kind: 'retry', afterMs: 1000, failures: failed({ transient: 2 }) },
					{ kind: 'retry', afterMs: 2000, failures: failed({ transient: 3 }) },
				]);
				expect(nextStep(failure, failed({ transient: 3 }), request, NOW)).toEqual({
					kind: 'fail',
					tries: 4,
					notRetriedPost: false,
				});
			},
		);

		it.each([
			['500', status(500)],
			['502', status(502)],
			['408', status(408)],
			['a dropped connection', network],
		])('a POST after %s fails at once, saying it was not repeated', (_, failure) => {
			expect(nextStep(failure, NO_FAILURES, post, NOW)).toEqual({
				kind: 'fail',
				tries: 1,
				notRetriedPost: true,
			});
		});
	});

	describe('401 of a multipart upload: sent once more, as n8n renews the token but does not resend the body', () => {
		it('resends it at once, the first time', () => {
			expect(nextStep(status(401), NO_FAILURES, upload, NOW)).toEqual({
				kind: 'retry',
				afterMs: 0,
				failures: failed({ renewedForUpload: true }),
			});
		});

		it('fails the second time', () => {
			expect(nextStep(status(401), failed({ renewedForUpload: true }), upload, NOW)).toEqual({
				kind: 'fail',
				tries: 2,
				notRetriedPost: false,
			});
		});

		it('fails a 401 of any other request (n8n has already resent it with a renewed token)', () => {
			expect(nextStep(status(401), NO_FAILURES, post, NOW)).toEqual({
				kind: 'fail',
				tries: 1,
				notRetriedPost: false,
			});
		});
	});

	describe('a failed sign-in: never retried here, as it is not the request that failed', () => {
		it.each([
			['refused, of an upload', status(401), upload],
			['unreachable, of a GET', network, get],
			['unreachable, of a POST', network, post],
		])('%s', (_, failure, request) => {
			expect(
				nextStep({ ...failure, signIn: 'Wootric refused the sign-in' }, NO_FAILURES, request, NOW),
			).toEqual({ kind: 'fail', tries: 1, notRetriedPost: false });
		});
	});

	describe('other answers fail at once', () => {
		it.each([[302], [307], [400], [404], [422], [423]])('%s', (code) => {
			expect(nextStep(status(code), NO_FAILURES, get, NOW)).toEqual({
				kind: 'fail',
				tries: 1,
				notRetriedPost: false,
			});
		});
	});

	describe('a request sent once (a page asked for ahead) fails at its first failure', () => {
		it.each([
			['429', rateLimited(1), get, false],
			['500 of a GET', status(500), get, false],
			['a network error of a POST', network, post, true],
			['401 of an upload', status(401), upload, false],
		])('%s', (_, failure, request, notRetriedPost) => {
			expect(nextStep(failure, NO_FAILURES, { ...request, once: true }, NOW)).toEqual({
				kind: 'fail',
				tries: 1,
				notRetriedPost,
			});
		});
	});
});
