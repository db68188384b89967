import { OutboundHttp } from '@n8n/backend-network';
import { Container } from '@n8n/di';
import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';

import { startFakeWootric, type FakeWootric } from '../fake';
import { mapOrigins, runNode } from '../harness';
import { prepareN8nEnvironment } from '../harness/n8n-runtime';
import { authenticate, signInFingerprint } from '../support/built-credential';
import { StrangerServer } from '../support/stranger';
import { clientCredentialsFor, credentialsFor } from '../support/wootric';

const listSegments = { resource: 'segment', operation: 'getAll' };
const REDIRECTS = [302, 307] as const;

/**
 * A redirect from Wootric's host, or from a Custom Base URL, to another origin: the token, the
 * password, the client secret and the refresh token never reach it, through n8n's own request path
 * (a real n8n client over real sockets). The Wootric node and the sign-in do not follow a redirect;
 * the request n8n's HTTP Request node makes with the credential follows it without the token, and
 * not at all to a host outside Wootric's.
 */
describe('a redirect to another origin', () => {
	let fake: FakeWootric;
	let stranger: StrangerServer;
	let unmap: () => void;

	beforeAll(async () => {
		fake = await startFakeWootric();
		stranger = await new StrangerServer().listen();
		unmap = mapOrigins({ 'https://api.wootric.com': fake.baseUrl });
	});
	afterAll(async () => {
		unmap();
		await Promise.all([fake.close(), stranger.close()]);
	});
	beforeEach(() => {
		fake.faults.clear();
		fake.requests.length = 0;
		stranger.requests.length = 0;
	});

	/** The credential's host: the Custom Base URL (the fake), or Wootric's US host (mapped onto it). */
	const HOSTS = {
		'a Custom Base URL': {},
		"Wootric's host": { region: 'us', baseUrl: '' },
	} as const;
	const cases = Object.keys(HOSTS).flatMap((host) =>
		REDIRECTS.map((status) => [host as keyof typeof HOSTS, status] as const),
	);
	const redirectTo = (method: string, path: string, status: (typeof REDIRECTS)[number]) =>
		fake.faults.inject({
			method,
			path,
			times: 2,
			fault: { kind: 'redirect', status, location: `${stranger.url}${path}` },
		});
	const strangerOrigin = () => new URL(stranger.url).origin;

	describe.each(cases)('from %s, answered %i', (host, status) => {
		const password = () => credentialsFor(fake, HOSTS[host]);
		const client = () => clientCredentialsFor(fake, HOSTS[host]);

		it('the Wootric node does not follow it, and says where it pointed', async () => {
			redirectTo('GET', '/v1/segments', status);
			const run = await runNode({
				nodeType: 'wootric',
				parameters: listSegments,
				credentials: password(),
			});

			expect(run.error?.message).toBe(
				`Wootric answered GET /v1/segments with ${status}, a redirect to ${strangerOrigin()}: not followed`,
			);
			expect(fake.requestsTo('/v1/segments').map((request) => request.status)).toEqual([status]);
			expect(stranger.requests).toEqual([]);
		});

		it.each([
			['//host/…', (host: string) => `//${host}/v1/segments`],
			['/\\host/…', (host: string) => `/\\${host}/v1/segments`],
		])(
			'the Wootric node calls a Location %s another host, not another path of this one',
			async (_, location) => {
				const { host: strangerHost } = new URL(stranger.url);
				fake.faults.inject({
					method: 'GET',
					path: '/v1/segments',
					times: 2,
					fault: { kind: 'redirect', status, location: location(strangerHost) },
				});
				const run = await runNode({
					nodeType: 'wootric',
					parameters: listSegments,
					credentials: password(),
				});

				expect(run.error?.message).toBe(
					`Wootric answered GET /v1/segments with ${status}, a redirect to //${strangerHost}: not followed`,
				);
				expect(stranger.requests).toEqual([]);
			},
		);

		it.each([
			['password', password, 'password'],
			['client credentials', client, 'client secret'],
		] as const)(
			'the sign-in (%s grant) does not follow it: refused, naming the host, the form never posted there',
			async (_, credentials, secret) => {
				redirectTo('POST', '/oauth/token', status);
				const run = await runNode({
					nodeType: 'wootric',
					parameters: listSegments,
					credentials: credentials(),
				});

				expect(run.error?.message).toContain(
					`sign-in endpoint ${host === "Wootric's host" ? 'https://api.wootric.com' : fake.baseUrl}/oauth/token answered ${status}, a redirect to ${strangerOrigin()}: not followed, so that the ${secret} goes to that endpoint only`,
				);
				expect(fake.requestsTo('/v1/segments')).toEqual([]);
				expect(stranger.requests).toEqual([]);
			},
		);

		it('the refresh does not follow it: the refresh token stays, and the configured grant signs in', async () => {
			const first = await runNode({
				nodeType: 'wootric',
				parameters: listSegments,
				credentials: password(),
			});
			fake.store.expireAccessTokens();
			fake.requests.length = 0;
			fake.faults.inject({
				method: 'POST',
				path: '/oauth/token',
				when: (request) => request.params.grant_type === 'refresh_token',
				fault: { kind: 'redirect', status, location: `${stranger.url}/oauth/token` },
			});

			const second = await runNode({
				nodeType: 'wootric',
				parameters: listSegments,
				credentialsHelper: first.credentialsHelper,
				credentialId: first.credentialId,
			});

			expect(second.error).toBeUndefined();
			expect(
				fake
					.requestsTo('/oauth/token')
					.map((request) => `${request.params.grant_type} ${request.status}`),
			).toEqual([`refresh_token ${status}`, 'password 200']);
			expect(stranger.requests).toEqual([]);
		});
	});

	/** A credential signed in at the fake, as n8n holds it once preAuthentication ran. */
	const signedIn = async (): Promise<ICredentialDataDecryptedObject> => {
		const credentials = credentialsFor(fake);
		const answer = await fetch(`${fake.baseUrl}/oauth/token`, {
			method: 'POST',
			body: new URLSearchParams({
				grant_type: 'password',
				username: String(credentials.email),
				password: String(credentials.password),
			}),
		});
		const { access_token: accessToken } = (await answer.json()) as { access_token: string };
		return { ...credentials, accessToken, issuedForSignIn: signInFingerprint(credentials) };
	};

	/**
	 * What n8n's HTTP Request node sends with Predefined Credential Type → Wootric API: its options
	 * through the credential's authenticate, then n8n's own client. Before version 4.4 the legacy
	 * request (`uri`, Follow Redirects on), from 4.4 on `httpRequest` options.
	 */
	const httpRequestNode = async (version: 'legacy' | '4.4', url: string) => {
		prepareN8nEnvironment();
		const client = Container.get(OutboundHttp).requests();
		const credentials = await signedIn();
		if (version === 'legacy') {
			// As n8n's HTTP Request node sends them: an empty allowedDomains where the credential
			// allows every domain.
			const options = await authenticate(credentials, {
				uri: url,
				method: 'GET',
				json: true,
				followRedirect: true,
				followAllRedirects: true,
				allowedDomains: '',
			} as unknown as IHttpRequestOptions);
			return await client.requestLegacy(options as never, { onFetched: async () => {} });
		}
		const options = await authenticate(credentials, { url, method: 'GET', json: true });
		return await client.request(options as never);
	};

	describe.each(['legacy', '4.4'] as const)("n8n's HTTP Request node (%s)", (version) => {
		it.each(REDIRECTS)(
			'follows a %i to another port of the same host without the token',
			async (status) => {
				redirectTo('GET', '/v1/segments', status);
				await httpRequestNode(version, `${fake.baseUrl}/v1/segments`);

				expect(stranger.requests).toHaveLength(1);
				expect(stranger.requests[0].headers.authorization).toBeUndefined();
			},
		);

		it.each(REDIRECTS)(
			'does not follow a %i to a host outside Wootric’s: n8n refuses it, and the host gets nothing',
			async (status) => {
				const elsewhere = await new StrangerServer().listen({ spelled: 'localhost' });
				try {
					fake.faults.inject({
						method: 'GET',
						path: '/v1/segments',
						fault: { kind: 'redirect', status, location: `${elsewhere.url}/v1/segments` },
					});
					await expect(httpRequestNode(version, `${fake.baseUrl}/v1/segments`)).rejects.toThrow(
						/not allowed|restricted/i,
					);
					expect(elsewhere.requests).toEqual([]);
				} finally {
					await elsewhere.close();
				}
			},
		);
	});
});
