import { createEndUser } from '../index';
import type { Account } from '../store';
import type { RawReply } from './client';
import {
	clientCredentialsForm,
	errorList,
	expectNotFound,
	idsOf,
	passwordGrantForm,
	useFakeApi,
} from './setup';

const T = 1_700_000_000;
const TOKEN_SHAPE = /^[0-9a-f]{48}$/;
/** The body of a password or refresh grant made at T. */
const TOKEN_BODY = {
	access_token: expect.stringMatching(TOKEN_SHAPE),
	token_type: 'Bearer',
	expires_in: 7200,
	refresh_token: expect.stringMatching(TOKEN_SHAPE),
	scope: 'public',
	created_at: T,
};

const unauthorized = (message: string) => errorList('unauthorized', message, null);

const { fake, api, restart } = useFakeApi();

/** POST /oauth/token with a hand-written form body (and query, for account_token). */
const grant = (form: string, query = '') =>
	api().send('POST', '/oauth/token', { form, query, auth: false });
const passwordGrant = (query = '') => grant(passwordGrantForm(fake().credentials), query);
const withToken = (token: string) => ({ authorization: `Bearer ${token}` });
const listEmails = async (token: string) => {
	const reply = await api().get('/v1/end_users', '', withToken(token));
	expect(reply.status).toBe(200);
	return reply.body.map((user: { email: string }) => user.email);
};

describe('POST /oauth/token, password grant', () => {
	it('answers a Bearer token for 7200 s with a refresh token, scope and created_at', async () => {
		fake().clock.set(T);
		const reply = await passwordGrant();
		expect(reply.status).toBe(200);
		expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
		expect(reply.body).toEqual(TOKEN_BODY);
		expect(reply.body.refresh_token).not.toBe(reply.body.access_token);
		expect(await listEmails(reply.body.access_token)).toEqual([]);
		expect(fake().requestsTo('/oauth/token')[0]).toMatchObject({
			method: 'POST',
			route: 'POST /oauth/token',
			status: 200,
		});
	});

	it('states the configured lifetime in expires_in', async () => {
		await restart({ tokenLifetimeSeconds: 60 });
		expect((await passwordGrant()).body.expires_in).toBe(60);
	});

	it.each([
		['a wrong password', 'grant_type=password&username=owner%40us.example.com&password=wrong'],
		[
			'an unknown username',
			'grant_type=password&username=someone%40us.example.com&password=correct+horse+battery+staple',
		],
		['no credentials', 'grant_type=password'],
	])('answers 400 invalid_grant for %s', async (_, form) => {
		const reply = await grant(form);
		expect(reply.status).toBe(400);
		expect(reply.body).toEqual({
			error: 'invalid_grant',
			error_description: 'The provided authorization grant is invalid: wrong email or password.',
		});
		expect(fake().store.accessGrants.size).toBe(0);
	});
});

describe('a login with several accounts', () => {
	let second: Account;
	let foreign: Account;
	beforeEach(() => {
		second = fake().store.addAccount({ token: 'NPS-5ec0nd00' });
		foreign = fake().store.addAccount({ token: 'NPS-f0re1gn0' });
		fake().store.logins[0].accountTokens.push(second.token);
		createEndUser(fake().account, fake().store, 'first@example.com');
		createEndUser(second, fake().store, 'second@example.com');
		createEndUser(foreign, fake().store, 'foreign@example.com');
	});

	it('signs into the first account without account_token', async () => {
		expect(await listEmails((await passwordGrant()).body.access_token)).toEqual([
			'first@example.com',
		]);
	});

	it('signs into the account named by the account_token query parameter, and sees only its data', async () => {
		const reply = await passwordGrant(`account_token=${second.token}`);
		expect(reply.status).toBe(200);
		const token = reply.body.access_token;
		expect(await listEmails(token)).toEqual(['second@example.com']);
		const firstUser = [...fake().account.endUsers.values()][0];
		expect((await api().get(`/v1/end_users/${firstUser.id}`, '', withToken(token))).status).toBe(
			404,
		);
		expect(fake().requestsTo('/oauth/token')[0].query).toEqual({ account_token: second.token });
	});

	it('refuses an account token of an account the login does not belong to, or that does not exist', async () => {
		for (const accountToken of [foreign.token, 'NPS-00000000']) {
			const reply = await passwordGrant(`account_token=${accountToken}`);
			expect(reply.status).toBe(400);
			expect(reply.body).toEqual({
				error: 'invalid_grant',
				error_description: 'The account token does not belong to this user.',
			});
		}
		expect(fake().store.accessGrants.size).toBe(0);
	});

	it('keeps the chosen account across a refresh', async () => {
		const first = await passwordGrant(`account_token=${second.token}`);
		const refreshed = await grant(
			`grant_type=refresh_token&refresh_token=${first.body.refresh_token}`,
		);
		expect(await listEmails(refreshed.body.access_token)).toEqual(['second@example.com']);
	});
});

describe('POST /oauth/token, refresh grant', () => {
	const refresh = (refreshToken: string) =>
		grant(`grant_type=refresh_token&refresh_token=${refreshToken}`);

	it('answers a new access token and a new refresh token, and spends the one used', async () => {
		const first = (await passwordGrant()).body;
		fake().clock.set(T);
		const second = await refresh(first.refresh_token);
		expect(second.status).toBe(200);
		expect(second.body).toEqual(TOKEN_BODY);
		expect(second.body.access_token).not.toBe(first.access_token);
		expect(second.body.refresh_token).not.toBe(first.refresh_token);
		expect(await listEmails(second.body.access_token)).toEqual([]);

		const reused = await refresh(first.refresh_token);
		expect([reused.status, reused.body]).toEqual([
			400,
			{
				error: 'invalid_grant',
				error_description: 'The refresh token is invalid, expired or revoked.',
			},
		]);
		// The newest one still works, once.
		expect((await refresh(second.body.refresh_token)).status).toBe(200);
		expect((await refresh(second.body.refresh_token)).status).toBe(400);
	});

	it('obtains a working token after the old one expired', async () => {
		fake().clock.set(T);
		const first = (await passwordGrant()).body;
		fake().clock.advance(7200);
		expect((await api().get('/v1/end_users', '', withToken(first.access_token))).status).toBe(401);
		const renewed = await refresh(first.refresh_token);
		expect(renewed.status).toBe(200);
		expect(await listEmails(renewed.body.access_token)).toEqual([]);
	});

	it('answers 400 invalid_grant for an unknown or missing refresh token, or an access token given as one', async () => {
		const { access_token } = (await passwordGrant()).body;
		for (const form of [
			'grant_type=refresh_token&refresh_token=nope',
			'grant_type=refresh_token',
			`grant_type=refresh_token&refresh_token=${access_token}`,
		]) {
			const reply = await grant(form);
			expect([reply.status, reply.body.error]).toEqual([400, 'invalid_grant']);
		}
	});
});

describe('POST /oauth/token, client_credentials grant', () => {
	it('answers a token without refresh_token, for the client\u2019s account', async () => {
		createEndUser(fake().account, fake().store, 'client@example.com');
		fake().clock.set(T);
		const reply = await grant(clientCredentialsForm(fake().credentials));
		expect(reply.status).toBe(200);
		expect(reply.body).toEqual({
			access_token: expect.stringMatching(TOKEN_SHAPE),
			token_type: 'Bearer',
			expires_in: 7200,
			scope: 'public',
			created_at: T,
		});
		expect(reply.body).not.toHaveProperty('refresh_token');
		expect(await listEmails(reply.body.access_token)).toEqual(['client@example.com']);
	});

	it.each([
		[
			'a wrong client secret',
			'grant_type=client_credentials&client_id=client-us&client_secret=wrong',
		],
		[
			'an unknown client',
			'grant_type=client_credentials&client_id=client-eu&client_secret=client-secret-value',
		],
		['no client', 'grant_type=client_credentials'],
	])('answers 401 invalid_client for %s', async (_, form) => {
		const reply = await grant(form);
		expect([reply.status, reply.body]).toEqual([
			401,
			{
				error: 'invalid_client',
				error_description: 'Client authentication failed: unknown client or wrong secret.',
			},
		]);
	});
});

describe('POST /oauth/token, other grants and methods', () => {
	it.each([
		['grant_type=authorization_code&code=x'],
		['grant_type=implicit'],
		['username=owner%40us.example.com'],
	])('answers 400 unsupported_grant_type for %s', async (form) => {
		const reply = await grant(form);
		expect([reply.status, reply.body]).toEqual([
			400,
			{
				error: 'unsupported_grant_type',
				error_description: 'The authorization grant type is not supported.',
			},
		]);
	});

	it('answers GET /oauth/token with 404', async () => {
		expectNotFound(await api().send('GET', '/oauth/token', { auth: false }));
	});
});

describe('authenticating data requests', () => {
	const send = (headers: Record<string, string>, query = '') =>
		api().send('GET', '/v1/end_users', { query, headers, auth: false });
	const expectUnauthorized = (reply: RawReply, message: string) =>
		expect([reply.status, reply.body]).toEqual([401, unauthorized(message)]);

	it('answers 401 without a token', async () => {
		expectUnauthorized(await send({}), 'No access token given');
		expectUnauthorized(
			await send({ authorization: 'Basic b3duZXI6cHc=' }),
			'No access token given',
		);
	});

	it('answers 401 for a garbage token, in the header or the query', async () => {
		expectUnauthorized(await send(withToken('garbage')), 'The access token is invalid');
		expectUnauthorized(await send({}, 'access_token=garbage'), 'The access token is invalid');
	});

	it('answers 401 for a refresh token used as an access token', async () => {
		const { refresh_token } = (await passwordGrant()).body;
		expectUnauthorized(await send(withToken(refresh_token)), 'The access token is invalid');
	});

	it('accepts the token until 7200 s after it was issued, then answers 401 with an error_list body', async () => {
		fake().clock.set(T);
		const { access_token } = (await passwordGrant()).body;
		fake().clock.advance(7199);
		expect((await send(withToken(access_token))).status).toBe(200);
		fake().clock.advance(1);
		expectUnauthorized(await send(withToken(access_token)), 'The access token expired');
		expectUnauthorized(await send({}, `access_token=${access_token}`), 'The access token expired');
	});

	it('answers 401 after store.expireAccessTokens()', async () => {
		const token = await api().token();
		expect((await send(withToken(token))).status).toBe(200);
		fake().store.expireAccessTokens();
		expectUnauthorized(await send(withToken(token)), 'The access token expired');
		// A new grant works again.
		expect((await send(withToken((await passwordGrant()).body.access_token))).status).toBe(200);
	});

	it('accepts the token as an access_token query parameter, or form parameter (spec rule 3)', async () => {
		const token = await api().token();
		const user = createEndUser(fake().account, fake().store, 'param@example.com');
		const byQuery = await send({}, `access_token=${token}`);
		expect([byQuery.status, idsOf(byQuery)]).toEqual([200, [user.id]]);
		const byForm = await api().send('PUT', `/v1/end_users/${user.id}`, {
			form: `access_token=${token}&properties[plan]=pro`,
			auth: false,
		});
		expect(byForm.status).toBe(200);
		expect(user.properties).toEqual({ plan: 'pro' });
	});

	it('accepts the scheme name in any case, and prefers the header over the parameter', async () => {
		const token = await api().token();
		expect((await send({ authorization: `bearer ${token}` })).status).toBe(200);
		expect((await send(withToken('garbage'), `access_token=${token}`)).status).toBe(401);
		expect((await send(withToken(token), 'access_token=garbage')).status).toBe(200);
	});

	it('checks the token on every data endpoint', async () => {
		const user = createEndUser(fake().account, fake().store, 'everywhere@example.com');
		const endpoints: Array<['GET' | 'POST' | 'PUT' | 'DELETE', string]> = [
			['GET', `/v1/end_users/${user.id}`],
			['POST', '/v1/end_users'],
			['PUT', `/v1/end_users/${user.id}/settings`],
			['DELETE', `/v1/end_users/${user.id}`],
			['GET', '/v1/responses'],
			['GET', '/v1/declines'],
			['GET', '/v1/nps_summary'],
			['GET', '/v1/segments'],
			['GET', '/v1/survey_templates'],
			['POST', '/v1/email_survey'],
			['POST', '/v1/email_survey_csv'],
		];
		for (const [method, path] of endpoints) {
			const reply = await api().send(method, path, { form: '', auth: false });
			expect([method, path, reply.status]).toEqual([method, path, 401]);
		}
		expect(user.markedForDeletionAt).toBeNull();
	});
});
