import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { credentialTestBaseUrl, requireBuilt } from '../harness';

// The built transport the nodes run with, as the credential test's expression is the built
// credential's.
const { wootricBaseUrl } = requireBuilt<typeof import('../../nodes/Wootric/transport/signIn')>(
	'dist/nodes/Wootric/transport/signIn',
);

/**
 * The credential test's `baseURL` is an n8n expression generated from the region table that
 * wootricBaseUrl reads: evaluated by n8n's expression engine on the credential's data as the Test
 * button gets it (defaults filled in), it names the host the nodes send to, for every region and
 * account token.
 */
describe('the credential test and the nodes reach the same host', () => {
	const signIn = { grantType: 'password', email: 'a@example.com', password: 'secret' };
	it.each<[string, ICredentialDataDecryptedObject, string]>([
		['us', { region: 'us', accountToken: 'NPS-EU-1a2b' }, 'https://api.wootric.com'],
		['eu', { region: 'eu' }, 'https://api.wootric.eu'],
		['au', { region: 'au', accountToken: 'NPS-EU-1a2b' }, 'https://api.wootric.au'],
		[
			'auto, an EU token',
			{ region: 'auto', accountToken: 'NPS-EU-1a2b' },
			'https://api.wootric.eu',
		],
		[
			'auto, an AU token',
			{ region: 'auto', accountToken: 'NPS-AU-1a2b' },
			'https://api.wootric.au',
		],
		['auto, a US token', { region: 'auto', accountToken: 'NPS-1a2b' }, 'https://api.wootric.com'],
		[
			'auto, an EU token in lower case',
			{ region: 'auto', accountToken: 'nps-eu-1a2b' },
			'https://api.wootric.eu',
		],
		[
			'auto, an AU token after spaces',
			{ region: 'auto', accountToken: '  NPS-AU-1a2b' },
			'https://api.wootric.au',
		],
		[
			'auto, an EU token without its dash',
			{ region: 'auto', accountToken: 'NPS-EU1a2b' },
			'https://api.wootric.eu',
		],
		['auto, no token', { region: 'auto' }, 'https://api.wootric.com'],
		[
			'no region (the default, auto), an EU token',
			{ accountToken: 'NPS-EU-1a2b' },
			'https://api.wootric.eu',
		],
		['custom', { region: 'custom', baseUrl: 'http://127.0.0.1:4010' }, 'http://127.0.0.1:4010'],
		[
			'custom, a trailing slash',
			{ region: 'custom', baseUrl: 'https://proxy.example.com/wootric/' },
			'https://proxy.example.com/wootric',
		],
		[
			'custom, trailing slashes, an EU token',
			{ region: 'custom', baseUrl: 'https://proxy.example.com//', accountToken: 'NPS-EU-1a2b' },
			'https://proxy.example.com',
		],
	])('%s', async (_, fields, host) => {
		const credentials = { ...signIn, ...fields };

		const tested = await credentialTestBaseUrl({ credentials });

		expect(tested).toBe(host);
		expect(wootricBaseUrl(credentials)).toBe(host);
	});
});
