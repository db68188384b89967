import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

import { fakeCredentials, runLiveCheck } from '../../scripts/live/check';
import { recordExchanges } from '../../scripts/live/exchanges';
import { seedDemoData, startFakeWootric, type FakeWootric } from '../fake';
import { runNode } from '../harness';
import { StrangerServer } from '../support/stranger';

/**
 * The live check (scripts/live/check.ts) against local stand-ins of a real account: the sandbox,
 * which must show no difference, and a variant of it with differences planted, which it must report,
 * exactly those. Its requests reach the host it was given and no other, and its report keeps no
 * secret.
 */
describe('the live check', () => {
	let target: FakeWootric;

	beforeEach(async () => {
		target = await startFakeWootric();
		seedDemoData(target.store, target.account);
	});
	afterEach(async () => await target.close());

	const differing = (lines: Array<{ subject: string; verdict: string }>) =>
		lines
			.filter(({ verdict }) => verdict === 'differs')
			.map(({ subject }) => subject)
			.sort();

	it('against the sandbox: no difference, every request to its host, nothing secret kept', async () => {
		target.rateLimits.setDocumentedLimits();

		const report = await runLiveCheck(fakeCredentials(target));

		expect(differing(report.lines)).toEqual([]);
		expect(report.lines.filter(({ verdict }) => verdict === 'confirmed').length).toBeGreaterThan(
			15,
		);
		expect(report.exchanges.target).toHaveLength(target.requests.length);
		const kept = JSON.stringify(report);
		for (const secret of [target.credentials.password, ...target.store.issuedTokens])
			expect(kept).not.toContain(secret);
	});

	it('against a variant with differences planted: a field renamed, a time in another form, a header missing, per_page 51 accepted; exactly those', async () => {
		// A response's comment named `comment`, in lists and alone.
		target.faults.inject({
			method: 'GET',
			path: /^\/v1\/(responses|end_users\/\d+\/responses)/,
			times: Infinity,
			fault: {
				kind: 'mangle',
				mangle: (body) =>
					JSON.parse(JSON.stringify(body).replace(/"text":/g, '"comment":')) as unknown,
			},
		});
		// An end user's created_at in ISO 8601.
		const inIso = (user: object) => ({ ...user, created_at: '2026-11-25T12:00:00.000Z' });
		target.faults.inject({
			method: 'GET',
			path: /^\/v1\/end_users(\/\d+)?$/,
			times: Infinity,
			fault: {
				kind: 'mangle',
				mangle: (body) =>
					Array.isArray(body) ? body.map((user: object) => inIso(user)) : inIso(body as object),
			},
		});
		// No rate limit on end users: no X-Rate-Limit headers. per_page 51 served as 50.
		target.arrivalHooks.push((request) => {
			if (request.params.per_page === '51') request.params.per_page = '50';
		});

		const report = await runLiveCheck(fakeCredentials(target));

		expect(differing(report.lines)).toEqual(
			[
				'GET /v1/end_users',
				'GET /v1/end_users/:key',
				'GET /v1/end_users/:id/responses',
				'GET /v1/end_users/:id/responses/:id',
				'GET /v1/responses',
				'fact: per_page over 50 is refused (400)',
				'fact: which endpoints send X-Rate-Limit headers',
				'fact: the forms of times (Rails’ -0800, ISO 8601, UTC)',
			].sort(),
		);
		const line = (subject: string) => report.lines.find((entry) => entry.subject === subject)!;
		expect(line('GET /v1/responses').details).toEqual([
			'text: missing',
			'comment: not in the fake',
		]);
		expect(line('GET /v1/end_users').details).toEqual([
			'created_at: time ISO 8601 (the fake: time 2016-12-16 09:05:00 -0800)',
			'X-Rate-Limit headers not sent (the fake: sent)',
		]);
		expect(line('fact: per_page over 50 is refused (400)').details).toEqual(['answered 200']);
		expect(line('fact: the forms of times (Rails’ -0800, ISO 8601, UTC)').details).toEqual([
			'seen: time 2014-12-01 18:36:59; time 2015-04-20 04:46:51-08:00; time 2016-12-16 09:05:00 -0800; time ISO 8601',
			'time ISO 8601: not in the fake',
		]);
	});

	/** What the check's writes left in the account: its end users not marked for deletion, their responses. */
	const leftByTheCheck = () => {
		const users = [...target.account.endUsers.values()].filter(({ email }) =>
			email?.startsWith('live-check-'),
		);
		return {
			endUsers: users.filter(({ markedForDeletionAt }) => markedForDeletionAt === null).length,
			responses: users.flatMap(({ id }) =>
				[...target.account.responses.values()].filter(({ endUserId }) => endUserId === id),
			).length,
			created: users.length,
		};
	};
	const writes = (report: { exchanges: { target: Array<{ probe: string; status?: number }> } }) =>
		report.exchanges.target
			.filter(({ probe }) => probe.startsWith('write:'))
			.map(({ probe, status }) => `${probe} ${status}`);

	it('with --write, signed in with client credentials: creates, changes and removes an end user and a response of its own, and finds every answer as the fake gives it', async () => {
		target.rateLimits.setDocumentedLimits();
		const report = await runLiveCheck(fakeCredentials(target, 'clientCredentials'), {
			write: true,
		});

		expect(differing(report.lines)).toEqual([]);
		expect(writes(report)).toEqual([
			'write: create an end user 201',
			'write: update the end user 200',
			'write: create a response 201',
			'write: delete the response 204',
			'write: delete the end user 200',
		]);
		expect(leftByTheCheck()).toEqual({ endUsers: 0, responses: 0, created: 1 });
	});

	it('with --write: removes what it created also when a later write fails', async () => {
		target.rateLimits.setDocumentedLimits();
		target.faults.inject({
			method: 'POST',
			path: /^\/v1\/end_users\/\d+\/responses$/,
			times: Infinity,
			fault: { kind: 'status', status: 500 },
		});

		const report = await runLiveCheck(fakeCredentials(target), { write: true });

		expect(writes(report)).toEqual(expect.arrayContaining(['write: delete the end user 200']));
		expect(leftByTheCheck()).toEqual({ endUsers: 0, responses: 0, created: 1 });
	});

	it('with --write: removes its end user by its email when the create’s answer is unreadable', async () => {
		target.rateLimits.setDocumentedLimits();
		// Created, but answered with no record to read its id from.
		target.faults.inject({
			method: 'POST',
			path: '/v1/end_users',
			fault: { kind: 'mangle', mangle: () => 'created' },
		});

		const report = await runLiveCheck(fakeCredentials(target), { write: true });

		expect(writes(report)).toEqual(expect.arrayContaining(['write: delete the end user 200']));
		expect(leftByTheCheck()).toEqual({ endUsers: 0, responses: 0, created: 1 });
	});

	it('follows no redirect with the token: its own probes redirected to another origin reach it not at all', async () => {
		// Another port of the same machine: another origin.
		const stranger = await new StrangerServer().listen();
		try {
			target.faults.inject({
				method: 'GET',
				path: '/v1/responses',
				when: ({ query }) => query.page === '31' || query.per_page === '51' || 'created' in query,
				times: Infinity,
				fault: { kind: 'redirect', status: 302, location: `${stranger.url}/v1/responses` },
			});

			const report = await runLiveCheck(fakeCredentials(target));

			expect(stranger.requests.map(({ headers }) => headers.authorization ?? 'no token')).toEqual(
				[],
			);
			expect(
				report.exchanges.target
					.filter(({ probe }) => probe.startsWith('refused:'))
					.map(({ status }) => status),
			).toEqual([302, 302, 302]);
		} finally {
			await stranger.close();
		}
	});

	/** Every secret the account and its sign-ins hold: none may be in a report. */
	const secretsOf = (fake: FakeWootric) => [
		fake.credentials.password,
		fake.credentials.clientSecret,
		...fake.store.issuedTokens,
	];
	const kept = (report: object, secrets: string[]) =>
		secrets.filter((secret) => JSON.stringify(report).includes(secret));

	/** The fake behind a proxy that serves it under `/wootric`, as a Custom Base URL with a path. */
	async function underAPath(fake: FakeWootric) {
		const proxy = createServer((incoming, outgoing) => {
			const forwarded = request(
				`${fake.baseUrl}${incoming.url!.replace(/^\/wootric/, '')}`,
				{ method: incoming.method, headers: incoming.headers },
				(answer) => answer.pipe(outgoing.writeHead(answer.statusCode!, answer.headers)),
			);
			incoming.pipe(forwarded);
		});
		await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
		return {
			baseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/wootric`,
			close: async () => await new Promise((resolve) => proxy.close(resolve)),
		};
	}

	it.each(['password', 'clientCredentials'])(
		'with a Custom Base URL under a path (%s grant): the sign-in known as one, its tokens and the login in no report, no difference',
		async (grantType) => {
			target.rateLimits.setDocumentedLimits();
			const proxy = await underAPath(target);
			try {
				const report = await runLiveCheck({
					...fakeCredentials(target, grantType),
					baseUrl: proxy.baseUrl,
				});

				expect(kept(report, secretsOf(target))).toEqual([]);
				expect(differing(report.lines)).toEqual([]);
				const signIn = report.exchanges.target.find(({ path }) => path === '/oauth/token');
				expect(signIn?.body).toEqual(expect.objectContaining({ access_token: 'string' }));
			} finally {
				await proxy.close();
			}
		},
	);

	it('keeps no secret an answer carries, sign-in or not: by the field’s name, and the login’s or a token’s value anywhere', async () => {
		// The answer of a probe no node shows: what it echoes reaches the report alone.
		target.faults.inject({
			method: 'GET',
			path: '/v1/responses',
			when: ({ query }) => query.page === '31',
			fault: {
				kind: 'answer',
				body: JSON.stringify({
					// What the check knows of: its login (the password grant's), the tokens issued.
					error: `echoed: ${[target.credentials.password, ...target.store.issuedTokens].join(' ')}`,
					refresh_token: 'planted-refresh-token',
					password: 'planted-password',
					client_secret: 'planted-client-secret',
				}),
			},
		});

		const report = await runLiveCheck(fakeCredentials(target));

		expect(
			kept(report, [
				...secretsOf(target),
				'planted-refresh-token',
				'planted-password',
				'planted-client-secret',
			]),
		).toEqual([]);
		expect(JSON.stringify(report)).toContain('echoed: ');
	});

	it('sends nothing to a host other than the one it was given', async () => {
		const recorder = recordExchanges('https://api.wootric.com');
		try {
			const run = await runNode({
				nodeType: 'wootric',
				parameters: { resource: 'segment', operation: 'getAll' },
				credentials: fakeCredentials(target),
			});
			// Refused before sending: the sign-in sees a request that reached nothing.
			expect(run.error?.message).toContain(`Could not reach Wootric's sign-in endpoint`);
		} finally {
			recorder.stop();
		}
		expect(target.requests).toEqual([]);
	});
});
