import { interceptOutboundHttp } from './outbound-http';

/**
 * Lets a test point a real host at a local fake, like an /etc/hosts entry: the Wootric credential
 * picks https://api.wootric.eu, .au or .com by itself (region 'auto' reads the account token), and
 * a test of that choice needs those origins to reach fake servers on 127.0.0.1 while everything
 * else in n8n stays real.
 *
 * How: while a mapping is set, an interceptor of n8n's own request path (outbound-http.ts) rewrites
 * the origin of `url`/`baseURL` (and the legacy `uri`/`baseUrl`) before n8n's real client sends the
 * request over a real socket. Paths, query strings, headers and bodies are left as they are.
 *
 * Not covered (unused by this package): `OutboundHttp.transport()` (undici dispatchers, fetch).
 * Unlike /etc/hosts the scheme changes too (https → http) and the Host header names the fake; a
 * request's `allowedDomains` that names a mapped host gets the fake's host beside it.
 */
const originMap = new Map<string, string>();

let removeInterceptor: (() => void) | undefined;

/** Scheme, host and port at the start of an absolute URL, e.g. `https://api.wootric.eu`. */
const ORIGIN_PREFIX = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

function originOf(url: string): string {
	return new URL(url).origin;
}

/** The URL with its origin replaced when that origin is mapped; anything else as it came. */
function rewriteOrigin<T>(url: T): T {
	if (typeof url !== 'string') return url;
	const prefix = ORIGIN_PREFIX.exec(url)?.[0];
	if (!prefix) return url;
	let target: string | undefined;
	try {
		target = originMap.get(originOf(prefix));
	} catch {
		return url;
	}
	return (target === undefined ? url : target + url.slice(prefix.length)) as T;
}

const URL_OPTIONS = ['url', 'baseURL', 'uri', 'baseUrl'] as const;

/**
 * A request's `allowedDomains` with the host of each mapped origin it names followed by the host
 * it is mapped to: a host name /etc/hosts points elsewhere is still that name.
 */
function mappedAllowedDomains(allowed: unknown): unknown {
	if (typeof allowed !== 'string') return allowed;
	const hosts = allowed.split(',').map((host) => host.trim().toLowerCase());
	const added = [...originMap]
		.filter(([from]) => hosts.includes(new URL(from).hostname))
		.map(([, to]) => new URL(to).hostname);
	return added.length === 0 ? allowed : [...hosts, ...added].join(',');
}

/** The options with mapped origins rewritten: a copy if anything changed, else the same object. */
function withMappedOrigins<T extends object>(options: T): T {
	const given = options as Record<string, unknown>;
	const changed = URL_OPTIONS.filter((key) => rewriteOrigin(given[key]) !== given[key]);
	const allowedDomains = mappedAllowedDomains(given.allowedDomains);
	if (changed.length === 0 && allowedDomains === given.allowedDomains) return options;
	const rewritten: Record<string, unknown> = { ...given, allowedDomains };
	for (const key of changed) rewritten[key] = rewriteOrigin(given[key]);
	return rewritten as T;
}

/**
 * Sends requests for the given origins to other origins until the returned function (or
 * `clearOriginMap`) removes them, e.g. `mapOrigins({ 'https://api.wootric.eu': fakeEu.baseUrl })`.
 * Keys and targets are reduced to their origins (`https://api.wootric.eu/` is the same key).
 */
export function mapOrigins(mapping: Record<string, string>): () => void {
	const entries = Object.entries(mapping).map(
		([from, to]) => [originOf(from), originOf(to)] as const,
	);
	for (const [from, to] of entries) originMap.set(from, to);
	removeInterceptor ??= interceptOutboundHttp({ send: withMappedOrigins });
	return () => {
		for (const [from, to] of entries) if (originMap.get(from) === to) originMap.delete(from);
		if (originMap.size === 0) clearOriginMap();
	};
}

/** Removes every mapping: n8n's own OutboundHttp is back in the container. */
export function clearOriginMap(): void {
	originMap.clear();
	removeInterceptor?.();
	removeInterceptor = undefined;
}
