import { RateLimitGate } from '../../nodes/Wootric/transport/rateLimits';

const ENDPOINT = 'GET /v1/responses';

/**
 * The gate waits only for a reset the service told: a count of requests left without a readable
 * X-Rate-Limit-Reset blocks nothing and declares no reset (the service answers 429 when the limit
 * is spent, and that is waited out the usual way).
 */
describe('RateLimitGate, with a count of requests left and no readable reset', () => {
	const inASecond = () => Date.now() + 1_000;

	it.each([
		['missing', {}],
		['unreadable', { 'x-rate-limit-reset': 'soon' }],
		['zero', { 'x-rate-limit-reset': '0' }],
	])(
		'reset %s: a request that keeps requests for later goes, and names no reset',
		async (_, reset) => {
			for (const remaining of ['0', '1']) {
				const gate = new RateLimitGate();
				gate.observe(ENDPOINT, { 'x-rate-limit-remaining': remaining, ...reset });

				expect(await gate.waitFor(ENDPOINT, { giveUpAt: inASecond(), keep: 2 })).toBeUndefined();
				expect(await gate.waitFor(ENDPOINT)).toBeUndefined();
			}
		},
	);

	it('with a readable reset after the caller’s time, names that reset', async () => {
		const gate = new RateLimitGate();
		const reset = Math.ceil(Date.now() / 1000) + 60;
		gate.observe(ENDPOINT, {
			'x-rate-limit-remaining': '1',
			'x-rate-limit-reset': String(reset),
		});

		const resetsAt = await gate.waitFor(ENDPOINT, { giveUpAt: inASecond(), keep: 2 });
		expect(resetsAt).toBeGreaterThanOrEqual(reset * 1000);
		expect(Number.isFinite(resetsAt)).toBe(true);
	});
});
