import { FormData, request } from 'undici';

import type { FakeWootric } from '../server';

export interface RawReply {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	/** Parsed JSON, or undefined for an empty body. */
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- contract tests read the service's JSON as it came; expect() checks its shape
	body: any;
	text: string;
}

/**
 * A bare HTTP client for the fake's contract tests: requests are written out by hand (raw query
 * strings and form bodies in the spec's bracket notation), so the tests say exactly what goes over
 * the wire.
 */
export class RawClient {
	private accessToken?: string;

	constructor(private readonly fake: FakeWootric) {}

	/** A token for the fake's default account (password grant), fetched once. */
	async token(): Promise<string> {
		if (!this.accessToken) {
			const { email, password } = this.fake.credentials;
			const reply = await this.send('POST', '/oauth/token', {
				form: new URLSearchParams({ grant_type: 'password', username: email, password }).toString(),
				auth: false,
			});
			this.accessToken = reply.body.access_token as string;
		}
		return this.accessToken;
	}

	get(path: string, query = '', headers: Record<string, string> = {}) {
		return this.send('GET', path, { query, headers });
	}

	post(path: string, form = '') {
		return this.send('POST', path, { form });
	}

	put(path: string, form = '') {
		return this.send('PUT', path, { form });
	}

	delete(path: string) {
		return this.send('DELETE', path, {});
	}

	postMultipart(path: string, form: FormData) {
		return this.send('POST', path, { multipart: form });
	}

	async send(
		method: 'GET' | 'POST' | 'PUT' | 'DELETE',
		path: string,
		options: {
			query?: string;
			form?: string;
			multipart?: FormData;
			headers?: Record<string, string>;
			auth?: boolean;
		},
	): Promise<RawReply> {
		const headers: Record<string, string> = { ...options.headers };
		if (options.auth !== false && !('authorization' in headers))
			headers.authorization = `Bearer ${await this.token()}`;
		let body: string | FormData | undefined;
		if (options.form !== undefined && method !== 'GET' && method !== 'DELETE') {
			headers['content-type'] = 'application/x-www-form-urlencoded';
			body = options.form;
		}
		if (options.multipart) body = options.multipart;
		const url = `${this.fake.baseUrl}${path}${options.query ? `?${options.query}` : ''}`;
		const reply = await request(url, { method, headers, body });
		const text = await reply.body.text();
		return {
			status: reply.statusCode,
			headers: reply.headers,
			text,
			body: text ? JSON.parse(text) : undefined,
		};
	}
}
