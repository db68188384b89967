import { interceptOutboundHttp } from '../../test/harness/outbound-http';

/**
 * One request the live check sent through n8n's request path and what came back, with nothing
 * secret kept: no request header, no sign-in's form or query, of the sign-in's answer only its
 * field names and their types; elsewhere a field named as a secret (SECRET_FIELDS) as its type, and
 * the login's secrets and every token seen withheld wherever they stand.
 */
export interface Exchange {
	/** What the check was doing: an endpoint (`GET /v1/end_users/:key`), or a named probe. */
	probe: string;
	method: string;
	/** The path, without the query. */
	path: string;
	status?: number;
	/** The answer's headers, lower-cased, without cookies. */
	headers: Record<string, string>;
	/** The answer's body: parsed JSON, text, or undefined when empty. */
	body?: unknown;
	/** What went wrong where no answer came. */
	error?: string;
}

/** The sign-in's path, under the base URL. */
const TOKEN_PATH = '/oauth/token';

/** Fields whose value is a secret in any answer: kept as their type only. */
const SECRET_FIELDS = new Set([
	'access_token',
	'refresh_token',
	'id_token',
	'password',
	'client_secret',
]);
const WITHHELD = '<withheld>';

interface HttpAnswer {
	statusCode?: number;
	status?: number;
	headers?: Record<string, unknown>;
	body?: unknown;
	data?: unknown;
}

function parsed(body: unknown): unknown {
	if (Buffer.isBuffer(body)) body = body.toString('utf8');
	if (typeof body !== 'string') return body ?? undefined;
	if (body.trim() === '') return undefined;
	try {
		return JSON.parse(body);
	} catch {
		return body;
	}
}

const typeName = (value: unknown) =>
	value === null ? 'null' : Array.isArray(value) ? 'list' : typeof value;

/** A sign-in's answer as kept: each field's type, never its value. */
function tokenShape(body: unknown): unknown {
	if (typeof body !== 'object' || body === null) return typeof body;
	return Object.fromEntries(Object.entries(body).map(([field, value]) => [field, typeName(value)]));
}

/** Adds to `secrets` the value of every secret field of `value`, at any depth. */
function learnSecrets(value: unknown, secrets: Set<string>): void {
	if (typeof value !== 'object' || value === null) return;
	for (const [field, inner] of Object.entries(value))
		if (SECRET_FIELDS.has(field.toLowerCase()) && typeof inner === 'string' && inner !== '')
			secrets.add(inner);
		else learnSecrets(inner, secrets);
}

/** `value` with each secret field as its type, and each of `secrets` withheld in every text. */
function withheld<T>(value: T, secrets: Set<string>): T {
	if (typeof value === 'string')
		return [...secrets].reduce((text, secret) => text.replaceAll(secret, WITHHELD), value) as T;
	if (typeof value !== 'object' || value === null) return value;
	if (Array.isArray(value)) return value.map((inner: unknown) => withheld(inner, secrets)) as T;
	return Object.fromEntries(
		Object.entries(value).map(([field, inner]) => [
			field,
			SECRET_FIELDS.has(field.toLowerCase()) ? typeName(inner) : withheld(inner, secrets),
		]),
	) as T;
}

function keptHeaders(headers: Record<string, unknown> | undefined): Record<string, string> {
	return Object.fromEntries(
		Object.entries(headers ?? {})
			.map(([name, value]) => [name.toLowerCase(), String(value)] as const)
			.filter(([name]) => name !== 'set-cookie'),
	);
}

function targetOf(options: Record<string, unknown>): URL | undefined {
	const url = String(options.url ?? options.uri ?? '');
	const base = (options.baseURL ?? options.baseUrl) as string | undefined;
	return URL.canParse(url, base) ? new URL(url, base) : undefined;
}

/**
 * Records every request n8n's request path sends (outbound-http.ts) while it runs, and refuses,
 * before sending, any to another origin than `baseUrl`'s, and follows no redirect: the check reaches
 * the host it was given and no other (a redirect is recorded as answered; followed, its later hops
 * would go wherever it points, with the token of the check's own probes). Paths are recorded under
 * `baseUrl` (a Custom Base URL may have one). Nothing of `secrets` (the login's) nor of the tokens
 * its answers carry is recorded: the set of what is withheld grows by the few tokens each sign-in
 * issues. `probe` names what the requests sent next are for.
 */
export function recordExchanges(baseUrl: string, secrets: Iterable<string> = []) {
	const { origin, pathname, username, password } = new URL(baseUrl);
	const basePath = pathname.replace(/\/+$/, '');
	const pathUnderBase = (path: string) =>
		basePath !== '' && path.startsWith(`${basePath}/`) ? path.slice(basePath.length) : path;
	const known = new Set(
		[...secrets, username, password, decodeURIComponent(password)].filter(
			(secret) => secret !== '',
		),
	);
	const exchanges: Exchange[] = [];
	const recorder = {
		exchanges,
		probe: '',
		stop: () => {},
	};
	recorder.stop = interceptOutboundHttp({
		send: (options) => {
			const target = targetOf(options);
			if (target?.origin !== origin)
				throw new Error(
					`The live check sends nothing to ${target?.origin ?? 'an unreadable URL'}: only to ${origin}`,
				);
			return { ...options, disableFollowRedirect: true };
		},
		settled: (options, { value, error }) => {
			const target = targetOf(options)!;
			const answer = (
				error === undefined ? value : (error as { response?: HttpAnswer }).response
			) as HttpAnswer | undefined;
			const full = error !== undefined || options.returnFullResponse === true;
			const body = parsed(full ? (answer?.body ?? answer?.data) : value);
			const status = full ? (answer?.statusCode ?? answer?.status) : 200;
			const path = pathUnderBase(target.pathname);
			learnSecrets(body, known);
			const exchange: Exchange = {
				probe: recorder.probe,
				method: String(options.method ?? 'GET').toUpperCase(),
				path,
				status,
				headers: full ? keptHeaders(answer?.headers) : {},
				body: path === TOKEN_PATH ? tokenShape(body) : body,
				// A sign-in's failure names no URL here: its query may hold the account token.
				error:
					status === undefined
						? path === TOKEN_PATH
							? 'no answer'
							: String((error as Error | undefined)?.message ?? error)
						: undefined,
			};
			exchanges.push(withheld(exchange, known));
		},
	});
	return recorder;
}
