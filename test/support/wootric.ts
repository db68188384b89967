import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { addResponse, createEndUser, type FakeWootric } from '../fake';

/** A "Wootric API" credential for a fake instance, password grant by default. */
export function credentialsFor(fake: FakeWootric, overrides: ICredentialDataDecryptedObject = {}): ICredentialDataDecryptedObject {
	const { email, password } = fake.credentials;
	return { grantType: 'password', email, password, region: 'custom', baseUrl: fake.baseUrl, ...overrides };
}

export function clientCredentialsFor(fake: FakeWootric, overrides: ICredentialDataDecryptedObject = {}): ICredentialDataDecryptedObject {
	const { clientId, clientSecret } = fake.credentials;
	return credentialsFor(fake, { grantType: 'clientCredentials', email: '', password: '', clientId, clientSecret, ...overrides });
}

/**
 * Stores `count` responses of one end user, one second apart from `start`, except that the records
 * numbered in `cluster` (0-based, e.g. 1441..1560) all share one second. Scores cycle 0..10.
 */
export function seedResponses(fake: FakeWootric, count: number, options: { start?: number; cluster?: [number, number] } = {}) {
	const user = createEndUser(fake.account, fake.store, `person${fake.store.nextId()}@example.com`);
	const start = options.start ?? fake.clock.now() - count - 100;
	const [clusterFrom, clusterTo] = options.cluster ?? [Infinity, -Infinity];
	const responses = [];
	for (let index = 0; index < count; index++) {
		const offset = index < clusterFrom ? index : index <= clusterTo ? clusterFrom : index - (clusterTo - clusterFrom);
		responses.push(addResponse(fake.account, fake.store, { endUserId: user.id, score: index % 11, createdAt: start + offset }));
	}
	return { user, responses };
}

/** Every string a run must never show: passwords, secrets and the tokens the fake issued. */
export function secretsOf(fake: FakeWootric): string[] {
	return [
		fake.credentials.password,
		fake.credentials.clientSecret,
		...fake.store.accessGrants.keys(),
		...fake.store.refreshGrants.keys(),
		...[...fake.requests].flatMap((request) => {
			const { refresh_token, access_token } = request.params as Record<string, unknown>;
			return [refresh_token, access_token].filter((value): value is string => typeof value === 'string');
		}),
	];
}
