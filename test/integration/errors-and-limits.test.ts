import type { INodeParameters } from 'n8n-workflow';

import { createEndUser, startFakeWootric, type FakeWootric } from '../fake';
import { runNode } from '../harness';
import {
	credentialsFor,
	notFoundItem,
	secretsOf,
	seedResponses,
	VERSION_BEFORE_LOCATORS,
} from '../support/wootric';

/** Response → Create: a score of 3 for `endUserId`, and `extra`. */
const createResponse = (endUserId: number, extra: INodeParameters = {}) => ({
	resource: 'response',
	operation: 'create',
	endUserId,
	score: 3,
	ipAddress: '203.0.113.9',
	originUrl: 'https://app.example.com/billing',
	...extra,
});

/** Rate limits, retries and errors of the transport, through n8n's engine against the fake. */
describe('rate limits, retries and errors', () => {
	let fake: FakeWootric;

	beforeEach(async () => (fake = await startFakeWootric()));
	afterEach(async () => await fake.close());

	const run = (parameters: INodeParameters, options: { continueOnFail?: boolean } = {}) =>
		runNode({
			nodeType: 'wootric',
			nodeTypeVersion: VERSION_BEFORE_LOCATORS,
			parameters,
			credentials: credentialsFor(fake),
			...options,
		});
	const listSegments = { resource: 'segment', operation: 'getAll' };

	it('on a 429 waits until X-Rate-Limit-Reset, then succeeds', async () => {
		fake.faults.inject({ path: '/v1/segments', fault: { kind: 'rateLimited', resetInSeconds: 2 } });
		const started = Date.now();

		const result = await run(listSegments);

		expect(result.error).toBeUndefined();
		expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
		expect(fake.requestsTo('/v1/segments').map((request) => request.status)).toEqual([429, 200]);
	});

	it('pauses when X-Rate-Limit-Remaining reaches 0, so the limit is never exceeded', async () => {
		seedResponses(fake, 120);
		fake.rateLimits.set('GET /v1/responses', 2, 2);

		const result = await run({
			resource: 'response',
			operation: 'getAll',
			scope: 'all',
			returnAll: true,
		});

		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(120);
		expect(fake.requestsTo('/v1/responses').map((request) => request.status)).toEqual([
			200, 200, 200,
		]);
	});

	it('gives up on a limit that does not reset in time, with a clear error that declares when it resets', async () => {
		fake.faults.inject({
			path: '/v1/segments',
			fault: { kind: 'rateLimited', resetInSeconds: 3600 },
		});
		const started = Date.now();

		const result = await run(listSegments);

		expect(result.error).toMatchObject({
			httpCode: '429',
			message: "Wootric's rate limit was reached for GET /v1/segments",
			failure: { cause: 'rate-limited', resetsAtEpochMs: expect.any(Number) },
		});
		// X-Rate-Limit-Reset, the service's UNIX second, on this machine's clock.
		const { resetsAtEpochMs } = (result.error as { failure: { resetsAtEpochMs: number } }).failure;
		expect(resetsAtEpochMs - started).toBeGreaterThan(3_598_000);
		expect(resetsAtEpochMs - Date.now()).toBeLessThan(3_602_000);
		expect(fake.requestsTo('/v1/segments')).toHaveLength(1);
	});

	it.each([
		['a server error on every try', { kind: 'status', status: 503 }, 'temporarily-unavailable'],
		['no answer on every try', { kind: 'dropConnection' }, 'temporarily-unavailable'],
		['malformed JSON on every try', { kind: 'malformedJson' }, 'temporarily-unavailable'],
		['a parameter refused (400)', { kind: 'status', status: 400 }, 'configuration-invalid'],
		['a 401 a new token does not cure', { kind: 'unauthorized' }, 'credential-invalid'],
		['a 403', { kind: 'status', status: 403 }, 'credential-invalid'],
	] as const)('declares why it failed, the n8n way: %s', async (_, fault, cause) => {
		fake.faults.inject({ path: '/v1/segments', times: 10, fault });

		const result = await run(listSegments);

		expect(result.error).toHaveProperty('failure', { cause });
	});

	it.each([
		['a 500', { kind: 'status', status: 500 } as const],
		['a dropped connection', { kind: 'dropConnection' } as const],
		['malformed JSON', { kind: 'malformedJson' } as const],
	])('retries a GET after %s', async (_, fault) => {
		fake.faults.inject({ path: '/v1/segments', times: 2, fault });

		const result = await run(listSegments);

		expect(result.error).toBeUndefined();
		expect(fake.requestsTo('/v1/segments')).toHaveLength(3);
	});

	it('stops retrying a GET after four attempts and says so', async () => {
		fake.faults.inject({
			path: '/v1/segments',
			times: 10,
			fault: { kind: 'status', status: 503, message: 'maintenance' },
		});

		const result = await run(listSegments);

		expect(result.error).toMatchObject({
			httpCode: '503',
			message: 'Wootric had a server error (503) on GET /v1/segments',
			description: 'Wootric says: maintenance. Tried 4 times.',
		});
		expect(fake.requestsTo('/v1/segments')).toHaveLength(4);
	});

	it.each([
		['a 500', { kind: 'status', status: 500 } as const, '500'],
		['a dropped connection', { kind: 'dropConnection' } as const, undefined],
	])('never repeats a POST after %s, and says why', async (_, fault, httpCode) => {
		const user = createEndUser(fake.account, fake.store, 'ada@example.com');
		fake.faults.inject({ method: 'POST', path: `/v1/end_users/${user.id}/responses`, fault });

		const result = await run(createResponse(user.id));

		expect(fake.requestsTo(`/v1/end_users/${user.id}/responses`, 'POST')).toHaveLength(1);
		expect(result.error?.description).toContain(
			'It was not retried: repeating a POST could create a duplicate',
		);
		expect((result.error as { httpCode?: string | null }).httpCode ?? undefined).toBe(httpCode);
	});

	it('sends a create form-encoded in the service’s notation', async () => {
		const user = createEndUser(fake.account, fake.store, 'ada@example.com');

		const result = await run(
			createResponse(user.id, {
				additionalFields: { text: 'Too slow & pricey', createdAt: '2026-01-02T03:04:05Z' },
			}),
		);

		expect(result.error).toBeUndefined();
		const [request] = fake.requestsTo(`/v1/end_users/${user.id}/responses`);
		expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
		expect(request.rawBody).toBe(
			'score=3&ip_address=203.0.113.9&origin_url=https%3A%2F%2Fapp.example.com%2Fbilling&text=Too%20slow%20%26%20pricey&created_at=1767323045',
		);
		expect(result.items[0].json).toMatchObject({
			end_user_id: user.id,
			score: 3,
			text: 'Too slow & pricey',
		});
	});

	it('names the missing record on a 404, with the service’s message', async () => {
		const result = await run(createResponse(999999));

		expect(result.error).toMatchObject({
			httpCode: '404',
			message: 'The end user 999999 was not found in Wootric',
			description: 'Wootric says: The record could not be found.',
			failure: { cause: 'configuration-invalid' },
		});
	});

	it('keeps the status and the message on each item with Continue On Fail', async () => {
		const result = await run(createResponse(999999), { continueOnFail: true });

		expect(result.error).toBeUndefined();
		expect(result.items).toEqual([notFoundItem('end user 999999', 0)]);
	});

	it('shows no token, password or secret in outputs or errors', async () => {
		const user = createEndUser(fake.account, fake.store, 'ada@example.com');
		fake.faults.inject({ method: 'POST', fault: { kind: 'status', status: 500 } });
		const results = [
			await run(listSegments),
			await run(createResponse(user.id)),
			await run(createResponse(999999), { continueOnFail: true }),
			await runNode({
				nodeType: 'wootric',
				nodeTypeVersion: VERSION_BEFORE_LOCATORS,
				parameters: listSegments,
				credentials: credentialsFor(fake, { password: 'not-the-password' }),
			}),
		];
		fake.store.expireAccessTokens();
		results.push(await run(listSegments));

		const shown = JSON.stringify(
			results.map((result) => ({
				items: result.items,
				error: result.error,
				message: result.error?.message,
				description: result.error?.description,
			})),
		);
		const secrets = [...secretsOf(fake), 'not-the-password'];
		expect(secrets.length).toBeGreaterThan(5);
		for (const secret of secrets) expect(shown).not.toContain(secret);
	});
});

describe('dates without an offset', () => {
	let fake: FakeWootric;

	beforeEach(async () => (fake = await startFakeWootric()));
	afterEach(async () => await fake.close());

	it.each([
		['Europe/Berlin', '2026-07-01T12:00:00', Date.UTC(2026, 6, 1, 10) / 1000],
		['America/Los_Angeles', '2026-01-15 08:30', Date.UTC(2026, 0, 15, 16, 30) / 1000],
		['Europe/Berlin', '2026-07-01T12:00:00Z', Date.UTC(2026, 6, 1, 12) / 1000],
	])('are read in the workflow’s time zone (%s): %s', async (timezone, createdAt, expected) => {
		const user = createEndUser(fake.account, fake.store, 'ada@example.com');

		await runNode({
			nodeType: 'wootric',
			nodeTypeVersion: VERSION_BEFORE_LOCATORS,
			parameters: createResponse(user.id, { additionalFields: { createdAt } }),
			credentials: credentialsFor(fake),
			timezone,
		});

		expect(fake.requestsTo(`/v1/end_users/${user.id}/responses`)[0].body.created_at).toBe(
			String(expected),
		);
	});
});
