import { OutboundHttp } from '@n8n/backend-network';
import { Container } from '@n8n/di';
import { FormData as UndiciFormData, request } from 'undici';

import { MAX_PAGE, MAX_PER_PAGE, type FakeWootric } from '../fake';

/** One record of a list answer, as far as paging needs it. */
interface Listed {
	id: number;
	created_at: string;
	updated_at: string;
}

/**
 * The time a list is sorted and windowed by: created_at, or updated_at (what the trigger reads).
 */
type TimeField = 'created' | 'updated';

/** What a request answered: status and body text. */
interface Answer {
	status: number;
	text: string;
}

type Send = (
	method: 'GET' | 'POST',
	url: string,
	headers: Record<string, string>,
	body?: string | FormData,
) => Promise<Answer>;

/** A plain undici request on a kept-alive connection. */
const undiciSend: Send = async (method, url, headers, body) => {
	const reply = await request(url, {
		method,
		headers,
		body: body instanceof FormData ? toUndiciForm(body) : body,
	});
	return { status: reply.statusCode, text: await reply.body.text() };
};

/**
 * The same request through n8n-core's request path, the one `httpRequestWithAuthentication` ends in
 * (OutboundHttp: axios, a new agent and connection per request), without a node, an engine or a
 * credential: what any n8n node pays per request.
 */
const n8nSend: Send = async (method, url, headers, body) => {
	const reply = (await Container.get(OutboundHttp).requests().request({
		method,
		url,
		headers,
		body,
		returnFullResponse: true,
		json: false,
		encoding: 'text',
		ignoreHttpStatusErrors: true,
	})) as {
		statusCode: number;
		body: string;
	};
	return { status: reply.statusCode, text: reply.body };
};

function toUndiciForm(form: FormData): UndiciFormData {
	const copy = new UndiciFormData();
	for (const [name, value] of form.entries()) copy.append(name, value);
	return copy;
}

type FloorPath = 'undici' | 'n8n';

/**
 * The floor: the fewest plain HTTP requests (undici, keep-alive) that do a benchmark's work against
 * the same fake, with no n8n, no validation and no error handling beyond what the work itself
 * needs. It signs in once, directly at /oauth/token. Made through n8n's request path instead, the
 * same requests tell what n8n itself costs.
 */
export class Floor {
	private constructor(
		private readonly baseUrl: string,
		private readonly accessToken: string,
		private readonly sendOn: Send,
	) {}

	static async signIn(fake: FakeWootric, path: FloorPath = 'undici'): Promise<Floor> {
		const { email, password } = fake.credentials;
		const reply = await request(`${fake.baseUrl}/oauth/token`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({ grant_type: 'password', username: email, password }).toString(),
		});
		const { access_token } = (await reply.body.json()) as { access_token: string };
		return new Floor(fake.baseUrl, access_token, path === 'undici' ? undiciSend : n8nSend);
	}

	async get<T>(pathAndQuery: string): Promise<T> {
		return await this.send<T>('GET', pathAndQuery);
	}

	async postForm(path: string, form: string): Promise<unknown> {
		return await this.send('POST', path, form, {
			'content-type': 'application/x-www-form-urlencoded',
		});
	}

	async postCsv(
		path: string,
		csv: string,
		fileName: string,
		fields: Record<string, string> = {},
	): Promise<unknown> {
		const form = new FormData();
		for (const [name, value] of Object.entries(fields)) form.append(name, value);
		form.append('csv', new Blob([csv], { type: 'text/csv' }), fileName);
		return await this.send('POST', path, form);
	}

	/**
	 * Every record of a list sorted by `field` (created_at, or updated_at as the trigger reads),
	 * oldest first, from `since` on, each once: pages 1 to 30 of 50, then the window moves to
	 * `created[gte]` (or `updated[gte]`) = the last second read, skipping ids already read. The API
	 * offers no other way past 1,500 records, so the floor pages exactly as the node does.
	 */
	async listAll(path: string, since?: number, field: TimeField = 'created'): Promise<Listed[]> {
		const records: Listed[] = [];
		const seen = new Set<number>();
		let edge = since;
		for (;;) {
			let lastSecond = edge;
			for (let page = 1; page <= MAX_PAGE; page++) {
				const window = edge === undefined ? '' : `${field}[gte]=${edge}&`;
				const list = await this.get<Listed[]>(
					`${path}?${window}sort_key=${field}_at&sort_order=asc&page=${page}&per_page=${MAX_PER_PAGE}`,
				);
				for (const record of list) {
					lastSecond = secondsOf(record[`${field}_at`]);
					if (seen.has(record.id)) continue;
					seen.add(record.id);
					records.push(record);
				}
				if (list.length < MAX_PER_PAGE) return records;
			}
			edge = lastSecond;
		}
	}

	private async send<T>(
		method: 'GET' | 'POST',
		pathAndQuery: string,
		body?: string | FormData,
		headers: Record<string, string> = {},
	): Promise<T> {
		const { status, text } = await this.sendOn(
			method,
			`${this.baseUrl}${pathAndQuery}`,
			{ ...headers, authorization: `Bearer ${this.accessToken}` },
			body,
		);
		if (status >= 300)
			throw new Error(`Floor: ${method} ${pathAndQuery} answered ${status}: ${text}`);
		return (text ? JSON.parse(text) : undefined) as T;
	}
}

/** "2024-03-10 12:00:00 -0800" (the service's list form) → UNIX seconds. */
function secondsOf(stamp: string): number {
	const [, date, time, sign, hours, minutes] = /^(\S+) (\S+) ([+-])(\d\d)(\d\d)$/.exec(stamp) ?? [];
	return Date.parse(`${date}T${time}${sign}${hours}:${minutes}`) / 1000;
}
