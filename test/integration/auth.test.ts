import { startFakeWootric, type FakeWootric } from '../fake';
import { runNode, testCredential } from '../harness';
import { clientCredentialsFor, credentialsFor, seedResponses } from '../support/wootric';

const listSegments = { resource: 'segment', operation: 'getAll' };
const allResponses = { resource: 'response', operation: 'getAll', scope: 'all', returnAll: true };

/** The credential's grants and token lifecycle, through n8n's engine against the fake. */
describe('Wootric API credential', () => {
	let fake: FakeWootric;

	beforeEach(async () => (fake = await startFakeWootric()));
	afterEach(async () => await fake.close());

	const tokenRequests = () => fake.requestsTo('/oauth/token');

	it('password grant: signs in once, stores the access and refresh tokens, sends the token as a Bearer header', async () => {
		const run = await runNode({
			nodeType: 'wootric',
			parameters: listSegments,
			credentials: credentialsFor(fake),
		});

		expect(run.error).toBeUndefined();
		const [token] = tokenRequests();
		expect(tokenRequests()).toHaveLength(1);
		expect(token.rawBody).toBe(
			`grant_type=password&username=${encodeURIComponent(fake.credentials.email)}&password=${encodeURIComponent(fake.credentials.password).replace(/%20/g, '+')}`,
		);
		expect(token.rawQuery).toBe('');
		const saved = await run.credentialsHelper.getCredentialData(run.credentialId!);
		expect(fake.store.accessGrants.has(saved.accessToken as string)).toBe(true);
		expect(fake.store.refreshGrants.has(saved.refreshToken as string)).toBe(true);
		expect(fake.requestsTo('/v1/segments')[0].headers.authorization).toBe(
			`Bearer ${saved.accessToken}`,
		);
		expect(fake.requestsTo('/v1/segments')[0].rawQuery).not.toContain('access_token');
	});

	it('password grant with an account token: sends it as account_token and reaches that account’s data', async () => {
		const other = fake.store.addAccount({ token: 'NPS-5e6f7a8b' });
		other.segments.push({ name: 'only-in-other', dataType: 'string', createdAt: fake.clock.now() });
		fake.store.logins[0].accountTokens.push(other.token);

		const run = await runNode({
			nodeType: 'wootric',
			parameters: listSegments,
			credentials: credentialsFor(fake, { accountToken: other.token }),
		});

		expect(run.error).toBeUndefined();
		expect(tokenRequests()[0].rawQuery).toBe('account_token=NPS-5e6f7a8b');
		expect(run.items.map(({ json }) => json.name)).toEqual(['only-in-other']);
	});

	it('client credentials grant: no refresh token comes back, and none is stored', async () => {
		const run = await runNode({
			nodeType: 'wootric',
			parameters: listSegments,
			credentials: clientCredentialsFor(fake),
		});

		expect(run.error).toBeUndefined();
		expect(tokenRequests()[0].body).toEqual({
			grant_type: 'client_credentials',
			client_id: fake.credentials.clientId,
			client_secret: fake.credentials.clientSecret,
		});
		const saved = await run.credentialsHelper.getCredentialData(run.credentialId!);
		expect(saved.accessToken).toEqual(expect.any(String));
		expect(saved.refreshToken).toBe('');
	});

	it('uses a stored refresh token first, and stores the rotated one', async () => {
		const first = await runNode({
			nodeType: 'wootric',
			parameters: listSegments,
			credentials: credentialsFor(fake),
		});
		const firstRefresh = (await first.credentialsHelper.getCredentialData(first.credentialId!))
			.refreshToken;
		fake.store.expireAccessTokens();

		const second = await runNode({
			nodeType: 'wootric',
			parameters: listSegments,
			credentialsHelper: first.credentialsHelper,
			credentialId: first.credentialId,
		});

		expect(second.error).toBeUndefined();
		expect(tokenRequests().map((request) => request.body.grant_type)).toEqual([
			'password',
			'refresh_token',
		]);
		expect(tokenRequests()[1].body.refresh_token).toBe(firstRefresh);
		const saved = await second.credentialsHelper.getCredentialData(second.credentialId!);
		expect(saved.refreshToken).not.toBe(firstRefresh);
		expect(fake.store.refreshGrants.has(saved.refreshToken as string)).toBe(true);
	});

	it('falls back to the configured grant when the stored refresh token was revoked', async () => {
		const first = await runNode({
			nodeType: 'wootric',
			parameters: listSegments,
			credentials: credentialsFor(fake),
		});
		fake.store.refreshGrants.clear();
		fake.store.expireAccessTokens();

		const run = await runNode({
			nodeType: 'wootric',
			parameters: listSegments,
			credentialsHelper: first.credentialsHelper,
			credentialId: first.credentialId,
		});

		expect(run.error).toBeUndefined();
		expect(tokenRequests().map((request) => [request.body.grant_type, request.status])).toEqual([
			['password', 200],
			['refresh_token', 400],
			['password', 200],
		]);
	});

	it.each([
		['another login', () => ({ email: 'second@example.com', password: 'second password' })],
		[
			'another account token',
			(fake: FakeWootric) => ({ accountToken: fake.store.logins[0].accountTokens[1] }),
		],
	])(
		'signs in afresh, and reads the new account, when the credential is changed to %s',
		async (_, change) => {
			const other = fake.store.addAccount({ token: 'NPS-99887766' });
			other.segments.push({
				name: 'second-account',
				dataType: 'string',
				createdAt: fake.clock.now(),
			});
			fake.store.logins[0].accountTokens.push(other.token);
			fake.store.logins.push({
				email: 'second@example.com',
				password: 'second password',
				accountTokens: [other.token],
			});
			const first = await runNode({
				nodeType: 'wootric',
				parameters: listSegments,
				credentials: credentialsFor(fake),
			});
			const stored = await first.credentialsHelper.getCredentialData(first.credentialId!);
			// As n8n does on Save: the edited fields change, the stored tokens stay.
			const edited = first.credentialsHelper.addCredential('wootricApi', {
				...stored,
				...change(fake),
			});

			const run = await runNode({
				nodeType: 'wootric',
				parameters: listSegments,
				credentialsHelper: first.credentialsHelper,
				credentialId: edited,
			});

			expect(run.error).toBeUndefined();
			expect(run.items.map(({ json }) => json.name)).toEqual(['second-account']);
			expect(fake.requestsTo('/v1/segments').map((request) => request.status)).toEqual([
				200, 401, 200,
			]);
			expect(tokenRequests().map((request) => request.body.grant_type)).toEqual([
				'password',
				'password',
			]);
		},
	);

	it('renews a token that expires mid-run once, though two pages on their way at once meet it, and the run completes', async () => {
		seedResponses(fake, 180);
		// Two hours pass as page 3 (asked for together with page 2) arrives; the latency makes both
		// meet the expired token, as pages on their way together would over a real network.
		fake.latencyMs = 100;
		const pageRequests = (page: string) =>
			fake.requestsTo('/v1/responses').filter((request) => request.query.page === page);
		fake.arrivalHooks.push((request) => {
			if (request.query.page === '3' && pageRequests('3').length === 1) fake.clock.advance(7200);
		});

		const run = await runNode({
			nodeType: 'wootric',
			parameters: allResponses,
			credentials: credentialsFor(fake),
		});

		expect(run.error).toBeUndefined();
		expect(run.items.map(({ json }) => json.id)).toHaveLength(180);
		expect(
			['1', '2', '3', '4', '5'].map((page) => pageRequests(page).map((request) => request.status)),
		).toEqual([[200], [401, 200], [401, 200], [200], [200]]);
		// The two renewals share one refresh: the rotating refresh token is spent once.
		const signIns = tokenRequests().map(
			(request) => `${String(request.body.grant_type)} ${request.status}`,
		);
		expect(signIns[0]).toBe('password 200');
		expect(signIns.slice(1)).toEqual(['refresh_token 200']);
	});

	it('makes the Test button sign in again when the password was changed, though a token is stored', async () => {
		const first = await runNode({
			nodeType: 'wootric',
			parameters: listSegments,
			credentials: credentialsFor(fake),
		});
		const stored = await first.credentialsHelper.getCredentialData(first.credentialId!);

		const unchanged = await testCredential({ credentials: stored });
		const changed = await testCredential({ credentials: { ...stored, password: 'a typo' } });

		expect(unchanged.status).toBe('OK');
		expect(changed).toMatchObject({
			status: 'Error',
			message: expect.stringContaining('refused the sign-in'),
		});
		expect(tokenRequests().map((request) => [request.body.grant_type, request.status])).toEqual([
			['password', 200],
			['password', 400],
		]);
	});

	it.each([
		[
			'a wrong password',
			() => credentialsFor(fake, { password: 'wrong' }),
			/refused the sign-in \(400: .*\)\. Check the email and password, and the region/,
		],
		[
			'a wrong client secret',
			() => clientCredentialsFor(fake, { clientSecret: 'wrong' }),
			/refused the sign-in \(401: .*\)\. Check the client ID and client secret/,
		],
		[
			'an EU account token on the US service',
			() => credentialsFor(fake, { accountToken: 'NPS-EU-77aa88bb' }),
			/an EU or AU account signs in only in its own region/,
		],
	])('%s: a clear error, and no data request is sent', async (_, credentials, message) => {
		const run = await runNode({
			nodeType: 'wootric',
			parameters: listSegments,
			credentials: credentials(),
		});

		expect(run.error?.message).toMatch(message);
		expect(run.error).toHaveProperty('failure', { cause: 'credential-invalid' });
		expect(fake.apiRequests()).toEqual([]);
	});
});
