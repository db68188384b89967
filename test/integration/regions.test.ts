import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { startFakeWootric, type FakeWootric } from '../fake';
import { mapOrigins, runNode, testCredential } from '../harness';

/**
 * Region choice: the service's three hosts are mapped onto three local fakes, so the credential's
 * own host logic (and its credential-test URL expression, which must agree with it) decides where
 * requests go.
 */
describe('regions', () => {
	const fakes: Record<'us' | 'eu' | 'au', FakeWootric> = {} as never;
	let unmap: () => void;

	beforeAll(async () => {
		[fakes.us, fakes.eu, fakes.au] = await Promise.all([
			startFakeWootric({ region: 'us' }),
			startFakeWootric({ region: 'eu' }),
			startFakeWootric({ region: 'au' }),
		]);
		unmap = mapOrigins({
			'https://api.wootric.com': fakes.us.baseUrl,
			'https://api.wootric.eu': fakes.eu.baseUrl,
			'https://api.wootric.au': fakes.au.baseUrl,
		});
	});

	afterAll(async () => {
		unmap();
		await Promise.all(Object.values(fakes).map((fake) => fake.close()));
	});

	beforeEach(() => Object.values(fakes).forEach((fake) => (fake.requests.length = 0)));

	const credentialOf = (
		home: FakeWootric,
		region: string,
		withAccountToken = true,
	): ICredentialDataDecryptedObject => ({
		grantType: 'password',
		email: home.credentials.email,
		password: home.credentials.password,
		accountToken: withAccountToken ? home.credentials.accountToken : '',
		region,
	});
	const reached = () =>
		Object.entries(fakes)
			.filter(([, fake]) => fake.requests.length > 0)
			.map(([region]) => region);

	it.each([
		['auto', 'us', true],
		['auto', 'eu', true],
		['auto', 'au', true],
		['auto', 'us', false],
		['us', 'us', true],
		['eu', 'eu', true],
		['au', 'au', false],
	] as const)(
		'region %s with a %s account (account token given: %s): the credential test and the node reach that host only',
		async (region, home, withAccountToken) => {
			const credentials = credentialOf(fakes[home], region, withAccountToken);

			const tested = await testCredential({ credentials });
			const run = await runNode({
				nodeType: 'wootric',
				parameters: { resource: 'segment', operation: 'getAll' },
				credentials,
			});

			expect(tested).toMatchObject({ status: 'OK' });
			expect(run.error).toBeUndefined();
			expect(reached()).toEqual([home]);
			expect(fakes[home].apiRequests().map((request) => request.path)).toEqual([
				'/v1/segments',
				'/v1/segments',
			]);
		},
	);

	it('a region that does not match the account fails with a sign-in error naming the region', async () => {
		const run = await runNode({
			nodeType: 'wootric',
			parameters: { resource: 'segment', operation: 'getAll' },
			credentials: credentialOf(fakes.eu, 'us'),
		});

		expect(run.error?.message).toMatch(
			/refused the sign-in .*an EU or AU account signs in only in its own region/,
		);
		expect(reached()).toEqual(['us']);
	});
});
