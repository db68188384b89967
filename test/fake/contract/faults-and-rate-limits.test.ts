import { createEndUser } from '../index';
import type { RawReply } from './client';
import { errorList, passwordGrantForm, useFakeApi } from './setup';

const T = 1_700_000_000;

const RATE_LIMITED = errorList(
	'rate_limit_exceeded',
	'Rate limit exceeded, try again after the reset time',
	null,
);

const { fake, api } = useFakeApi();

/**
 * A GET through the global fetch, for answers the raw client cannot take (bad JSON, no answer at
 * all).
 */
async function fetchRaw(path: string, signal?: AbortSignal): Promise<Response> {
	return fetch(`${fake().baseUrl}${path}`, {
		headers: { authorization: `Bearer ${await api().token()}` },
		signal,
	});
}

const limitHeaders = (reply: RawReply) => ({
	limit: reply.headers['x-rate-limit-limit'],
	remaining: reply.headers['x-rate-limit-remaining'],
	reset: reply.headers['x-rate-limit-reset'],
});
const NO_LIMIT_HEADERS = { limit: undefined, remaining: undefined, reset: undefined };

describe('fault injection', () => {
	it('answers a 500 once by default, with an error_list body, then normally again', async () => {
		fake().faults.inject({ path: '/v1/end_users', fault: { kind: 'status', status: 500 } });
		expect(fake().faults.pending()).toBe(1);
		const faulted = await api().get('/v1/end_users');
		expect([faulted.status, faulted.body]).toEqual([
			500,
			errorList('server_error', 'Something went wrong', null),
		]);
		expect(fake().faults.pending()).toBe(0);
		expect((await api().get('/v1/end_users')).status).toBe(200);
	});

	it('answers any status with the message given', async () => {
		fake().faults.inject({
			path: '/v1/segments',
			fault: { kind: 'status', status: 503, message: 'Down for maintenance' },
		});
		const reply = await api().get('/v1/segments');
		expect([reply.status, reply.body]).toEqual([
			503,
			errorList('server_error', 'Down for maintenance', null),
		]);
	});

	it('counts `times`, and takes rules in the order injected', async () => {
		fake().faults.inject({
			path: '/v1/end_users',
			times: 2,
			fault: { kind: 'status', status: 500 },
		});
		fake().faults.inject({ path: '/v1/end_users', fault: { kind: 'status', status: 502 } });
		expect(fake().faults.pending()).toBe(3);
		const statuses: number[] = [];
		for (let attempt = 0; attempt < 4; attempt++)
			statuses.push((await api().get('/v1/end_users')).status);
		expect(statuses).toEqual([500, 500, 502, 200]);
	});

	it('forgets every rule on clear()', async () => {
		fake().faults.inject({
			path: '/v1/end_users',
			times: 5,
			fault: { kind: 'status', status: 500 },
		});
		fake().faults.clear();
		expect(fake().faults.pending()).toBe(0);
		expect((await api().get('/v1/end_users')).status).toBe(200);
	});

	it('answers 429 with X-Rate-Limit-* headers whose Reset is an absolute epoch second about now + N', async () => {
		fake().faults.inject({
			path: '/v1/end_users',
			fault: { kind: 'rateLimited', resetInSeconds: 30 },
		});
		fake().clock.set(T);
		const reply = await api().get('/v1/end_users');
		expect([reply.status, reply.body]).toEqual([
			429,
			errorList('rate_limit_exceeded', 'Rate limit exceeded', null),
		]);
		const headers = limitHeaders(reply);
		expect([headers.limit, headers.remaining]).toEqual(['100', '0']);
		expect(Number(headers.reset)).toBeGreaterThanOrEqual(T + 30);
		expect(Number(headers.reset)).toBeLessThanOrEqual(T + 31);
	});

	it('answers 401 with an error_list body even to a valid token', async () => {
		await api().token();
		fake().faults.inject({ path: '/v1/end_users', fault: { kind: 'unauthorized' } });
		const reply = await api().get('/v1/end_users');
		expect([reply.status, reply.body]).toEqual([
			401,
			errorList('unauthorized', 'The access token is invalid', null),
		]);
		expect((await api().get('/v1/end_users')).status).toBe(200);
	});

	it('answers 200 with a body that is not JSON', async () => {
		fake().faults.inject({ path: '/v1/responses', fault: { kind: 'malformedJson' } });
		const reply = await fetchRaw('/v1/responses');
		expect(reply.status).toBe(200);
		expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
		const text = await reply.text();
		expect(() => JSON.parse(text)).toThrow(SyntaxError);
		expect(
			fake()
				.requestsTo('/v1/responses')
				.map((request) => request.status),
		).toEqual([200]);
	});

	it('never answers a hanging request (the client times out), and still serves the next one', async () => {
		fake().faults.inject({ path: '/v1/end_users', fault: { kind: 'hang' } });
		const started = Date.now();
		await expect(fetchRaw('/v1/end_users', AbortSignal.timeout(300))).rejects.toMatchObject({
			name: 'TimeoutError',
		});
		expect(Date.now() - started).toBeGreaterThanOrEqual(250);
		expect(fake().requestsTo('/v1/end_users')).toMatchObject([{ method: 'GET', status: 0 }]);
		expect((await api().get('/v1/end_users')).status).toBe(200);
	});

	it('holds an answer until the test releases it, then answers as it would have, dated then', async () => {
		let release = () => {};
		const released = new Promise<void>((resolve) => (release = resolve));
		fake().faults.inject({ path: '/v1/end_users', fault: { kind: 'held', released } });
		let answered = false;
		const reply = fetchRaw('/v1/end_users').then((response) => {
			answered = true;
			return response;
		});
		await new Promise((resolve) => setTimeout(resolve, 1_100));
		expect(answered).toBe(false);
		const releasedAt = Date.now();
		release();
		const { status, headers } = await reply;
		expect(status).toBe(200);
		expect(Date.parse(headers.get('date')!)).toBeGreaterThanOrEqual(
			Math.floor(releasedAt / 1000) * 1000,
		);
		expect((await api().get('/v1/end_users')).status).toBe(200);
	});

	it('drops the connection without an answer', async () => {
		fake().faults.inject({ path: '/v1/end_users', fault: { kind: 'dropConnection' } });
		await expect(fetchRaw('/v1/end_users')).rejects.toMatchObject({
			message: 'fetch failed',
			cause: { code: 'UND_ERR_SOCKET' },
		});
		expect(fake().requestsTo('/v1/end_users')).toMatchObject([{ status: 0 }]);
		expect((await api().get('/v1/end_users')).status).toBe(200);
	});

	it('chooses requests with a `when` predicate, e.g. page=7 only', async () => {
		fake().faults.inject({
			path: '/v1/end_users',
			when: (request) => request.query.page === '7',
			fault: { kind: 'status', status: 500 },
		});
		expect((await api().get('/v1/end_users', 'page=6')).status).toBe(200);
		expect((await api().get('/v1/end_users')).status).toBe(200);
		expect((await api().get('/v1/end_users', 'page=7')).status).toBe(500);
		expect((await api().get('/v1/end_users', 'page=7')).status).toBe(200);
	});

	it('matches the method', async () => {
		fake().faults.inject({
			method: 'POST',
			path: '/v1/end_users',
			fault: { kind: 'status', status: 500 },
		});
		expect((await api().get('/v1/end_users')).status).toBe(200);
		const faulted = await api().post('/v1/end_users', 'email=never%40example.com');
		expect(faulted.status).toBe(500);
		// The fault answered instead of the service: nothing was created.
		expect(fake().account.endUsers.size).toBe(0);
		expect((await api().post('/v1/end_users', 'email=later%40example.com')).status).toBe(201);
	});

	it('matches paths by RegExp, and an exact string path matches only that path', async () => {
		const user = createEndUser(fake().account, fake().store, 'regexp@example.com');
		fake().faults.inject({
			path: /^\/v1\/end_users\/\d+\/settings$/,
			times: 2,
			fault: { kind: 'status', status: 500 },
		});
		fake().faults.inject({ path: '/v1/segments', fault: { kind: 'status', status: 502 } });
		expect((await api().get(`/v1/end_users/${user.id}`)).status).toBe(200);
		expect((await api().get('/v1/end_users/settings')).status).toBe(404);
		expect((await api().get('/v1/segments', 'x=1')).status).toBe(502);
		expect((await api().get(`/v1/end_users/${user.id}/settings`)).status).toBe(500);
		expect((await api().put(`/v1/end_users/${user.id}/settings`, 'email_nps=false')).status).toBe(
			500,
		);
		expect((await api().get(`/v1/end_users/${user.id}/settings`)).status).toBe(200);
		expect(user.settings.email_nps).toBe(true);
	});

	it('matches a RegExp with the g flag on every request, not every other one', async () => {
		fake().faults.inject({
			path: /^\/v1\/segments$/g,
			times: 3,
			fault: { kind: 'status', status: 500 },
		});
		const statuses: number[] = [];
		for (let attempt = 0; attempt < 4; attempt++)
			statuses.push((await api().get('/v1/segments')).status);
		expect(statuses).toEqual([500, 500, 500, 200]);
	});

	it('applies to the token endpoint and to requests without a token, ahead of authentication', async () => {
		fake().faults.inject({ path: '/oauth/token', fault: { kind: 'status', status: 500 } });
		expect(
			(
				await api().send('POST', '/oauth/token', {
					form: passwordGrantForm(fake().credentials),
					auth: false,
				})
			).status,
		).toBe(500);
		expect(fake().store.accessGrants.size).toBe(0);
		fake().faults.inject({ path: '/v1/end_users', fault: { kind: 'status', status: 503 } });
		expect((await api().send('GET', '/v1/end_users', { auth: false })).status).toBe(503);
	});

	it('logs the faulted request like any other', async () => {
		await api().token();
		fake().faults.inject({
			method: 'PUT',
			path: /^\/v1\/end_users\/\d+$/,
			fault: { kind: 'status', status: 500 },
		});
		await api().send('PUT', '/v1/end_users/42', {
			query: 'trace=1',
			form: 'properties%5Bplan%5D=pro',
		});
		expect(fake().apiRequests()).toEqual([
			expect.objectContaining({
				method: 'PUT',
				path: '/v1/end_users/42',
				rawQuery: 'trace=1',
				rawBody: 'properties%5Bplan%5D=pro',
				params: { trace: '1', properties: { plan: 'pro' } },
				status: 500,
			}),
		]);
	});
});

describe('rate limits', () => {
	it('sends Limit, Remaining and an absolute Reset on every answer of a limited endpoint, then 429 with an error_list', async () => {
		fake().rateLimits.set('GET /v1/end_users', 3, 60);
		await api().token();
		fake().clock.set(T);
		const replies: RawReply[] = [];
		for (let attempt = 0; attempt < 5; attempt++) replies.push(await api().get('/v1/end_users'));
		expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 429, 429]);
		const headers = replies.map(limitHeaders);
		expect(headers.map((header) => [header.limit, header.remaining])).toEqual([
			['3', '2'],
			['3', '1'],
			['3', '0'],
			['3', '0'],
			['3', '0'],
		]);
		const reset = Number(headers[0].reset);
		expect(reset).toBeGreaterThanOrEqual(T + 60);
		expect(reset).toBeLessThanOrEqual(T + 61);
		expect(new Set(headers.map((header) => header.reset))).toEqual(new Set([String(reset)]));
		expect(replies[3].body).toEqual(RATE_LIMITED);
		expect(replies[3].headers['retry-after']).toBeUndefined();
	});

	it('sends no X-Rate-Limit headers from endpoints without a limit, including other methods and patterns of the path', async () => {
		fake().rateLimits.set('GET /v1/end_users', 1, 60);
		const user = createEndUser(fake().account, fake().store, 'unlimited@example.com');
		expect(limitHeaders(await api().get('/v1/end_users'))).toMatchObject({
			limit: '1',
			remaining: '0',
		});
		for (const reply of [
			await api().get('/v1/segments'),
			await api().get(`/v1/end_users/${user.id}`),
			await api().post('/v1/end_users', 'email=more%40example.com'),
		]) {
			expect(reply.status).toBeLessThan(300);
			expect(limitHeaders(reply)).toEqual(NO_LIMIT_HEADERS);
		}
	});

	it('counts per route pattern: every id of GET /v1/end_users/:id shares one counter', async () => {
		fake().rateLimits.set('GET /v1/end_users/:id', 2, 60);
		const [a, b] = ['a@example.com', 'b@example.com'].map((email) =>
			createEndUser(fake().account, fake().store, email),
		);
		expect((await api().get(`/v1/end_users/${a.id}`)).status).toBe(200);
		expect((await api().get(`/v1/end_users/${b.id}`)).status).toBe(200);
		expect(await api().get(`/v1/end_users/${a.id}`)).toMatchObject({
			status: 429,
			body: RATE_LIMITED,
		});
	});

	it('puts the headers on error answers of a limited endpoint too, and counts them', async () => {
		fake().rateLimits.set('GET /v1/end_users', 2, 60);
		const invalid = await api().get('/v1/end_users', 'page=31');
		expect(invalid.status).toBe(400);
		expect(limitHeaders(invalid)).toMatchObject({ limit: '2', remaining: '1' });
		expect(limitHeaders(await api().get('/v1/end_users'))).toMatchObject({
			limit: '2',
			remaining: '0',
		});
		expect((await api().get('/v1/end_users')).status).toBe(429);
	});

	it('neither counts nor marks requests refused for their token', async () => {
		fake().rateLimits.set('GET /v1/end_users', 1, 60);
		const refused = await api().send('GET', '/v1/end_users', {
			headers: { authorization: 'Bearer garbage' },
		});
		expect(refused.status).toBe(401);
		expect(limitHeaders(refused)).toEqual(NO_LIMIT_HEADERS);
		expect(limitHeaders(await api().get('/v1/end_users'))).toMatchObject({ remaining: '0' });
	});

	it('starts a new window at the reset (fake clock)', async () => {
		fake().rateLimits.set('GET /v1/end_users', 2, 60);
		const token = await api().token();
		fake().clock.set(T);
		await api().get('/v1/end_users');
		await api().get('/v1/end_users');
		const refused = await api().get('/v1/end_users');
		expect(refused.status).toBe(429);
		const reset = Number(refused.headers['x-rate-limit-reset']);
		fake().clock.set(reset - 1);
		expect((await api().get('/v1/end_users')).status).toBe(429);
		fake().clock.set(reset);
		const fresh = await api().get('/v1/end_users', '', { authorization: `Bearer ${token}` });
		expect(fresh.status).toBe(200);
		const { reset: nextReset, ...counts } = limitHeaders(fresh);
		expect(counts).toEqual({ limit: '2', remaining: '1' });
		// A whole second at or after the new window's end: the window opened a few ms after `reset`.
		expect([String(reset + 60), String(reset + 61)]).toContain(nextReset);
	});

	it('starts a new window at the reset (real time, a 1 s window)', async () => {
		fake().rateLimits.set('GET /v1/end_users', 1, 1);
		expect((await api().get('/v1/end_users')).status).toBe(200);
		const refused = await api().get('/v1/end_users');
		expect(refused.status).toBe(429);
		const reset = Number(refused.headers['x-rate-limit-reset']);
		await new Promise((resolve) => setTimeout(resolve, reset * 1000 - fake().clock.nowMs() + 20));
		expect((await api().get('/v1/end_users')).status).toBe(200);
	});

	it('counts per account', async () => {
		fake().rateLimits.set('GET /v1/end_users', 1, 60);
		const other = fake().store.addAccount({ token: 'NPS-07e40000' });
		fake().store.clients.push({
			clientId: 'other-client',
			clientSecret: 'other-secret',
			accountToken: other.token,
		});
		const otherToken = (
			await api().send('POST', '/oauth/token', {
				form: 'grant_type=client_credentials&client_id=other-client&client_secret=other-secret',
				auth: false,
			})
		).body.access_token;
		expect((await api().get('/v1/end_users')).status).toBe(200);
		expect((await api().get('/v1/end_users')).status).toBe(429);
		const otherReply = await api().get('/v1/end_users', '', {
			authorization: `Bearer ${otherToken}`,
		});
		expect([otherReply.status, otherReply.headers['x-rate-limit-remaining']]).toEqual([200, '0']);
		expect(
			(await api().get('/v1/end_users', '', { authorization: `Bearer ${otherToken}` })).status,
		).toBe(429);
	});

	it('lifts every limit on clear()', async () => {
		fake().rateLimits.set('GET /v1/end_users', 1, 60);
		await api().get('/v1/end_users');
		fake().rateLimits.clear();
		const reply = await api().get('/v1/end_users');
		expect([reply.status, limitHeaders(reply)]).toEqual([200, NO_LIMIT_HEADERS]);
	});
});

describe('the request log', () => {
	it('keeps method, path, raw query and body, parsed parameters, status and route of each request, in order', async () => {
		await api().token();
		const user = createEndUser(fake().account, fake().store, 'logged@example.com');
		await api().post('/v1/end_users?trace=1', 'email=log%40example.com&properties%5Bplan%5D=pro');
		await api().get(`/v1/end_users/${user.id}`, 'lookup_by_email=false');
		await api().get('/v1/end_users/999999');
		await api().get('/v1/nowhere');

		expect(
			fake().requests.map((request) => [
				request.method,
				request.path,
				request.status,
				request.route,
			]),
		).toEqual([
			['POST', '/oauth/token', 200, 'POST /oauth/token'],
			['POST', '/v1/end_users', 201, 'POST /v1/end_users'],
			['GET', `/v1/end_users/${user.id}`, 200, 'GET /v1/end_users/:id'],
			['GET', '/v1/end_users/999999', 404, 'GET /v1/end_users/:id'],
			['GET', '/v1/nowhere', 404, undefined],
		]);
		const created = fake().requestsTo('/v1/end_users', 'POST')[0];
		expect(created).toMatchObject({
			rawQuery: 'trace=1',
			rawBody: 'email=log%40example.com&properties%5Bplan%5D=pro',
			query: { trace: '1' },
			body: { email: 'log@example.com', properties: { plan: 'pro' } },
			params: { trace: '1', email: 'log@example.com', properties: { plan: 'pro' } },
			files: [],
		});
		expect(created.headers['content-type']).toBe('application/x-www-form-urlencoded');
		expect(fake().requestsTo(`/v1/end_users/${user.id}`)[0]).toMatchObject({
			rawQuery: 'lookup_by_email=false',
			rawBody: '',
			query: { lookup_by_email: 'false' },
			body: {},
		});
		expect(fake().apiRequests()).toHaveLength(4);
		expect(fake().requestsTo('/v1/end_users', 'GET')).toEqual([]);
	});

	it('lets a form body parameter win over the same query parameter', async () => {
		await api().send('POST', '/v1/end_users', {
			query: 'email=query%40example.com',
			form: 'email=body%40example.com',
		});
		expect(fake().requestsTo('/v1/end_users')[0].params).toEqual({ email: 'body@example.com' });
		expect([...fake().account.endUsers.values()].map((user) => user.email)).toEqual([
			'body@example.com',
		]);
	});
});
