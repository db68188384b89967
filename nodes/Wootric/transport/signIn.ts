import { createHash } from 'node:crypto';

import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
} from 'n8n-workflow';
import { ExecutionBaseError, UserError } from 'n8n-workflow';

/**
 * Signing in to a Wootric account for the credential (credentials/WootricApi.credentials.ts), and
 * what the transport needs of it: the host an account is served from, the sign-in itself, and how a
 * failed one is told.
 */

/**
 * The service's hosts. Auto picks the region whose prefix starts the account token, else the
 * default.
 */
const REGIONS: ReadonlyArray<{ region: string; host: string; tokenPrefix?: string }> = [
	{ region: 'us', host: 'https://api.wootric.com' },
	{ region: 'eu', host: 'https://api.wootric.eu', tokenPrefix: 'NPS-EU' },
	{ region: 'au', host: 'https://api.wootric.au', tokenPrefix: 'NPS-AU' },
];
const DEFAULT_REGION = REGIONS[0];

/**
 * The host serving an account: the chosen region, or the one its account token names (`NPS-EU…`,
 * `NPS-AU…`).
 */
export function wootricBaseUrl(credentials: ICredentialDataDecryptedObject): string {
	const region = String(credentials.region ?? 'auto');
	if (region === 'custom') return String(credentials.baseUrl ?? '').replace(/\/+$/, '');
	const token = String(credentials.accountToken ?? '')
		.trim()
		.toUpperCase();
	const chosen = REGIONS.find((entry) =>
		region === 'auto'
			? entry.tokenPrefix !== undefined && token.startsWith(entry.tokenPrefix)
			: entry.region === region,
	);
	return (chosen ?? DEFAULT_REGION).host;
}

/**
 * wootricBaseUrl as an n8n expression on `$credentials`, for the credential's test request (which
 * n8n sends itself, so it cannot call wootricBaseUrl). n8n fills in the fields' defaults first.
 */
export const WOOTRIC_BASE_URL_EXPRESSION = (() => {
	const token = '$credentials.accountToken.trim().toUpperCase()';
	const regionHosts = REGIONS.filter((entry) => entry !== DEFAULT_REGION).map(
		({ region, host, tokenPrefix }) => {
			const fromToken =
				tokenPrefix === undefined
					? ''
					: ` || ($credentials.region === "auto" && ${token}.startsWith(${JSON.stringify(tokenPrefix)}))`;
			return `$credentials.region === ${JSON.stringify(region)}${fromToken} ? ${JSON.stringify(host)} : `;
		},
	);
	return `={{ $credentials.region === "custom" ? $credentials.baseUrl.replace(/\\/+$/, "") : ${regionHosts.join('')}${JSON.stringify(DEFAULT_REGION.host)} }}`;
})();

/**
 * Which sign-in tokens belong to: a hash of everything that chooses the account, secrets included.
 */
export function signInFingerprint(credentials: ICredentialDataDecryptedObject): string {
	const signIn = [
		credentials.grantType,
		credentials.email,
		credentials.password,
		credentials.clientId,
		credentials.clientSecret,
		credentials.accountToken,
	];
	return createHash('sha256')
		.update(
			JSON.stringify([...signIn.map((value) => String(value ?? '')), wootricBaseUrl(credentials)]),
		)
		.digest('hex');
}

interface TokenResponse {
	access_token: string;
	refresh_token?: string;
}

/**
 * Where a WootricSignInError keeps its facts for the transport: its context, which n8n copies into
 * the error that wraps it.
 */
export const SIGN_IN_CONTEXT = 'wootricSignIn';

/**
 * A failed sign-in at /oauth/token, told in words a user can act on; it carries nothing secret. Its
 * status is not called `status`, nor is a network error code put in the message: n8n would swap
 * either for a generic text. n8n wraps it in a NodeApiError; n8n 1.x drops that wrapper's `cause`
 * but keeps the context of an n8n error, hence an ExecutionBaseError with the facts in its context.
 */
export class WootricSignInError extends ExecutionBaseError {
	constructor(
		message: string,
		readonly httpStatus?: number,
	) {
		super(message);
		this.context[SIGN_IN_CONTEXT] = { message, httpStatus: httpStatus ?? null };
	}
}

const NETWORK_PROBLEMS: Record<string, string> = {
	ECONNREFUSED: 'the connection was refused',
	ENOTFOUND: 'the host was not found',
	EAI_AGAIN: 'the host was not found',
	ETIMEDOUT: 'it timed out',
	ECONNABORTED: 'it timed out',
	ESOCKETTIMEDOUT: 'it timed out',
	ECONNRESET: 'the connection dropped',
	EPIPE: 'the connection dropped',
};

/** A network error code in words (n8n replaces messages that contain the codes themselves). */
export function networkProblem(code: string | undefined): string {
	return NETWORK_PROBLEMS[code ?? ''] ?? 'a network error';
}

interface HttpFailure {
	code?: string;
	response?: { status?: number; data?: unknown; headers?: Record<string, unknown> };
}

/**
 * A URL as a message may show it: without user info (a proxy's password in a Custom Base URL), query
 * or fragment. Whatever stands before the last @ is left out, whether or not the URL parses: a
 * password typed unencoded may hold a / (that ends the host early, so that the rest reads as a
 * path), and a URL typed without http:// parses as another scheme's.
 */
export function shownUrl(url: string): string {
	const scheme = /^[a-z][a-z\d+.-]*:\/\//i.exec(url)?.[0] ?? '';
	const shown = url.includes('@') ? `${scheme}${url.slice(url.lastIndexOf('@') + 1)}` : url;
	if (URL.canParse(shown) && /^https?:$/.test(new URL(shown).protocol)) {
		const { origin, pathname } = new URL(shown);
		return `${origin}${pathname === '/' ? '' : pathname}`;
	}
	return shown.replace(/[?#].*$/, '');
}

/**
 * Where a redirect points, as a message may show it: the origin of its Location, read against the
 * URL redirected (`from`). Without `from`, a Location without a scheme is read against a host of
 * its own: one that names another (`//other-host/…`, `/\\other-host/…`) is shown as `//other-host`;
 * only one that keeps the host is another path of it.
 */
export function redirectTarget(location: unknown, from?: string): string {
	if (typeof location !== 'string' || location === '') return 'an address it did not give';
	if (URL.canParse(location)) return new URL(location).origin;
	if (from !== undefined && URL.canParse(location, from)) return new URL(location, from).origin;
	if (URL.canParse(location, UNNAMED_HOST)) {
		const { host } = new URL(location, UNNAMED_HOST);
		if (host !== new URL(UNNAMED_HOST).host) return `//${host}`;
	}
	return 'another path of the same host';
}

/** A host no Location can name (.invalid is reserved): what a relative one is read against. */
const UNNAMED_HOST = 'https://redirected.invalid';

const isRedirect = (status: number) => status >= 300 && status < 400;

function signInError(
	error: unknown,
	credentials: ICredentialDataDecryptedObject,
	tokenUrl: string,
): WootricSignInError {
	const { response, code } = (error ?? {}) as HttpFailure;
	if (response?.status === undefined) {
		return new WootricSignInError(
			`Could not reach Wootric's sign-in endpoint ${shownUrl(tokenUrl)}: ${networkProblem(code)}. Check the region or base URL.`,
		);
	}
	if (isRedirect(response.status)) {
		const secret = credentials.grantType === 'clientCredentials' ? 'client secret' : 'password';
		return new WootricSignInError(
			`Wootric's sign-in endpoint ${shownUrl(tokenUrl)} answered ${response.status}, a redirect to ${redirectTarget(response.headers?.location, tokenUrl)}: not followed, so that the ${secret} goes to that endpoint only. Check the region or base URL.`,
			response.status,
		);
	}
	// Nothing at the sign-in's URL: the Base URL's path (a /v1 typed at its end), not the password.
	if (response.status === 404) {
		const shown = shownUrl(tokenUrl);
		const path = URL.canParse(shown) ? new URL(shown).pathname.replace(/\/oauth\/token$/, '') : '';
		return new WootricSignInError(
			`Wootric's sign-in endpoint ${shown} answered 404: nothing signs in there. ` +
				(path === ''
					? 'Check the region or Base URL.'
					: `The Base URL is the API's host (or a proxy's address), without /v1: its path ${path} is the likely cause.`),
			response.status,
		);
	}
	const data = (typeof response.data === 'string' ? safeJson(response.data) : response.data) as
		| { error?: string; error_description?: string }
		| undefined;
	const said = data?.error_description ?? data?.error;
	const what =
		credentials.grantType === 'clientCredentials'
			? 'the client ID and client secret'
			: `the email and password${credentials.accountToken ? ' and the account token' : ''}`;
	return new WootricSignInError(
		`Wootric refused the sign-in (${response.status}${said ? `: ${said}` : ''}). Check ${what}, and the region: ` +
			'an EU or AU account signs in only in its own region (Auto reads it from the account token).',
		response.status,
	);
}

function safeJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

/**
 * What preAuthentication returns, and n8n saves into the credential (a type, so it is an
 * IDataObject too).
 */
type IssuedToken = {
	accessToken: string;
	refreshToken: string;
	issuedForSignIn: string;
};

/**
 * How long a token this process just obtained is handed to callers that met the same expired token.
 */
const SHARED_SIGN_IN_MS = 30_000;

/**
 * At most this many sign-ins are kept for sharing; beyond it, the oldest goes first. A process
 * would reach it only with hundreds of credentials signing in within SHARED_SIGN_IN_MS.
 */
export const MAX_SHARED_SIGN_INS = 1_000;

/**
 * Sign-ins of this process, under way or just made, by the sign-in and the token they replace, in
 * the order started. n8n calls preAuthentication once per request that met an expired token:
 * executions (or pages, or a trigger's events) running at once would each sign in, and spend one
 * rotating refresh token several times. They share one sign-in instead, and for SHARED_SIGN_IN_MS
 * after it the callers that still held the expired token get the new one.
 *
 * Invariant: when a sign-in looks for one to share, every entry is a sign-in for its key started at
 * most SHARED_SIGN_IN_MS ago that has not failed, and one that replaces no token (the first) is
 * still under way. So a caller is handed a token no older than that, and a failed sign-in is tried
 * again by the next request.
 *
 * Only an optimisation of this process: another process, or this one after a restart, signs in by
 * itself; if the refresh token it holds was spent meanwhile, signInAt falls back to the configured
 * grant, so a sign-in not shared costs a request, never a failure.
 *
 * Bound: MAX_SHARED_SIGN_INS entries, each under 1 KB (three 64-character hashes and two tokens):
 * under 1 MB. Entries older than SHARED_SIGN_IN_MS are dropped whenever a sign-in is asked for,
 * and the oldest started when a new one would pass the bound.
 */
const signInsUnderWay = new Map<string, { token: Promise<IssuedToken>; startedAt: number }>();

function sharedSignIn(
	key: string,
	replacesToken: boolean,
	signIn: () => Promise<IssuedToken>,
): Promise<IssuedToken> {
	const now = Date.now();
	for (const [staleKey, entry] of signInsUnderWay)
		if (now - entry.startedAt > SHARED_SIGN_IN_MS) signInsUnderWay.delete(staleKey);
	const running = signInsUnderWay.get(key);
	if (running) return running.token;
	// Room for this one: the first in the map is the oldest started.
	if (signInsUnderWay.size >= MAX_SHARED_SIGN_INS)
		signInsUnderWay.delete(signInsUnderWay.keys().next().value!);
	const token = signIn();
	const entry = { token, startedAt: now };
	signInsUnderWay.set(key, entry);
	const forget = () => signInsUnderWay.get(key) === entry && signInsUnderWay.delete(key);
	token.then(() => replacesToken || forget(), forget);
	return token;
}

/**
 * A token from /oauth/token: by the stored refresh token when it belongs to this sign-in, else by
 * the configured grant.
 */
async function signInAt(
	helper: IHttpRequestHelper,
	credentials: ICredentialDataDecryptedObject,
	signIn: string,
): Promise<IssuedToken> {
	const tokenUrl = `${wootricBaseUrl(credentials)}/oauth/token`;
	const requestToken = async (form: Record<string, unknown>, query: IDataObject = {}) => {
		let token: unknown;
		try {
			token = await helper.helpers.httpRequest({
				method: 'POST',
				url: tokenUrl,
				qs: query,
				body: new URLSearchParams(form as Record<string, string>).toString(),
				headers: {
					'content-type': 'application/x-www-form-urlencoded',
					accept: 'application/json',
				},
				json: true,
				// A redirect is refused, never followed: a 307 or 308 would post the form, password or
				// secret included, to wherever it points.
				disableFollowRedirect: true,
			});
		} catch (error) {
			// Never pass the HTTP client's error on: its request config holds the password or secret.
			throw signInError(error, credentials, tokenUrl);
		}
		const { access_token: accessToken, refresh_token: refreshToken } = (token ?? {}) as Record<
			string,
			unknown
		>;
		if (typeof accessToken !== 'string' || accessToken === '')
			throw new WootricSignInError(
				`Wootric's sign-in endpoint ${shownUrl(tokenUrl)} answered without an access token. Check the region or base URL.`,
			);
		return {
			access_token: accessToken,
			refresh_token: typeof refreshToken === 'string' ? refreshToken : undefined,
		};
	};

	let token: TokenResponse | undefined;
	if (credentials.refreshToken && credentials.issuedForSignIn === signIn) {
		try {
			token = await requestToken({
				grant_type: 'refresh_token',
				refresh_token: credentials.refreshToken,
			});
		} catch {
			// A refresh token can be revoked or spent elsewhere: the configured grant still works.
			token = undefined;
		}
	}
	token ??=
		credentials.grantType === 'clientCredentials'
			? await requestToken({
					grant_type: 'client_credentials',
					client_id: credentials.clientId,
					client_secret: credentials.clientSecret,
				})
			: await requestToken(
					{ grant_type: 'password', username: credentials.email, password: credentials.password },
					credentials.accountToken ? { account_token: credentials.accountToken } : {},
				);
	return {
		accessToken: token.access_token,
		refreshToken: token.refresh_token ?? '',
		issuedForSignIn: signIn,
	};
}

/**
 * The credential's preAuthentication: a token for the credential as it is now. A stored refresh
 * token is tried first, if it was issued for the sign-in the credential holds now; the newest
 * refresh token is kept (they rotate). Calls that meet the same expired token at once share one
 * sign-in (sharedSignIn).
 */
export async function signInFor(
	helper: IHttpRequestHelper,
	credentials: ICredentialDataDecryptedObject,
): Promise<IssuedToken> {
	const signIn = signInFingerprint(credentials);
	const expired = String(credentials.accessToken ?? '');
	const key = `${signIn}:${createHash('sha256').update(expired).digest('hex')}`;
	return await sharedSignIn(
		key,
		expired !== '',
		async () => await signInAt(helper, credentials, signIn),
	);
}

/** Wootric's text analytics API (CXI): the same sign-in, another host. */
export const TEXT_ANALYTICS_HOST = 'https://cxi-api.wootric.com';

/**
 * Where the credential's token may go: the host serving the account (a region's, or the Custom
 * Base URL as typed), every region's host and the text analytics host, each over HTTPS. Any other
 * host is refused before the request is sent: the HTTP Request node, with this credential, sends
 * whatever URL its user typed.
 */
export function tokenMayGoTo(credentials: ICredentialDataDecryptedObject, target: URL): boolean {
	return tokenOrigins(credentials).some((origin) => origin.origin === target.origin);
}

function tokenOrigins(credentials: ICredentialDataDecryptedObject): URL[] {
	return [wootricBaseUrl(credentials), ...REGIONS.map(({ host }) => host), TEXT_ANALYTICS_HOST]
		.filter((origin) => URL.canParse(origin))
		.map((origin) => new URL(origin));
}

/** The host names of tokenMayGoTo's origins, as n8n's `allowedDomains` takes them. */
function tokenHostnames(credentials: ICredentialDataDecryptedObject): string[] {
	return [...new Set(tokenOrigins(credentials).map(({ hostname }) => hostname))];
}

/** The URL a request goes to: n8n's own nodes give `uri` (the legacy options), ours `url`. */
function targetOf(requestOptions: IHttpRequestOptions & { uri?: unknown }): URL | undefined {
	const url = String(requestOptions.url ?? requestOptions.uri ?? '');
	return URL.canParse(url, requestOptions.baseURL)
		? new URL(url, requestOptions.baseURL)
		: undefined;
}

/**
 * The credential's authenticate: `Authorization: Bearer <token>`, unless the token belongs to
 * another sign-in (the user changed the email, password, client, account token or region since).
 * Then the service answers 401, and n8n signs in afresh, also for the Test button, which otherwise
 * reuses a stored token. A request to a host that is not Wootric's is refused (tokenMayGoTo), and a
 * redirect keeps the token only on its own origin: n8n copies it onto a redirect to another origin
 * unless told not to, and refuses one to a host outside `allowedDomains` (a user's own list, where
 * the request has one, else Wootric's hosts: n8n's HTTP Request node passes an empty list for a
 * credential that allows every domain).
 */
export function withBearerToken(
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
): IHttpRequestOptions {
	const target = targetOf(requestOptions);
	if (!target || !tokenMayGoTo(credentials, target))
		throw new UserError(
			`The Wootric API credential signs requests to Wootric only (${shownUrl(wootricBaseUrl(credentials)) || 'its base URL'}, the other regions' hosts and ${TEXT_ANALYTICS_HOST}), not to ${target?.origin ?? 'this URL'}`,
			{ description: 'Choose another credential for that host, or correct the URL.' },
		);
	const sameOriginOnly = {
		...requestOptions,
		sendCredentialsOnCrossOriginRedirect: false,
		allowedDomains: requestOptions.allowedDomains || tokenHostnames(credentials).join(','),
	};
	if (credentials.issuedForSignIn !== signInFingerprint(credentials)) return sameOriginOnly;
	return {
		...sameOriginOnly,
		headers: {
			...requestOptions.headers,
			Authorization: `Bearer ${String(credentials.accessToken)}`,
		},
	};
}
