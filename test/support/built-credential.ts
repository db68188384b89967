import type { IAuthenticate, IAuthenticateGeneric } from 'n8n-workflow';

import { requireBuilt } from '../harness';

// The built credential, as n8n loads it.
const { WootricApi } = requireBuilt<typeof import('../../credentials/WootricApi.credentials')>(
	'dist/credentials/WootricApi.credentials',
);

/** Which sign-in a stored token belongs to, as the built credential tells it. */
export const { signInFingerprint } = requireBuilt<
	typeof import('../../nodes/Wootric/transport/signIn')
>('dist/nodes/Wootric/transport/signIn');

/** The credential's authenticate: a function, as n8n calls it for the HTTP Request node and ours. */
export const authenticate = new WootricApi().authenticate as Exclude<
	IAuthenticate,
	IAuthenticateGeneric
>;
