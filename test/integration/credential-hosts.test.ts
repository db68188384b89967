import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';

import { authenticate, signInFingerprint } from '../support/built-credential';

/**
 * The credential's token goes to Wootric's hosts only: n8n's HTTP Request node, given this
 * credential (Predefined Credential Type → Wootric API), sends whatever URL its user typed, in
 * `uri`; our nodes send `url` on `baseURL`.
 */
describe("the credential's token goes to Wootric's hosts only", () => {
	const signedIn = (fields: ICredentialDataDecryptedObject): ICredentialDataDecryptedObject => {
		const credentials = {
			grantType: 'password',
			email: 'a@example.com',
			password: 'secret',
			accessToken: 'the-token',
			...fields,
		};
		return { ...credentials, issuedForSignIn: signInFingerprint(credentials) };
	};
	const authorization = async (
		credentials: ICredentialDataDecryptedObject,
		request: Record<string, unknown>,
	) =>
		(await authenticate(credentials, request as unknown as IHttpRequestOptions)).headers
			?.Authorization;

	it.each<[string, ICredentialDataDecryptedObject, Record<string, unknown>]>([
		[
			'our node, the region',
			{ region: 'eu' },
			{ url: '/v1/segments', baseURL: 'https://api.wootric.eu' },
		],
		[
			'the HTTP Request node, the region',
			{ region: 'us' },
			{ uri: 'https://api.wootric.com/v1/segments' },
		],
		['another region', { region: 'us' }, { uri: 'https://api.wootric.au/v1/segments' }],
		['text analytics', { region: 'auto' }, { uri: 'https://cxi-api.wootric.com/v1/tags' }],
		[
			'the Custom Base URL as typed',
			{ region: 'custom', baseUrl: 'http://127.0.0.1:4010/' },
			{ uri: 'http://127.0.0.1:4010/v1/segments' },
		],
		[
			'under a Custom Base URL with a path',
			{ region: 'custom', baseUrl: 'https://proxy.example.com/wootric' },
			{ uri: 'https://proxy.example.com/wootric/v1/segments' },
		],
	])('sends it to %s', async (_, credentials, request) => {
		expect(await authorization(signedIn(credentials), request)).toBe('Bearer the-token');
	});

	it.each<[string, ICredentialDataDecryptedObject, Record<string, unknown>, string]>([
		[
			'another host',
			{ region: 'us' },
			{ uri: 'https://evil.example/v1/segments' },
			'https://evil.example',
		],
		[
			'Wootric over plain HTTP',
			{ region: 'us' },
			{ uri: 'http://api.wootric.com/v1/segments' },
			'http://api.wootric.com',
		],
		[
			"a host that only starts with Wootric's",
			{ region: 'us' },
			{ uri: 'https://api.wootric.com.evil.example/v1' },
			'https://api.wootric.com.evil.example',
		],
		[
			'a host behind user info',
			{ region: 'us' },
			{ uri: 'https://api.wootric.com@evil.example/v1' },
			'https://evil.example',
		],
		[
			'another port than the Custom Base URL',
			{ region: 'custom', baseUrl: 'http://127.0.0.1:4010' },
			{ url: '/v1/segments', baseURL: 'http://127.0.0.1:4011' },
			'http://127.0.0.1:4011',
		],
		['no URL', { region: 'us' }, {}, 'this URL'],
	])('refuses %s before sending, naming it', async (_, credentials, request, named) => {
		await expect(authorization(signedIn(credentials), request)).rejects.toThrow(
			`The Wootric API credential signs requests to Wootric only`,
		);
		await expect(authorization(signedIn(credentials), request)).rejects.toThrow(`not to ${named}`);
	});

	it("shows a Custom Base URL's host, never its user name and password", async () => {
		const credentials = signedIn({
			region: 'custom',
			baseUrl: 'https://proxy-user:proxy-secret@proxy.example.com/wootric',
		});
		const refusal = authorization(credentials, { uri: 'https://evil.example/v1' });

		await expect(refusal).rejects.toThrow(
			'signs requests to Wootric only (https://proxy.example.com/wootric,',
		);
		await expect(refusal).rejects.not.toThrow(/proxy-user|proxy-secret/);
	});

	it.each([
		[
			'with a / in its password, unencoded',
			'https://proxy-user:proxy/secret@proxy.example.com/wootric',
			'https://proxy.example.com/wootric',
		],
		[
			'typed without https://',
			'proxy-user:proxy-secret@proxy.example.com/wootric',
			'proxy.example.com/wootric',
		],
		[
			'whose password, unencoded, reads as a port and a path',
			'https://proxy-user:12/secret@proxy.example.com/wootric',
			'https://proxy.example.com/wootric',
		],
	])("never shows a Custom Base URL's user name and password %s", async (_, baseUrl, shown) => {
		const refusal = authorization(signedIn({ region: 'custom', baseUrl }), {
			uri: 'https://evil.example/v1',
		});

		await expect(refusal).rejects.toThrow(`signs requests to Wootric only (${shown},`);
		await expect(refusal).rejects.not.toThrow(/proxy-user|secret/);
	});

	it('keeps the token on its own origin across redirects, and within the hosts it may go to', async () => {
		const options = (await authenticate(signedIn({ region: 'eu' }), {
			url: '/v1/segments',
			baseURL: 'https://api.wootric.eu',
		})) as IHttpRequestOptions;

		expect(options.sendCredentialsOnCrossOriginRedirect).toBe(false);
		expect(options.allowedDomains?.split(',')).toEqual([
			'api.wootric.eu',
			'api.wootric.com',
			'api.wootric.au',
			'cxi-api.wootric.com',
		]);
	});
});
