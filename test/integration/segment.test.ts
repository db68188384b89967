import { seedDemoData, startFakeWootric, type FakeWootric } from '../fake';
import { runNode } from '../harness';

/** The Wootric node through n8n's engine against the fake API, over a real socket. */
describe('Wootric node → fake API: Segment / Get Many', () => {
	let fake: FakeWootric;

	beforeEach(async () => {
		fake = await startFakeWootric();
		seedDemoData(fake.store, fake.account);
	});

	afterEach(async () => await fake.close());

	it('signs in with the password grant, lists the segments and pairs them with the input item', async () => {
		const { email, password } = fake.credentials;

		const run = await runNode({
			nodeType: 'wootric',
			parameters: { resource: 'segment', operation: 'getAll' },
			credentials: {
				grantType: 'password',
				email,
				password,
				region: 'custom',
				baseUrl: fake.baseUrl,
			},
		});

		expect(run.error).toBeUndefined();
		expect(run.items).toEqual(
			fake.account.segments.map((segment) => ({
				json: {
					name: segment.name,
					data_type: segment.dataType,
					// Node version 1.3 gives every datetime in ISO 8601 UTC.
					created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/),
				},
				pairedItem: { item: 0 },
			})),
		);
		const [tokenRequest, segmentsRequest, ...others] = fake.requests;
		expect(others).toEqual([]);
		expect(tokenRequest).toMatchObject({
			method: 'POST',
			path: '/oauth/token',
			rawQuery: '',
			status: 200,
		});
		expect(tokenRequest.body).toEqual({ grant_type: 'password', username: email, password });
		const saved = await run.credentialsHelper.getCredentialData(run.credentialId!);
		expect(segmentsRequest).toMatchObject({
			method: 'GET',
			path: '/v1/segments',
			rawQuery: '',
			rawBody: '',
			status: 200,
		});
		expect(segmentsRequest.headers.authorization).toBe(`Bearer ${saved.accessToken}`);
		expect(fake.store.accessGrants.has(saved.accessToken as string)).toBe(true);
		expect(fake.store.refreshGrants.has(saved.refreshToken as string)).toBe(true);
	});
});
