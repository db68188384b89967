import { OutboundHttp } from '@n8n/backend-network';
import type { HttpRequestClient } from '@n8n/backend-network';
import { Container } from '@n8n/di';

import { prepareN8nEnvironment } from './n8n-runtime';

/**
 * A look at, or a change of, every HTTP request n8n-core makes (`httpRequest`,
 * `httpRequestWithAuthentication`, the routing engine, a credential's `preAuthentication`, the legacy
 * `request` helper): they all go through `Container.get(OutboundHttp).requests()`. While an
 * interceptor is installed, the container hands out a wrapper of n8n's own OutboundHttp whose
 * clients pass each request's options through it before n8n's real client sends them over a real
 * socket, and tell it how each ended. With none installed, the container holds n8n's own instance
 * again, untouched.
 */
export interface OutboundInterceptor {
	/** The options to send instead of `options` (or the same); throwing refuses the request. */
	send?(options: Record<string, unknown>): Record<string, unknown>;
	/** What n8n's client resolved to, or threw, for a request sent with `options`. */
	settled?(options: Record<string, unknown>, outcome: { value?: unknown; error?: unknown }): void;
}

const installed: OutboundInterceptor[] = [];
let original: OutboundHttp | undefined;

/** The options as every interceptor, in the order installed, would send them. */
const throughAll = <T>(options: T): T =>
	installed.reduce(
		(current, interceptor) =>
			(interceptor.send?.(current as Record<string, unknown>) ?? current) as T,
		options,
	);

async function observed<T>(options: object, send: () => Promise<T>): Promise<T> {
	try {
		const value = await send();
		for (const interceptor of installed)
			interceptor.settled?.(options as Record<string, unknown>, { value });
		return value;
	} catch (error) {
		for (const interceptor of installed)
			interceptor.settled?.(options as Record<string, unknown>, { error });
		throw error;
	}
}

function interceptingOutboundHttp(real: OutboundHttp): OutboundHttp {
	// Inherits everything else (transport, egressFilter) from n8n's instance, and stays an
	// `instanceof OutboundHttp`.
	const wrapper = Object.create(real) as OutboundHttp;
	wrapper.requests = (clientOptions) => {
		const client = real.requests(clientOptions && throughAll(clientOptions));
		return {
			request: (async (requestOptions: Parameters<HttpRequestClient['request']>[0]) => {
				const options = throughAll(requestOptions);
				return await observed(options, async () => await client.request(options));
			}) as HttpRequestClient['request'],
			requestLegacy: async (requestOptions, callbacks) => {
				const options = throughAll(requestOptions);
				return await observed(options, async () => await client.requestLegacy(options, callbacks));
			},
		};
	};
	return wrapper;
}

/** Installs `interceptor` until the returned function removes it. */
export function interceptOutboundHttp(interceptor: OutboundInterceptor): () => void {
	installed.push(interceptor);
	if (original === undefined) {
		// n8n's OutboundHttp is built with a Logger, which reads the harness's environment when first
		// built.
		prepareN8nEnvironment();
		original = Container.get(OutboundHttp);
		Container.set(OutboundHttp, interceptingOutboundHttp(original));
	}
	return () => {
		const index = installed.indexOf(interceptor);
		if (index !== -1) installed.splice(index, 1);
		if (installed.length === 0 && original !== undefined) {
			Container.set(OutboundHttp, original);
			original = undefined;
		}
	};
}
