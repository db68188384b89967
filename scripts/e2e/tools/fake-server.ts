import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as a fake answered it. */
export interface ToolRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	/** The body parsed by its content type (JSON or form), the raw text otherwise, or undefined. */
	body: unknown;
	contentType?: string;
	status: number;
	receivedAt: string;
}

/** A request as a fake's model sees it. */
export interface ToolCall {
	method: string;
	path: string;
	query: Record<string, string>;
	body: unknown;
	/** Set when the body claimed to be JSON and was not. */
	bodyError?: string;
	contentType?: string;
	authorization?: string;
}

export interface ToolAnswer {
	status: number;
	body: unknown;
	/** Headers beside the content type (Slack's Retry-After). */
	headers?: Record<string, string>;
}

/**
 * The HTTP side of a fake tool API: it listens on 127.0.0.1, reads and parses each body, asks the
 * model (`answer`) and logs the request with its status. The model stays synchronous, so two
 * requests never interleave inside it, as one row lock would in the real service.
 *
 * A fake served through the TLS proxy (tls-proxy.ts) listens too: the proxy hands it each
 * decrypted tunnel as a connection, and tests may still call it on plain http.
 */
export abstract class FakeToolServer {
	readonly requests: ToolRequest[] = [];
	readonly server: Server;
	url = '';
	/** While set, every request gets this answer instead of the model's: the tool is down. */
	outage: ToolAnswer | undefined;

	constructor() {
		this.server = createServer((request, response) => void this.serve(request, response));
	}

	async listen(port = 0): Promise<string> {
		this.server.listen(port, '127.0.0.1');
		await once(this.server, 'listening');
		this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
		return this.url;
	}

	async close(): Promise<void> {
		if (!this.server.listening) return;
		this.server.closeAllConnections();
		this.server.close();
		await once(this.server, 'close');
	}

	protected abstract answer(call: ToolCall): ToolAnswer;

	private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const chunk of request) chunks.push(chunk as Buffer);
		const url = new URL(request.url ?? '/', 'http://fake');
		const contentType = request.headers['content-type'];
		const call: ToolCall = {
			method: request.method ?? 'GET',
			path: url.pathname,
			query: Object.fromEntries(url.searchParams),
			...parseBody(Buffer.concat(chunks).toString('utf8'), contentType),
			...(contentType === undefined ? {} : { contentType }),
			...(request.headers.authorization === undefined
				? {}
				: { authorization: request.headers.authorization }),
		};
		let answer: ToolAnswer;
		try {
			answer = this.outage ?? this.answer(call);
		} catch (error) {
			// A bug in a model: answer it as the 500 it is rather than hang the client.
			answer = { status: 500, body: { error: String(error) } };
		}
		this.requests.push({
			method: call.method,
			path: call.path,
			query: call.query,
			body: call.body,
			...(contentType === undefined ? {} : { contentType }),
			status: answer.status,
			receivedAt: new Date().toISOString(),
		});
		response.writeHead(answer.status, {
			'content-type': 'application/json; charset=utf-8',
			...answer.headers,
		});
		response.end(JSON.stringify(answer.body));
	}
}

function parseBody(text: string, contentType = ''): { body: unknown; bodyError?: string } {
	if (text === '') return { body: undefined };
	if (contentType.includes('application/x-www-form-urlencoded')) {
		return { body: Object.fromEntries(new URLSearchParams(text)) };
	}
	if (contentType.includes('json')) {
		try {
			return { body: JSON.parse(text) as unknown };
		} catch (error) {
			return { body: text, bodyError: (error as Error).message };
		}
	}
	return { body: text };
}

/** The user and password of a Basic Authorization header (the password may hold colons). */
export function basicCredentials(
	authorization: string | undefined,
): { user: string; password: string } | undefined {
	const encoded = /^Basic\s+(\S+)$/i.exec(authorization ?? '')?.[1];
	if (encoded === undefined) return undefined;
	const decoded = Buffer.from(encoded, 'base64').toString('utf8');
	const colon = decoded.indexOf(':');
	if (colon < 0) return undefined;
	return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

export function bearerToken(authorization: string | undefined): string | undefined {
	return /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
}

/** A plain object, else undefined: what a fake reads a JSON body's nested objects with. */
export function record(value: unknown): Record<string, unknown> | undefined {
	return typeof value === 'object' && value !== null && !Array.isArray(value)
		? (value as Record<string, unknown>)
		: undefined;
}
