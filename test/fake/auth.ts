import { randomBytes } from 'node:crypto';

import { paramString } from './brackets';
import { ApiError, unauthorized } from './errors';
import type { FakeRequest, Reply } from './http';
import type { Account, FakeStore } from './store';

const newToken = () => randomBytes(24).toString('hex');

/** The token endpoint answers errors in the OAuth 2 shape, not as an error_list. */
class OAuthError extends ApiError {
	constructor(status: number, error: string, description: string) {
		super(status, error, description);
	}

	override get body() {
		return { error: this.code, error_description: this.message };
	}
}

/** POST /oauth/token: password, refresh_token and client_credentials grants. */
export function issueToken(store: FakeStore, request: FakeRequest): Reply {
	const param = (name: string) => paramString(request.params[name]);
	const grantType = param('grant_type');
	let accountToken: string;
	let refreshFor: string | undefined;

	if (grantType === 'password') {
		const login = store.logins.find(
			(candidate) =>
				candidate.email === param('username') && candidate.password === param('password'),
		);
		if (!login)
			throw new OAuthError(
				400,
				'invalid_grant',
				'The provided authorization grant is invalid: wrong email or password.',
			);
		const requested = param('account_token');
		if (requested !== undefined && !login.accountTokens.includes(requested)) {
			throw new OAuthError(400, 'invalid_grant', 'The account token does not belong to this user.');
		}
		accountToken = requested ?? login.accountTokens[0];
		refreshFor = login.email;
	} else if (grantType === 'refresh_token') {
		const grant = store.refreshGrants.get(param('refresh_token') ?? '');
		if (!grant)
			throw new OAuthError(
				400,
				'invalid_grant',
				'The refresh token is invalid, expired or revoked.',
			);
		// Refresh tokens rotate: the one used is spent.
		store.refreshGrants.delete(grant.refreshToken);
		accountToken = grant.accountToken;
		refreshFor = grant.email;
	} else if (grantType === 'client_credentials') {
		const client = store.clients.find(
			(candidate) =>
				candidate.clientId === param('client_id') &&
				candidate.clientSecret === param('client_secret'),
		);
		if (!client)
			throw new OAuthError(
				401,
				'invalid_client',
				'Client authentication failed: unknown client or wrong secret.',
			);
		accountToken = client.accountToken;
	} else {
		throw new OAuthError(
			400,
			'unsupported_grant_type',
			'The authorization grant type is not supported.',
		);
	}

	const now = store.clock.now();
	const accessToken = newToken();
	store.accessGrants.set(accessToken, {
		accessToken,
		accountToken,
		expiresAt: now + store.tokenLifetimeSeconds,
	});
	store.issuedTokens.push(accessToken);
	const body: Record<string, unknown> = {
		access_token: accessToken,
		token_type: 'Bearer',
		expires_in: store.tokenLifetimeSeconds,
		scope: 'public',
		created_at: now,
	};
	if (refreshFor !== undefined) {
		const refreshToken = newToken();
		store.refreshGrants.set(refreshToken, { refreshToken, email: refreshFor, accountToken });
		store.issuedTokens.push(refreshToken);
		body.refresh_token = refreshToken;
	}
	return { status: 200, body };
}

/**
 * The account a data request acts for: bearer header, or the discouraged access_token parameter.
 */
export function authenticate(store: FakeStore, request: FakeRequest): Account {
	const header = request.headers.authorization ?? '';
	const bearer = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
	const token = bearer ?? paramString(request.params.access_token);
	if (!token) throw unauthorized('No access token given');
	const grant = store.accessGrants.get(token);
	if (!grant) throw unauthorized('The access token is invalid');
	if (grant.expiresAt <= store.clock.now()) throw unauthorized('The access token expired');
	const account = store.accounts.get(grant.accountToken);
	if (!account) throw unauthorized('The access token is invalid');
	return account;
}
