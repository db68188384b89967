import { OutboundHttp } from '@n8n/backend-network';
import { Container } from '@n8n/di';

import { startFakeWootric, type FakeWootric } from '../fake';
import { clearOriginMap, mapOrigins, runNode, testCredential } from '.';

const pathsOf = (fake: FakeWootric) => fake.requests.map(({ method, path }) => `${method} ${path}`);

describe('testCredential', () => {
	let fake: FakeWootric;

	beforeEach(async () => {
		fake = await startFakeWootric();
	});

	afterEach(async () => await fake.close());

	const passwordCredentials = (password = fake.credentials.password) => ({
		grantType: 'password',
		email: fake.credentials.email,
		password,
		region: 'custom',
		baseUrl: fake.baseUrl,
	});

	const clientCredentials = (clientSecret = fake.credentials.clientSecret) => ({
		grantType: 'clientCredentials',
		clientId: fake.credentials.clientId,
		clientSecret,
		region: 'custom',
		baseUrl: fake.baseUrl,
	});

	it('signs in with email and password, then sends the test request with the token it got', async () => {
		const result = await testCredential({ credentials: passwordCredentials() });

		expect(result).toMatchObject({ status: 'OK', message: 'Connection successful!' });
		expect(pathsOf(fake)).toEqual(['POST /oauth/token', 'GET /v1/segments']);
		const [tokenRequest, testRequest] = fake.requests;
		expect(tokenRequest.params).toMatchObject({
			grant_type: 'password',
			username: fake.credentials.email,
		});
		expect([tokenRequest.status, testRequest.status]).toEqual([200, 200]);
		const saved = await result.credentialsHelper.getCredentialData(result.credentialId);
		expect(saved.accessToken).toEqual(expect.any(String));
		expect(fake.store.accessGrants.has(String(saved.accessToken))).toBe(true);
		expect(testRequest.headers.authorization).toBe(`Bearer ${saved.accessToken}`);
		expect(result.credentialsHelper.preAuthenticationRuns).toBe(1);
	});

	it('signs in with a client ID and secret', async () => {
		const result = await testCredential({ credentials: clientCredentials() });

		expect(result).toMatchObject({ status: 'OK', message: 'Connection successful!' });
		expect(pathsOf(fake)).toEqual(['POST /oauth/token', 'GET /v1/segments']);
		expect(fake.requests[0].params).toMatchObject({
			grant_type: 'client_credentials',
			client_id: fake.credentials.clientId,
		});
		expect(fake.requests[1].status).toBe(200);
	});

	it('reports a wrong password as an error that holds no password, and sends no test request', async () => {
		const wrongPassword = 'not-the-password-4711';

		const result = await testCredential({ credentials: passwordCredentials(wrongPassword) });

		expect(result.status).toBe('Error');
		expect(result.message).not.toContain(wrongPassword);
		expect(result.message).not.toContain(fake.credentials.password);
		expect(pathsOf(fake)).toEqual(['POST /oauth/token']);
		expect(fake.requests[0].status).toBe(400);
		expect(result.credentialsHelper.updates).toEqual([]);
	});

	it('reports a wrong client secret as an error that holds no secret', async () => {
		const wrongSecret = 'not-the-secret-0815';

		const result = await testCredential({ credentials: clientCredentials(wrongSecret) });

		expect(result.status).toBe('Error');
		expect(result.message).not.toContain(wrongSecret);
		expect(pathsOf(fake)).toEqual(['POST /oauth/token']);
		expect(fake.requests[0].status).toBe(401);
	});

	it("shows the credential's own sign-in message for a wrong password", async () => {
		const result = await testCredential({
			credentials: passwordCredentials('not-the-password-4711'),
		});

		expect(result.message).toContain('refused the sign-in');
		expect(result.message).toContain('email and password');
	});

	it("shows the credential's own sign-in message for a wrong client secret, naming the client ID and secret", async () => {
		const result = await testCredential({ credentials: clientCredentials('not-the-secret-0815') });

		expect(result.message).toContain('refused the sign-in');
		expect(result.message).toContain('client ID and client secret');
	});

	it.each([
		['/v1', '/v1'],
		['/v1/', '/v1'],
		['/api/v1', '/api/v1'],
	])(
		'names the path of a Base URL typed with %s as the likely cause of a 404 from the sign-in',
		async (typed, path) => {
			const result = await testCredential({
				credentials: { ...passwordCredentials(), baseUrl: `${fake.baseUrl}${typed}` },
			});

			expect(result).toMatchObject({
				status: 'Error',
				message: `Wootric's sign-in endpoint ${fake.baseUrl}${path}/oauth/token answered 404: nothing signs in there. The Base URL is the API's host (or a proxy's address), without /v1: its path ${path} is the likely cause.`,
			});
			expect(pathsOf(fake)).toEqual([`POST ${path}/oauth/token`]);
		},
	);

	it('says a 404 from the sign-in at a Base URL without a path is no sign-in endpoint, not a wrong password', async () => {
		fake.faults.inject({ path: '/oauth/token', fault: { kind: 'status', status: 404 } });

		const result = await testCredential({ credentials: passwordCredentials() });

		expect(result).toMatchObject({
			status: 'Error',
			message: `Wootric's sign-in endpoint ${fake.baseUrl}/oauth/token answered 404: nothing signs in there. Check the region or Base URL.`,
		});
	});

	it('reports an unreachable host as an error', async () => {
		const closed = await startFakeWootric();
		await closed.close();

		const result = await testCredential({
			credentials: { ...passwordCredentials(), baseUrl: closed.baseUrl },
		});

		expect(result).toMatchObject({
			status: 'Error',
			message: `Could not reach Wootric's sign-in endpoint ${closed.baseUrl}/oauth/token: the connection was refused. Check the region or base URL.`,
		});
	});

	it("names a Custom Base URL's host without its user name and password", async () => {
		const closed = await startFakeWootric();
		await closed.close();
		const { host } = new URL(closed.baseUrl);

		const result = await testCredential({
			credentials: { ...passwordCredentials(), baseUrl: `http://proxy-user:proxy-secret@${host}` },
		});

		expect(result.message).toBe(
			`Could not reach Wootric's sign-in endpoint http://${host}/oauth/token: the connection was refused. Check the region or base URL.`,
		);
	});

	it.each([
		[
			'with a / in its password, unencoded',
			(host: string) => `http://proxy-user:proxy/secret@${host}`,
			(host: string) => `http://${host}`,
		],
		[
			'typed without http://',
			(host: string) => `proxy-user:proxy-secret@${host}`,
			(host: string) => host,
		],
	])("never shows a Custom Base URL's user name and password %s", async (_, baseUrl, shown) => {
		const closed = await startFakeWootric();
		await closed.close();
		const { host } = new URL(closed.baseUrl);

		const result = await testCredential({
			credentials: { ...passwordCredentials(), baseUrl: baseUrl(host) },
		});

		expect(result.status).toBe('Error');
		expect(result.message).toContain(`sign-in endpoint ${shown(host)}/oauth/token:`);
		expect(result.message).not.toMatch(/proxy-user|secret/);
	});

	it('reuses a saved token without signing in again, as n8n does when the token field is filled', async () => {
		const first = await testCredential({ credentials: passwordCredentials() });
		const saved = await first.credentialsHelper.getCredentialData(first.credentialId);

		const second = await testCredential({ credentials: saved });

		expect(second.status).toBe('OK');
		expect(pathsOf(fake)).toEqual(['POST /oauth/token', 'GET /v1/segments', 'GET /v1/segments']);
		expect(second.credentialsHelper.preAuthenticationRuns).toBe(0);
	});
});

describe('mapOrigins', () => {
	let eu: FakeWootric;
	let us: FakeWootric;
	let unmap: () => void;

	beforeAll(async () => {
		[eu, us] = await Promise.all([
			startFakeWootric({ region: 'eu' }),
			startFakeWootric({ region: 'us' }),
		]);
	});

	afterAll(async () => await Promise.all([eu.close(), us.close()]));

	beforeEach(() => {
		eu.requests.length = 0;
		us.requests.length = 0;
		unmap = mapOrigins({
			'https://api.wootric.eu': eu.baseUrl,
			'https://api.wootric.com/': us.baseUrl,
		});
	});

	afterEach(() => unmap());

	const autoRegion = (fake: FakeWootric) => ({
		grantType: 'password',
		email: fake.credentials.email,
		password: fake.credentials.password,
		accountToken: fake.credentials.accountToken,
		region: 'auto',
	});

	it('sends a credential test of an EU account (region auto) to the EU host only', async () => {
		expect(eu.credentials.accountToken).toMatch(/^NPS-EU-/);

		const result = await testCredential({ credentials: autoRegion(eu) });

		expect(result).toMatchObject({ status: 'OK', message: 'Connection successful!' });
		expect(pathsOf(eu)).toEqual(['POST /oauth/token', 'GET /v1/segments']);
		expect(eu.requests[0].params).toMatchObject({ account_token: eu.credentials.accountToken });
		expect(us.requests).toEqual([]);
	});

	it('sends a US account (region auto) to the US host', async () => {
		const result = await testCredential({ credentials: autoRegion(us) });

		expect(result.status).toBe('OK');
		expect(pathsOf(us)).toEqual(['POST /oauth/token', 'GET /v1/segments']);
		expect(eu.requests).toEqual([]);
	});

	it('runs the Wootric node of an EU account against the EU host', async () => {
		eu.account.segments.push({ name: 'plan', dataType: 'string', createdAt: eu.clock.now() });

		const run = await runNode({
			nodeType: 'wootric',
			parameters: { resource: 'segment', operation: 'getAll' },
			credentials: autoRegion(eu),
		});

		expect(run.error).toBeUndefined();
		expect(run.items.map(({ json }) => json)).toEqual([
			expect.objectContaining({ name: 'plan', data_type: 'string' }),
		]);
		expect(pathsOf(eu)).toEqual(['POST /oauth/token', 'GET /v1/segments']);
		expect(eu.requests[1].headers.authorization).toBe(
			`Bearer ${(await run.credentialsHelper.getCredentialData(run.credentialId!)).accessToken}`,
		);
		expect(us.requests).toEqual([]);
	});

	it("leaves n8n's own OutboundHttp in the container once no mapping is left", () => {
		const mapped = Container.get(OutboundHttp);
		unmap();
		const own = Container.get(OutboundHttp);

		expect(own).not.toBe(mapped);
		expect(mapped).toBeInstanceOf(OutboundHttp);
		const again = mapOrigins({ 'https://api.wootric.au': eu.baseUrl });
		clearOriginMap();
		expect(Container.get(OutboundHttp)).toBe(own);
		again();
		expect(Container.get(OutboundHttp)).toBe(own);
	});
});
