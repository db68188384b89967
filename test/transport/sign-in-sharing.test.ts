import type { IHttpRequestHelper } from 'n8n-workflow';

import { MAX_SHARED_SIGN_INS, signInFor } from '../../nodes/Wootric/transport/signIn';

/** A sign-in endpoint that never answers: every sign-in stays under way. Counts the requests. */
function silentTokenEndpoint() {
	const requests: unknown[] = [];
	const helper = {
		helpers: {
			httpRequest: async (options: unknown) => {
				requests.push(options);
				return await new Promise(() => {});
			},
		},
	} as unknown as IHttpRequestHelper;
	return { helper, requests };
}

/** A credential whose access token `expired` was refused: preAuthentication signs in again. */
const credentialWith = (expired: string) => ({
	grantType: 'password',
	email: 'ada@example.com',
	password: 'secret',
	region: 'us',
	accessToken: expired,
});

describe('sign-ins shared by the callers that met the same expired token', () => {
	it('shares a sign-in under way', () => {
		const { helper, requests } = silentTokenEndpoint();
		void signInFor(helper, credentialWith('expired-a'));
		void signInFor(helper, credentialWith('expired-a'));
		expect(requests).toHaveLength(1);
	});

	it(`keeps at most ${MAX_SHARED_SIGN_INS} sign-ins, forgetting the oldest first`, () => {
		const { helper, requests } = silentTokenEndpoint();
		for (let token = 0; token < MAX_SHARED_SIGN_INS; token++)
			void signInFor(helper, credentialWith(`expired-${token}`));
		expect(requests).toHaveLength(MAX_SHARED_SIGN_INS);
		void signInFor(helper, credentialWith('expired-0'));
		expect(requests).toHaveLength(MAX_SHARED_SIGN_INS);

		void signInFor(helper, credentialWith('expired-one-more'));
		expect(requests).toHaveLength(MAX_SHARED_SIGN_INS + 1);
		// The oldest went to make room: its callers sign in again.
		void signInFor(helper, credentialWith('expired-0'));
		expect(requests).toHaveLength(MAX_SHARED_SIGN_INS + 2);
	});
});
